/**
 * The sentence cache's entry files: written with the entry checksum (NSC3) and their samples on
 * a 2-byte boundary, so a read returns them without a copy; entries of the earlier layouts (NSC1
 * with SHA-256, NSC2 with CRC-32) are misses; a damaged byte anywhere, or a missing one, makes an
 * entry unreadable (a miss). Read buffers are reused once the reader releases them, never before.
 */

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheEntryKey } from '../../../electron/core/engine/cache/cached-backend';
import {
  decodeEntry,
  encodeEntry,
  openSentenceCache,
} from '../../../electron/core/engine/cache/sentence-cache';
import type { SynthesisOutput } from '../../../electron/core/engine/espeak/worker-pool';

function output(samples: number, word: string): SynthesisOutput {
  const pcm = new Int16Array(samples);
  for (let i = 0; i < samples; i++) pcm[i] = ((i * 7919) % 65536) - 32768;
  return {
    pcm,
    sampleRate: 22050,
    // The word's length changes the header's, so both parities of the JSON length are written.
    words: [{ textPosition: word.length, wordLength: word.length, audioMs: 12.5 }],
    sentenceMs: [0, 250.5],
  };
}

/** An entry in the first layout, as the cache wrote it before NSC2: magic, length, JSON, PCM, SHA-256. */
function firstLayout(out: SynthesisOutput): Buffer {
  const json = Buffer.from(
    JSON.stringify({
      sampleRate: out.sampleRate,
      samples: out.pcm.length,
      words: out.words,
      sentenceMs: out.sentenceMs,
    }),
  );
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  const body = Buffer.concat([Buffer.from('NSC1'), length, json, Buffer.from(out.pcm.buffer)]);
  return Buffer.concat([body, createHash('sha256').update(body).digest()]);
}

/** `bytes` copied into a buffer of its own (as a file read gives), at `offset` within it. */
function ownBuffer(bytes: Buffer, offset = 0): Buffer {
  const copy = Buffer.alloc(bytes.length + offset);
  bytes.copy(copy, offset);
  return copy.subarray(offset);
}

describe('sentence cache entries', () => {
  it('round-trips, with the samples as a view on the bytes read, whatever the header length', () => {
    for (const word of ['a', 'ab', 'abc', 'abcd']) {
      const out = output(1001, word);
      const bytes = ownBuffer(encodeEntry(out));
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('NSC3');
      const back = decodeEntry(bytes);
      expect(back?.pcm).toEqual(out.pcm);
      expect(back?.pcm.buffer).toBe(bytes.buffer);
      expect(back && { ...back, pcm: undefined }).toEqual({ ...out, pcm: undefined });
    }
  });

  it('copies the samples when they are not aligned in memory', () => {
    const out = output(999, 'ab');
    const back = decodeEntry(ownBuffer(encodeEntry(out), 1));
    expect(back?.pcm).toEqual(out.pcm);
  });

  it('reads no entry of the earlier layouts (SHA-256, CRC-32): their keys are of an earlier format', () => {
    const out = output(500, 'ab');
    expect(decodeEntry(ownBuffer(firstLayout(out)))).toBeUndefined();
    const second = ownBuffer(encodeEntry(out));
    second.write('NSC2', 0, 'latin1');
    expect(decodeEntry(second)).toBeUndefined();
  });

  it('refuses an entry with any one byte changed or the last one missing', () => {
    const bytes = encodeEntry(output(40, 'abc'));
    for (let i = 0; i < bytes.length; i++) {
      const damaged = ownBuffer(bytes);
      damaged[i] = (damaged[i] ?? 0) ^ 0x10;
      expect(decodeEntry(damaged), `byte ${i}`).toBeUndefined();
    }
    expect(decodeEntry(bytes.subarray(0, bytes.length - 1))).toBeUndefined();
  });

  it('reuses a read buffer only once its output is released', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cache-entry-'));
    try {
      const cache = await openSentenceCache({ dir, maxBytes: 1e7 });
      const keys = ['one', 'two', 'three'].map((text) => cacheEntryKey('test', text));
      for (const [i, key] of keys.entries()) await cache.put(key, output(1000 + i, 'a'));
      const first = await cache.get(keys[0]!);
      const second = await cache.get(keys[1]!);
      expect(second!.pcm.buffer).not.toBe(first!.pcm.buffer);
      const firstSamples = first!.pcm.slice();
      // Not released: a further read leaves the first output as it was.
      const third = await cache.get(keys[2]!);
      expect(third!.pcm.buffer).not.toBe(first!.pcm.buffer);
      expect(first!.pcm).toEqual(firstSamples);
      // Released (twice: the second call does nothing): the next read may take its memory.
      first!.release?.();
      first!.release?.();
      const again = await cache.get(keys[1]!);
      expect(again!.pcm.buffer).toBe(first!.pcm.buffer);
      expect(again!.pcm).toEqual(output(1001, 'a').pcm);
      const once = await cache.get(keys[2]!);
      expect(once!.pcm.buffer).not.toBe(again!.pcm.buffer);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads an entry whose file changed size since it was indexed (rewritten by another instance)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cache-entry-'));
    try {
      const cache = await openSentenceCache({ dir, maxBytes: 1e7 });
      const key = cacheEntryKey('test', 'resized');
      await cache.put(key, output(100, 'a'));
      // Read with the size the index knows: one read call.
      expect((await cache.get(key))?.pcm.length).toBe(100);
      for (const samples of [300, 20]) {
        writeFileSync(join(dir, `${key}.snt`), encodeEntry(output(samples, 'a')));
        expect((await cache.get(key))?.pcm).toEqual(output(samples, 'a').pcm);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
