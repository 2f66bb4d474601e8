/**
 * A worker thread of the export's resampling (parallel-resampling.ts): it brings the chapters it
 * is sent to the output rate (chapter-audio.ts `wavsToRaw`), one at a time, and answers each with
 * its progress and then its samples or its error. The parent ends it (terminate) when the export
 * ends or fails.
 */

import { parentPort } from 'node:worker_threads';
import { isAppError } from '../../../shared/errors';
import { wavsToRaw } from './chapter-audio';
import type { ResamplingReply, ResamplingRequest } from './parallel-resampling';

const port = parentPort;
if (!port) throw new Error('resampling-worker.ts runs as a worker thread');

/** Progress is sent at most this often per chapter (fractions apart). */
const PROGRESS_STEP = 0.02;

port.on('message', (request: ResamplingRequest) => {
  let sent = 0;
  const onFraction = (fraction: number) => {
    if (fraction - sent < PROGRESS_STEP) return;
    sent = fraction;
    port.postMessage({ id: request.id, kind: 'progress', fraction } satisfies ResamplingReply);
  };
  wavsToRaw(request.job, onFraction).then(
    (samples) => port.postMessage({ id: request.id, kind: 'done', samples } satisfies ResamplingReply),
    (error: unknown) =>
      port.postMessage({
        id: request.id,
        kind: 'failed',
        code: isAppError(error) ? error.code : undefined,
        message: error instanceof Error ? error.message : String(error),
      } satisfies ResamplingReply),
  );
});
