import { once } from 'node:events';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWorker } from '../../../../electron/core/engine/threads/worker-thread';
import { buildPiperModel, piperFrames, PIPER_HOP } from '../../../fixtures/onnx/build-models';
import { modelDir, type ModelDir } from '../../../fixtures/onnx/model-dir';

let dir: ModelDir;
beforeAll(async () => {
  dir = await modelDir();
});
afterAll(() => dir.remove());

it('opens and runs a model inside a worker thread', async () => {
  const modelPath = await dir.write('worker.onnx', buildPiperModel());
  const worker = startWorker(new URL('../../../fixtures/onnx/session-worker.ts', import.meta.url));
  try {
    const ids = [1, 0, 59, 0, 2];
    worker.postMessage({ modelPath, ids });
    const [answer] = (await once(worker, 'message')) as [
      { samples: number; spans: number[]; error?: string },
    ];
    expect(answer.error).toBeUndefined();
    expect(answer.spans).toEqual(ids.map((id) => piperFrames(id, 1) * PIPER_HOP));
    expect(answer.samples).toBe(answer.spans.reduce((a, b) => a + b, 0));
  } finally {
    await worker.terminate();
  }
});
