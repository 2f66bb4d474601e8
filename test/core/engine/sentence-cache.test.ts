/**
 * The sentence cache with the real engine and real files: a render from the cache is
 * bit-identical to a render without one; after an edit only the edited paragraph's sentences
 * are synthesised; a different voice, speed or lexicon entry misses; the size limit evicts the
 * least recently used entry; a damaged entry is a miss; clearing empties the folder.
 */

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheEntryKey } from '../../../electron/core/engine/cache/cached-backend';
import {
  decodeEntry,
  encodeEntry,
  openSentenceCache,
} from '../../../electron/core/engine/cache/sentence-cache';
import { createEngine } from '../../../electron/core/engine/create-engine';
import type { Engine, LexiconRule, RenderRequest } from '../../../electron/core/engine/engine';
import { createWorkerPool, type SynthesisOutput } from '../../../electron/core/engine/espeak/worker-pool';
import { wavSamples } from '../../fixtures/audio-analysis';

const PARAGRAPHS = [
  'The old lighthouse keeper climbed the stairs every evening. There were one hundred and twelve of them. He knew every crack in the stone.',
  'A storm came in from the north that nobody in the village would ever forget. The boats stayed in the harbour. The bells rang twice.',
  '"Do you hear that?" his daughter asked. Far below, the waves struck the rocks. He nodded, but said nothing.',
  'By morning the sea was calm again. The keeper wrote three lines in his book. Then he slept until noon.',
];
/** The second paragraph with its first and last sentences changed, its middle one kept. */
const EDITED =
  'A gale came in from the west that nobody in the town would ever forget. The boats stayed in the harbour. The bells rang three times.';
const BASE = {
  voice_code: 'en_female_emily_us',
  model_id: 'std-v1.6',
  audio_type: 'wav',
  bitrate: 128,
  speed_rate: 1,
  pitch_rate: 1,
  volume: 100,
} as const;

