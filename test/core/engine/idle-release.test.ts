/**
 * The engine sizes itself to the work and releases what sits idle: the pool starts with no
 * worker, grows to the queued work up to its size, shrinks after the idle time and serves
 * again; the Japanese dictionary and neural model sessions are dropped after the idle time
 * and come back on demand with the same results. Real workers, kuromoji and onnxruntime;
 * the idle timers on the test's clock (vi.useFakeTimers).
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../../electron/core/engine/create-engine';
import type { EngineSettings } from '../../../electron/core/engine/espeak/protocol';
import { createNeuralModels } from '../../../electron/core/engine/onnx/neural-models';
import { createWorkerPool } from '../../../electron/core/engine/espeak/worker-pool';
import {
  isJapaneseLoaded,
  releaseJapaneseAfterIdle,
} from '../../../electron/core/engine/text/languages/ja-kana';
import { prepareForEngine } from '../../../electron/core/engine/text/rules';
import { DEFAULT_SYNTHESIS } from '../../../electron/shared/options';
import { wavSamples } from '../../fixtures/audio-analysis';
import { buildPiperModel } from '../../fixtures/onnx/build-models';

const settings: EngineSettings = { voice: 'en-us+f3', rate: 175, pitch: 50, range: 50, volume: 60 };
// On the test's clock (setTimeout faked where it is used), so any length would do.
const IDLE_MS = 1500;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'idle-release-'));
});
afterAll(() => {
  // Other test files of this process get the default back.
  releaseJapaneseAfterIdle(60_000);
  rmSync(dir, { recursive: true, force: true });
});

describe('the worker pool', () => {
  it('starts no worker until a task, grows to the queued work up to its size, shrinks when idle and serves again', async () => {
    // The idle timers are the test's (setTimeout faked): none runs out between the tasks of a
    // batch however loaded the machine, and the release comes when the test moves the clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const pool = await createWorkerPool({ size: 2, idleMs: IDLE_MS });
    try {
      expect(pool.size).toBe(2);
      expect(pool.workers).toBe(0);

      // One sentence: one worker.
      const first = await pool.synthesize('Hello there.', settings);
      expect(first.pcm.length).toBeGreaterThan(0);
      expect(pool.workers).toBe(1);

      // A book's worth of queued tasks: the pool grows to its size, never beyond.
      let most = 0;
      const watch = setInterval(() => (most = Math.max(most, pool.workers)), 5);
      const many = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          pool.synthesize(`Sentence number ${i} of a long book, with a few more words.`, settings, 'book'),
        ),
      );
      clearInterval(watch);
      expect(many.every((r) => r.pcm.length > 0)).toBe(true);
      expect(most).toBe(2);
      expect(pool.workers).toBe(2);

      // Not before the idle time; then every worker is released.
      await vi.advanceTimersByTimeAsync(IDLE_MS - 1);
      expect(pool.workers).toBe(2);
      await vi.advanceTimersByTimeAsync(1);
      await vi.waitFor(() => expect(pool.workers).toBe(0), { timeout: 30_000, interval: 20 });

      // And the work brings one back, speaking as before.
      const again = await pool.synthesize('Hello there.', settings);
      expect(pool.workers).toBe(1);
      expect(again.pcm.length).toBe(first.pcm.length);
      expect(again.words).toEqual(first.words);
    } finally {
      vi.useRealTimers();
      await pool.close();
    }
    expect(pool.workers).toBe(0);
  });

  it('keeps its workers with an idle time of 0', async () => {
    // The pool's timers are the test's: it moves them far past any idle time at once.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const pool = await createWorkerPool({ size: 1, idleMs: 0 });
    try {
      await pool.synthesize('Hello.', settings);
      // No release is scheduled, and none happens however long it stays idle.
      await vi.advanceTimersByTimeAsync(60 * 60_000);
      expect(vi.getTimerCount()).toBe(0);
      expect(pool.workers).toBe(1);
    } finally {
      vi.useRealTimers();
      await pool.close();
    }
  });
});

describe('the Japanese dictionary', () => {
  it('is dropped after the idle time, and a later Japanese render reads kanji as before', async () => {
    // On the test's clock (setTimeout faked): no release comes during a render however loaded
    // the machine, and it comes when the test moves the clock past the idle time.
    const idleMs = 3000;
    const text = '東京の天気は晴れです。日本語を話します。';
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const engine = await createEngine({ poolSize: 1, idleReleaseMs: idleMs });
    const render = async (name: string) => {
      const audioPath = join(dir, `${name}.wav`);
      const result = await engine.render({
        ...DEFAULT_SYNTHESIS,
        text,
        voice_code: 'jp_female_yuki_default',
        audio_type: 'wav',
        audioPath,
      });
      return { result, pcm: wavSamples(new Uint8Array(await readFile(audioPath))).pcm };
    };
    try {
      const fresh = await render('fresh');
      expect(isJapaneseLoaded()).toBe(true);
      const freshKana = (await prepareForEngine(text, 'ja')).engineText;
      expect(freshKana).toContain('トーキョー');
      expect(freshKana).toContain('ニホンゴ');
      await vi.advanceTimersByTimeAsync(idleMs - 1);
      expect(isJapaneseLoaded()).toBe(true);
      // The release gives memory back in steps of its own (timers too): the clock moves on with it.
      await vi.waitFor(
        async () => {
          await vi.advanceTimersByTimeAsync(20);
          expect(isJapaneseLoaded()).toBe(false);
        },
        { timeout: 30_000, interval: 20 },
      );

      const reloaded = await render('reloaded');
      expect(isJapaneseLoaded()).toBe(true);
      expect((await prepareForEngine(text, 'ja')).engineText).toBe(freshKana);
      expect(reloaded.result.durationMs).toBe(fresh.result.durationMs);
      expect(reloaded.pcm.length).toBe(fresh.pcm.length);
    } finally {
      vi.useRealTimers();
      await engine.close();
    }
  });
});

describe('neural model sessions', () => {
  it('are released after the idle time and reopened by the next run, with the same output', async () => {
    const modelPath = join(dir, 'idle-voice.onnx');
    writeFileSync(modelPath, buildPiperModel({ numSpeakers: 1, sampleRate: 22050 }));
    // The idle timer is the test's (setTimeout faked): the release comes when the test moves the clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const models = createNeuralModels({ idleMs: IDLE_MS });
    const request = { ids: [1, 5, 9, 14, 20, 2], lengthScale: 1, noiseScale: 0, noiseW: 0 };
    try {
      expect(models.open).toBe(0);
      const model = await models.piper(modelPath);
      expect(models.open).toBe(1);
      const before = await model.run(request);

      await vi.advanceTimersByTimeAsync(IDLE_MS - 1);
      expect(models.open).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      await vi.waitFor(() => expect(models.open).toBe(0), { timeout: 30_000, interval: 20 });

      // The model a render holds keeps working: its next run reopens the session.
      const after = await model.run(request);
      expect(models.open).toBe(1);
      expect(Array.from(after.audio)).toEqual(Array.from(before.audio));
      // As does asking for it again.
      expect(await models.piper(modelPath)).toBeDefined();
      expect(models.open).toBe(1);
    } finally {
      vi.useRealTimers();
      await models.close();
    }
    expect(models.open).toBe(0);
  });

  it('are kept while a run is in flight', async () => {
    const modelPath = join(dir, 'busy-voice.onnx');
    writeFileSync(modelPath, buildPiperModel({ numSpeakers: 1, sampleRate: 22050 }));
    const models = createNeuralModels({ idleMs: 50 });
    const request = { ids: [1, 5, 9, 14, 20, 2], lengthScale: 1, noiseScale: 0, noiseW: 0 };
    try {
      const model = await models.piper(modelPath);
      // Runs back to back for longer than the idle time: the session is never released under them.
      const until = Date.now() + 300;
      let runs = 0;
      while (Date.now() < until) {
        await Promise.all([model.run(request), model.run(request)]);
        expect(models.open).toBe(1);
        runs++;
      }
      expect(runs).toBeGreaterThan(1);
    } finally {
      await models.close();
    }
  });
});
