/**
 * The render's synthesis window with the real eSpeak pool and a real sentence cache: results
 * come in text order; without a cache at most a window of engine calls is in flight; from the
 * cache, a changed sentence far ahead is synthesised early, while the sentences before it are
 * read, still with at most a window of engine calls in flight.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedBackend } from '../../../electron/core/engine/cache/cached-backend';
import { openSentenceCache, type SentenceCache } from '../../../electron/core/engine/cache/sentence-cache';
import { espeakBackend } from '../../../electron/core/engine/espeak/espeak-backend';
import { createWorkerPool, type WorkerPool } from '../../../electron/core/engine/espeak/worker-pool';
import { planSpeech } from '../../../electron/core/engine/render/speech-plan';
import { synthesizeInOrder } from '../../../electron/core/engine/render/synthesis-window';
import { resolveVoice } from '../../../electron/core/engine/render/voice';
import type { SpeechBackend } from '../../../electron/core/engine/speech-backend';

const voice = resolveVoice({
  voice_code: 'en_female_emily_us',
  model_id: 'std-v1.6',
  speed_rate: 1,
  pitch_rate: 1,
});
const sentences = (tag: string) =>
  Array.from({ length: 40 }, (_, i) => `Sentence ${i + 1} of the ${tag} text, with a few words more.`);

let dir: string;
let pool: WorkerPool;
let cache: SentenceCache;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'synthesis-window-'));
  pool = await createWorkerPool({ size: 2 });
  cache = await openSentenceCache({ dir, maxBytes: 64 * 1024 * 1024 });
});
afterAll(async () => {
  await pool?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The eSpeak backend, recording each engine call: which chunk was being written when it
 * started (`writing`), and the most calls in flight at once.
 */
function recordingEspeak() {
  const inner = espeakBackend(pool, voice.engine);
  const record = { writing: 0, starts: new Map<string, number>(), inFlight: 0, most: 0 };
  const backend: SpeechBackend = {
    ...inner,
    async synthesize(text, owner) {
      record.starts.set(text, record.writing);
      record.most = Math.max(record.most, ++record.inFlight);
      try {
        return await inner.synthesize(text, owner);
      } finally {
        record.inFlight--;
      }
    },
  };
  return { backend, record };
}

/** Runs the window over `text` to the end; returns the engine texts in the order they came. */
async function consume(text: string, backend: SpeechBackend, record: { writing: number }): Promise<string[]> {
  const order: string[] = [];
  for await (const { prepared, output } of synthesizeInOrder(planSpeech(text, voice), {
    backend,
    owner: 'test',
  })) {
    expect(output?.pcm.length ?? 1).toBeGreaterThan(0);
    output?.release?.();
    order.push(prepared?.engineText ?? '');
    record.writing++;
  }
  return order;
}

describe('synthesis window', () => {
  it('keeps at most a window of engine calls in flight, in text order, with and without a cache', async () => {
    const text = sentences('first').join(' ');
    const plain = recordingEspeak();
    const plainOrder = await consume(text, plain.backend, plain.record);
    expect(plainOrder.length).toBe(40);
    expect(plain.record.most).toBe(plain.backend.window);

    const cold = recordingEspeak();
    const coldOrder = await consume(text, cachedBackend(cold.backend, cache, pool), cold.record);
    expect(coldOrder).toEqual(plainOrder);
    expect(cold.record.most).toBe(cold.backend.window);
    await cache.flush();
  });

  it('starts a changed sentence far ahead early, and reads the rest from the cache', async () => {
    const original = sentences('second');
    await consume(original.join(' '), cachedBackend(recordingEspeak().backend, cache, pool), { writing: 0 });
    await cache.flush();

    const edited = [...original];
    edited[30] = 'A changed sentence, far ahead of the start, with other words in it.';
    edited[35] = 'Another changed one, near the end of the text.';
    const run = recordingEspeak();
    const order = await consume(edited.join(' '), cachedBackend(run.backend, cache, pool), run.record);
    const plain = recordingEspeak();
    expect(order).toEqual(await consume(edited.join(' '), plain.backend, plain.record));
    // Only the changed sentences reached the engine, long before the render wrote up to them.
    expect(run.record.starts.size).toBe(2);
    const starts = [...run.record.starts.values()];
    expect(Math.max(...starts)).toBeLessThan(20);
    expect(run.record.most).toBeLessThanOrEqual(run.backend.window);
  });
});
