// test-tier: slow (real eSpeak workers, and the compiled CLI)
/**
 * The eSpeak worker `say` starts before its engine exists (early-worker.ts): the pool takes it,
 * ready or not, and speaks with it instead of starting another; one nobody takes does not keep
 * the process alive.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  startEspeakWorkerEarly,
  takeEarlyWorker,
} from '../../../../electron/core/engine/espeak/early-worker';
import type { EngineSettings } from '../../../../electron/core/engine/espeak/protocol';
import { createWorkerPool } from '../../../../electron/core/engine/espeak/worker-pool';
import { useCompiledCli } from '../../../fixtures/compiled-cli';

const settings: EngineSettings = { voice: 'en-us', rate: 175, pitch: 50, range: 50, volume: 60 };
const ESPEAK_WORKER = new URL('../../../fixtures/faulty-worker.ts', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'early-worker-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the early eSpeak worker', () => {
  it('is taken by the first pool, which speaks with it and starts no other', async () => {
    // Ready before the pool exists: the pool hears the "ready" it said meanwhile.
    await startEspeakWorkerEarly(ESPEAK_WORKER);
    const pool = await createWorkerPool({ size: 2, workerUrl: ESPEAK_WORKER });
    try {
      const out = await pool.synthesize('Hello there.', settings);
      expect(out.pcm.length / out.sampleRate).toBeGreaterThan(0.5);
      expect(pool.workers).toBe(1);
      expect(takeEarlyWorker(ESPEAK_WORKER)).toBeUndefined();
    } finally {
      await pool.close();
    }
  });

  it('is taken while it still loads, and its "ready" comes to the pool', async () => {
    void startEspeakWorkerEarly(ESPEAK_WORKER);
    const pool = await createWorkerPool({ size: 1, workerUrl: ESPEAK_WORKER });
    try {
      const out = await pool.synthesize('Hello again.', settings);
      expect(out.words.length).toBeGreaterThanOrEqual(2);
      expect(pool.workers).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('is left for a pool of another worker script', async () => {
    void startEspeakWorkerEarly(ESPEAK_WORKER);
    expect(takeEarlyWorker(new URL('./elsewhere.ts', ESPEAK_WORKER))).toBeUndefined();
    const taken = takeEarlyWorker(ESPEAK_WORKER);
    expect(taken).toBeDefined();
    await taken!.worker.terminate();
  });

  it('does not keep `say` running when the command fails before it has an engine', () => {
    const r = useCompiledCli().say(
      ['--voice', 'en_female_nova_default', '--out', join(dir, 'x.wav'), '--speed', '9', 'Hi.'],
      undefined,
      dir,
    );
    // Ended by itself (a worker keeping it alive would end it by the spawn's timeout: no code).
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--speed');
  });
});
