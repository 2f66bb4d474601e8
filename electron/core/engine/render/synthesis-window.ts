/**
 * Keeps the backend busy while bounding memory: up to `backend.window` planned chunks are
 * sent ahead of the one being written, and results come back in text order.
 */

import { AppError, isAppError } from '../../../shared/errors';
import type { SynthesisOutput } from '../pool';
import type { SpeechBackend } from '../speech-backend';
import type { PlannedChunk } from './speech-plan';

/** A planned chunk with its audio (none for a chunk with nothing to say). */
export interface SynthesizedChunk extends PlannedChunk {
  output: SynthesisOutput | undefined;
  /** Whether another chunk follows. */
  more: boolean;
}

export interface SynthesisWindowOptions {
  backend: SpeechBackend;
  /** Groups this render's tasks in the pool, for fair turns and for `pool.cancel(owner)`. */
  owner: string;
  /** Checked before waiting for each chunk: an aborted render rejects with the signal's AppError reason, else CANCELLED. */
  signal?: AbortSignal | undefined;
}

/** Synthesises `plan` on the pool, yielding chunks in order as each one is ready. */
export async function* synthesizeInOrder(
  plan: AsyncIterator<PlannedChunk>,
  { backend, owner, signal }: SynthesisWindowOptions,
): AsyncGenerator<SynthesizedChunk> {
  const inFlight: Array<PlannedChunk & { result: Promise<SynthesisOutput | undefined> }> = [];
  let exhausted = false;
  const refill = async () => {
    while (!exhausted && inFlight.length < backend.window) {
      const next = await plan.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      const { prepared } = next.value;
      const result = prepared ? backend.synthesize(prepared.engineText, owner) : Promise.resolve(undefined);
      // Rejections are awaited in order below; this only keeps them from being reported as unhandled.
      result.catch(() => undefined);
      inFlight.push({ ...next.value, result });
    }
  };

  await refill();
  while (inFlight.length > 0) {
    if (signal?.aborted) throw abortError(signal);
    const head = inFlight.shift()!;
    const output = await head.result;
    await refill();
    // One turn of the event loop per chunk. From the sentence cache the next chunks are often
    // ready already, and the render would run through them without ever letting the thread
    // pool's finished file operations (each write of the output, each read of an entry) hand
    // over their next step, then wait with nothing to do while those steps ran one by one.
    await new Promise((resolve) => setImmediate(resolve));
    yield { chunk: head.chunk, prepared: head.prepared, output, more: inFlight.length > 0 || !exhausted };
  }
}

/** Why a render stopped: the AppError its signal was aborted with, else CANCELLED. */
export function abortError(signal: AbortSignal): AppError {
  return isAppError(signal.reason) ? signal.reason : new AppError('CANCELLED', 'The render was aborted.');
}