let dir: string;
let cacheDir: string;
/** Renders through the cache under test. */
let cached: Engine;
/** Renders without any cache: the reference every cached render must equal. */
let plain: Engine;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sentence-cache-'));
  cacheDir = join(dir, 'cache', 'sentences');
  cached = await createEngine({ poolSize: 2, sentenceCache: { dir: cacheDir, maxBytes: 256 * 1024 * 1024 } });
  plain = await createEngine({ poolSize: 2 });
});
afterAll(async () => {
  await cached?.close();
  await plain?.close();
  rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
/** Renders `text` with `engine` to a WAV file; returns its bytes and the cache's counters moved by it. */
async function render(engine: Engine, text: string, request: Partial<RenderRequest> = {}) {
  const before = await engine.sentenceCacheStats();
  const audioPath = join(dir, `out-${++counter}.wav`);
  const srtPath = join(dir, `out-${counter}.srt`);
  await engine.render({ ...BASE, ...request, text, audioPath, srtPath });
  const after = await engine.sentenceCacheStats();
  return {
    wav: readFileSync(audioPath),
    srt: readFileSync(srtPath, 'utf8'),
    hits: after.hits - before.hits,
    misses: after.misses - before.misses,
  };
}

const TEXT = PARAGRAPHS.join('\n\n');
const EDITED_TEXT = PARAGRAPHS.map((p, i) => (i === 1 ? EDITED : p)).join('\n\n');

describe('renders through the sentence cache', () => {
  it('renders a text again from the cache alone, byte for byte the same file', async () => {
    const reference = await render(plain, TEXT);
    const cold = await render(cached, TEXT);
    expect(cold.hits).toBe(0);
    expect(cold.misses).toBeGreaterThanOrEqual(PARAGRAPHS.length * 3);
    expect(cold.wav.equals(reference.wav)).toBe(true);

    const warm = await render(cached, TEXT);
    expect(warm.misses).toBe(0);
    expect(warm.hits).toBe(cold.misses);
    expect(warm.wav.equals(reference.wav)).toBe(true);
    expect(warm.srt).toBe(reference.srt);
  });

  it('after an edit synthesises only the changed sentences, bit-identical to a render without the cache', async () => {
    const full = await render(cached, TEXT);
    expect(full.misses).toBe(0);
    const calls = full.hits;

    const edited = await render(cached, EDITED_TEXT);
    expect(edited.misses).toBe(2);
    expect(edited.hits).toBe(calls - 2);
    const reference = await render(plain, EDITED_TEXT);
    expect(edited.wav.equals(reference.wav)).toBe(true);
    expect(edited.srt).toBe(reference.srt);
  });

  it('streams the same audio from the cache as it writes, the streamed arrays left as they were handed over', async () => {
    const text = PARAGRAPHS.slice(0, 3).join('\n\n');
    await render(cached, text);
    // Kept without a copy: a read buffer reused under them would change what was streamed.
    const streamed: Int16Array[] = [];
    const warm = await render(cached, text, { onAudio: (pcm) => streamed.push(pcm) });
    expect(warm.misses).toBe(0);
    const joined = new Int16Array(streamed.reduce((n, pcm) => n + pcm.length, 0));
    let at = 0;
    for (const pcm of streamed) {
      joined.set(pcm, at);
      at += pcm.length;
    }
    expect(joined).toEqual(wavSamples(warm.wav).pcm);
  });

  it('misses for another voice, another speed, and exactly the sentence a lexicon entry changes', async () => {
    const one = PARAGRAPHS[0]!;
    const first = await render(cached, one);
    expect(first.misses).toBe(0);
    expect((await render(cached, one, { voice_code: 'en_male_onyx_default' })).hits).toBe(0);
    const faster = await render(cached, one, { speed_rate: 1.3 });
    expect(faster.hits).toBe(0);
    expect(faster.misses).toBe(first.hits);

    // "crack" is in the third sentence only.
    const lexicon: LexiconRule[] = [
      { match: 'crack', kind: 'respell', replacement: 'crevice', case_sensitive: false, whole_word: true },
    ];
    const withLexicon = await render(cached, one, { lexicon });
    expect(withLexicon.misses).toBe(1);
    expect(withLexicon.hits).toBe(first.hits - 1);
    const reference = await render(plain, one, { lexicon });
    expect(withLexicon.wav.equals(reference.wav)).toBe(true);
  });

  it('treats a damaged entry as a miss, removes it, and still renders the same audio', async () => {
    const one = PARAGRAPHS[3]!;
    const reference = await render(plain, one);
    const first = await render(cached, one);
    const entries = readdirSync(cacheDir).filter((n) => n.endsWith('.snt'));
    expect(entries.length).toBeGreaterThan(0);
    // Damage every entry: one truncated, the others with a flipped PCM byte.
    entries.forEach((name, i) => {
      const path = join(cacheDir, name);
      const bytes = readFileSync(path);
      if (i === 0) writeFileSync(path, bytes.subarray(0, bytes.length >> 1));
      else {
        bytes[bytes.length - 40] = (bytes[bytes.length - 40] ?? 0) ^ 0xff;
        writeFileSync(path, bytes);
      }
    });
    const again = await render(cached, one);
    expect(again.hits).toBe(0);
    expect(again.misses).toBe(first.hits + first.misses);
    expect(again.wav.equals(reference.wav)).toBe(true);
  });

  it('clears every entry; the next render synthesises again', async () => {
    await render(cached, TEXT);
    const stats = await cached.clearSentenceCache();
    expect(stats).toMatchObject({ enabled: true, entries: 0, bytes: 0 });
    expect(readdirSync(cacheDir).filter((n) => n.endsWith('.snt'))).toEqual([]);
    const after = await render(cached, TEXT);
    expect(after.hits).toBe(0);
  });

  it('reports a disabled cache for an engine without one', async () => {
    expect(await plain.sentenceCacheStats()).toEqual({
      enabled: false,
      entries: 0,
      bytes: 0,
      limit_bytes: 0,
      hits: 0,
      misses: 0,
    });
  });
});

describe('eSpeak, the ground the cache stands on', () => {
  it('speaks a text the same way on every worker, whatever each spoke before', async () => {
    const pool = await createWorkerPool({ size: 2, idleMs: 0 });
    try {
      const female = { voice: 'en-us+f3', rate: 190, pitch: 60, range: 50, volume: 60 };
      const other = { voice: 'fr', rate: 300, pitch: 20, range: 90, volume: 100 };
      const russian = { ...other, voice: 'ru' };
      const text = PARAGRAPHS[0]!;
      const bytes = (o: SynthesisOutput) =>
        Buffer.concat([Buffer.from(o.pcm.buffer), Buffer.from(JSON.stringify([o.words, o.sentenceMs]))]);
      const first = bytes(await pool.synthesize(text, female));
      for (let round = 0; round < 3; round++) {
        // Both workers busy with other voices and texts (and phonemes) between the calls, some of
        // which take far more memory than the warm-up did (a long text, Russian's 8.5 MB dictionary).
        const outputs = await Promise.all([
          pool.synthesize(text, female, 'a'),
          pool.synthesize(
            round === 1 ? 'Привет всем. '.repeat(40) : 'Bonjour à tous, il fait beau.',
            round === 1 ? russian : other,
            'b',
          ),
          pool.phonemize('Something else, entirely.', 'en-gb', 'c'),
          pool.synthesize(text, female, 'd'),
          pool.synthesize(`${round} other words. `.repeat(round === 2 ? 400 : 1), female, 'e'),
          pool.synthesize(text, female, 'f'),
        ]);
        for (const i of [0, 3, 5]) expect(bytes(outputs[i] as SynthesisOutput).equals(first)).toBe(true);
      }
      expect(pool.workers).toBe(2);
    } finally {
      await pool.close();
    }
  });
});

describe('eSpeak, the ground the cache stands on: its list of voices', () => {
  it('speaks the same before a worker makes its list of voices and after', async () => {
    // A worker starts without eSpeak's list of voices (its warm-up voice loads by its file); the
    // first request that may need it makes it, and it stays in the state each request starts from.
    const pool = await createWorkerPool({ size: 1, idleMs: 0 });
    try {
      const settings = { voice: 'en-us+f3', rate: 190, pitch: 60, range: 50, volume: 60 };
      const text = PARAGRAPHS[0]!;
      const bytes = (o: SynthesisOutput) =>
        Buffer.concat([Buffer.from(o.pcm.buffer), Buffer.from(JSON.stringify([o.words, o.sentenceMs]))]);
      const before = bytes(await pool.synthesize(text, settings));
      const ssml = '<speak>Hello <voice xml:lang="it">buongiorno</voice>, friends.</speak>';
      const ssmlFirst = bytes(await pool.synthesize(ssml, settings));
      expect(bytes(await pool.synthesize(text, settings)).equals(before)).toBe(true);
      // "en-gb" names no voice file: a language eSpeak looks up in its list.
      expect(await pool.phonemize('Tomato.', 'en-gb')).toHaveLength(1);
      expect(bytes(await pool.synthesize(text, settings)).equals(before)).toBe(true);
      expect(bytes(await pool.synthesize(ssml, settings)).equals(ssmlFirst)).toBe(true);
      expect(pool.workers).toBe(1);
    } finally {
      await pool.close();
    }
  });
});

describe('the cache store', () => {
  const output = (samples: number, value: number): SynthesisOutput => ({
    pcm: new Int16Array(samples).fill(value),
    sampleRate: 22050,
    words: [{ textPosition: 1, wordLength: 3, audioMs: 12.5 }],
    sentenceMs: [0],
  });

  it('evicts the least recently used entry beyond its size limit, and finds the rest after a restart', async () => {
    const folder = join(dir, 'lru');
    const entryBytes = encodeEntry(output(10_000, 1)).length;
    const store = await openSentenceCache({ dir: folder, maxBytes: entryBytes * 3 });
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((k) => cacheEntryKey('test', k));
    await store.put(a!, output(10_000, 1));
    await store.put(b!, output(10_000, 2));
    await store.put(c!, output(10_000, 3));
    // a is used again, so b is now the least recently used.
    expect((await store.get(a!))?.pcm[0]).toBe(1);
    await store.put(d!, output(10_000, 4));
    expect(store.stats()).toMatchObject({ entries: 3, bytes: entryBytes * 3 });
    expect(existsSync(join(folder, `${b}.snt`))).toBe(false);
    expect(await store.get(b!)).toBeUndefined();

    const reopened = await openSentenceCache({ dir: folder, maxBytes: entryBytes * 3 });
    expect(reopened.stats()).toMatchObject({ entries: 3, bytes: entryBytes * 3 });
    const back = await reopened.get(d!);
    expect(back && Array.from(back.pcm.subarray(0, 3))).toEqual([4, 4, 4]);
    expect(back?.words).toEqual(output(1, 0).words);
  });

  it('reads an entry written by another instance sharing the folder', async () => {
    const folder = join(dir, 'shared');
    const one = await openSentenceCache({ dir: folder, maxBytes: 1e7 });
    const two = await openSentenceCache({ dir: folder, maxBytes: 1e7 });
    const key = cacheEntryKey('test', 'shared');
    await one.put(key, output(100, 7));
    expect((await two.get(key))?.pcm[99]).toBe(7);
    await one.clear();
    expect(await two.get(key)).toBeUndefined();
  });

  it('refuses damaged bytes', () => {
    const bytes = encodeEntry(output(50, 9));
    expect(decodeEntry(bytes)?.pcm.length).toBe(50);
    expect(decodeEntry(bytes.subarray(0, bytes.length - 1))).toBeUndefined();
    const flipped = Buffer.from(bytes);
    flipped[20] = (flipped[20] ?? 0) ^ 1;
    expect(decodeEntry(flipped)).toBeUndefined();
    expect(
      decodeEntry(Buffer.from('not an entry at all, but long enough to read a header from')),
    ).toBeUndefined();
  });
});
