/**
 * Render threads lower their own priority on Linux (thread-priority.ts): the engine host thread
 * and its synthesis workers run at nice 10, the thread that answers requests keeps its own.
 * Read from /proc/self/task/<tid>/stat, a real engine host rendering a real file.
 */

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineHost } from '../../../../electron/core/engine/host/engine-host';
import {
  RENDER_THREAD_NICE,
  renderThreadNice,
} from '../../../../electron/core/engine/threads/thread-priority';

/** Each thread of this process: its id and nice value (the 19th field of its stat line). */
function threadNice(): Map<number, number> {
  const threads = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const path = `/proc/self/task/${tid}/stat`;
    if (!existsSync(path)) continue; // ended meanwhile
    try {
      const stat = readFileSync(path, 'utf8');
      // After "pid (comm) ", fields from the 3rd on; nice is the 19th.
      threads.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // ended meanwhile
    }
  }
  return threads;
}

/** Starts an engine host, renders one sentence, and returns the nice values of the threads that appeared. */
async function newThreadsWhileRendering(dir: string): Promise<number[]> {
  const before = threadNice();
  const engine = await createEngineHost({ poolSize: 1 });
  try {
    await engine.render({
      text: 'A sentence rendered while the threads are counted.',
      voice_code: 'en_female_emily_us',
      model_id: 'std-v1.6',
      audio_type: 'wav',
      bitrate: 128,
      speed_rate: 1,
      pitch_rate: 1,
      volume: 100,
      audioPath: join(dir, `${Date.now()}.wav`),
    });
    return [...threadNice()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
  } finally {
    await engine.close();
  }
}

describe.runIf(process.platform === 'linux')('render thread priority (Linux)', () => {
  let dir: string;
  const saved = process.env.NARRATION_RENDER_NICE;
  const own = getPriority(0);
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'thread-priority-test-'));
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.NARRATION_RENDER_NICE;
    else process.env.NARRATION_RENDER_NICE = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(own >= RENDER_THREAD_NICE)(
    'the engine host thread and its synthesis worker run at nice 10; the calling thread keeps its own',
    async () => {
      delete process.env.NARRATION_RENDER_NICE;
      const niced = (await newThreadsWhileRendering(dir)).filter((nice) => nice === RENDER_THREAD_NICE);
      // The host thread and at least one synthesis worker (threads they start inherit it).
      expect(niced.length).toBeGreaterThanOrEqual(2);
      expect(getPriority(0)).toBe(own);
    },
  );

  it('NARRATION_RENDER_NICE=0 leaves them at the process priority', async () => {
    process.env.NARRATION_RENDER_NICE = '0';
    const fresh = await newThreadsWhileRendering(dir);
    expect(fresh.length).toBeGreaterThanOrEqual(2);
    expect(fresh.filter((nice) => nice > own)).toEqual([]);
  });
});

describe('renderThreadNice', () => {
  it('is 10 by default, a value 0–19 from NARRATION_RENDER_NICE, and the default for anything else', () => {
    expect(renderThreadNice({})).toBe(10);
    expect(renderThreadNice({ NARRATION_RENDER_NICE: '0' })).toBe(0);
    expect(renderThreadNice({ NARRATION_RENDER_NICE: '19' })).toBe(19);
    for (const bad of ['20', '-1', '2.5', 'low'])
      expect(renderThreadNice({ NARRATION_RENDER_NICE: bad })).toBe(10);
  });
});
