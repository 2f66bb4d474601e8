/**
 * The sentence cache's entry files: written with a CRC-32 (NSC2) and their samples on a 2-byte
 * boundary, so a read returns them without a copy; entries of the first layout (NSC1, SHA-256)
 * still read; a damaged byte anywhere, or a missing one, makes an entry unreadable (a miss).
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
import type { SynthesisOutput } from '../../../electron/core/engine/pool';

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
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('NSC2');
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

  it('still reads entries of the first layout (SHA-256), and refuses them damaged', () => {
    for (const word of ['a', 'ab']) {
      const out = output(500, word);
      const bytes = firstLayout(out);
      expect(decodeEntry(ownBuffer(bytes))?.pcm).toEqual(out.pcm);
      const damaged = ownBuffer(bytes);
      damaged[damaged.length - 100] = (damaged[damaged.length - 100] ?? 0) ^ 1;
      expect(decodeEntry(damaged)).toBeUndefined();
    }
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
