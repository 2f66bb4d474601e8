/**
 * Opus encoded in several threads at once is the same as encoded alone. The engine's worker
 * threads encode the stored files while the server's thread encodes a streamed answer; an
 * encoder that shares buffers across threads (as @evan/opus's N-API binary does) gave each
 * thread a different stream with full-scale bursts and packets ffmpeg refused.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startWorker } from '../../../../electron/core/engine/threads/worker-thread';
import { speechPcm } from '../../../fixtures/espeak';
import { probeAudio } from '../../../fixtures/ffprobe';
import { encodeOpusInChunks } from '../../../fixtures/opus-encode';

const TEXT =
  'The lighthouse keeper climbed the stairs at dusk. The sea rolled in long grey lines. ' +
  'Far out, a ship turned towards the harbour, and the wind rose over the cliffs.';
const THREADS = 3;
/** eSpeak NG's output rate (resampled to 24 kHz by the encoder: the resampler runs in each thread too). */
const ESPEAK_RATE = 22050;

const dir = mkdtempSync(join(tmpdir(), 'opus-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function decoded(bytes: Uint8Array, name: string): Promise<Int16Array> {
  const path = join(dir, `${name}.opus`);
  writeFileSync(path, bytes);
  const probed = await probeAudio(path);
  expect(probed.errors, `${name}: ffmpeg errors`).toBe('');
  return probed.samples;
}

it('encodes the same stream in worker threads running at once as in one thread alone', async () => {
  const pcm = await speechPcm(Array(4).fill(TEXT).join(' '));
  const sampleRate = ESPEAK_RATE;
  const alone = await decoded(await encodeOpusInChunks(pcm, sampleRate), 'alone');

  const workers = Array.from({ length: THREADS }, () =>
    startWorker(new URL('../../../fixtures/opus-encode-worker.ts', import.meta.url)),
  );
  try {
    const answers = workers.map(
      (worker) =>
        new Promise<Uint8Array>((resolve, reject) => {
          worker.once('error', reject);
          worker.once('message', (m: { bytes?: Uint8Array; error?: string }) =>
            m.bytes ? resolve(m.bytes) : reject(new Error(m.error)),
          );
          worker.postMessage({ pcm, sampleRate });
        }),
    );
    // This thread encodes too, while the workers do.
    const streams = await Promise.all([...answers, encodeOpusInChunks(pcm, sampleRate)]);
    for (const [i, bytes] of streams.entries()) {
      const samples = await decoded(bytes, `thread-${i}`);
      expect(samples.length, `thread ${i}: length`).toBe(alone.length);
      let differing = 0;
      for (let k = 0; k < alone.length; k++) if (samples[k] !== alone[k]) differing++;
      expect(differing, `thread ${i}: samples unlike the stream encoded alone`).toBe(0);
    }
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}, 60_000);
