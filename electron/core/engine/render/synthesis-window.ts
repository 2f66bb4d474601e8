/**
 * Keeps the backend busy while bounding memory: up to `backend.window` planned chunks are
 * sent ahead of the one being written, and results come back in text order. With a backend
 * that answers from the sentence cache, the plan is read further ahead (`MISS_LOOKAHEAD`) and
 * the calls the cache cannot answer start as soon as fewer than `backend.window` of them are in
 * flight: after an edit, the changed sentences are synthesised while the render writes the
 * sentences before them, instead of the render waiting for them when it gets there.
 */

import { AppError, isAppError } from '../../../shared/errors';
import type { SynthesisOutput } from '../espeak/worker-pool';
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

/**
 * Planned chunks looked at ahead of the one being written for engine calls the cache cannot
 * answer (their plans only: text, no audio). A 100,000-character chapter is about 1,000.
 */
const MISS_LOOKAHEAD = 1000;
/**
 * Chunks planned beyond the window on each step, so the look-ahead grows as the render goes
 * rather than delaying its first audio (a streamed audition waits for it) by a thousand plans.
 */
const PLAN_STEP = 8;

/** A planned chunk ahead of the one being written, and its audio once asked for. */
interface Pending extends PlannedChunk {
  /** Whether the engine must synthesise it (the cache cannot answer it). */
  miss: boolean;
  result: Promise<SynthesisOutput | undefined> | undefined;
}

/** Synthesises `plan` on the pool, yielding chunks in order as each one is ready. */
export async function* synthesizeInOrder(
  plan: AsyncIterator<PlannedChunk>,
  { backend, owner, signal }: SynthesisWindowOptions,
): AsyncGenerator<SynthesizedChunk> {
  const { window, isCached } = backend;
  const lookahead = isCached ? Math.max(window, MISS_LOOKAHEAD) : window;
  const ahead: Pending[] = [];
  let exhausted = false;
  /** Misses asked for and not yet written, and misses not yet asked for. */
  let missesInFlight = 0;
  let missesWaiting = 0;

  const start = (pending: Pending) => {
    const { prepared } = pending;
    const result = prepared ? backend.synthesize(prepared.engineText, owner) : Promise.resolve(undefined);
    // Rejections are awaited in order below; this only keeps them from being reported as unhandled.
    result.catch(() => undefined);
    pending.result = result;
    if (pending.miss) {
      missesInFlight++;
      missesWaiting--;
    }
  };

  const refill = async () => {
    for (let planned = 0; !exhausted && ahead.length < lookahead; planned++) {
      if (ahead.length >= window && planned >= PLAN_STEP) break;
      const next = await plan.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      const text = next.value.prepared?.engineText;
      const miss = text !== undefined && !(isCached?.(text) ?? false);
      if (miss) missesWaiting++;
      ahead.push({ ...next.value, miss, result: undefined });
    }
    // Answers from the cache are read within the window (each holds its audio until written);
    // misses start in text order, at most a window of them in flight, wherever they are.
    for (let i = 0; i < ahead.length; i++) {
      if (i >= window && (missesWaiting === 0 || missesInFlight >= window)) break;
      const pending = ahead[i]!;
      if (pending.result) continue;
      if (pending.miss ? missesInFlight < window : i < window) start(pending);
    }
  };

  await refill();
  while (ahead.length > 0) {
    if (signal?.aborted) throw abortError(signal);
    const head = ahead.shift()!;
    // Misses start in text order, so an unstarted head has none in flight before it: `refill`
    // has started it. This only keeps that true should the rule above change.
    if (!head.result) start(head);
    const output = await head.result;
    if (head.miss) missesInFlight--;
    await refill();
    // One turn of the event loop per chunk. From the sentence cache the next chunks are often
    // ready already, and the render would run through them without ever letting the thread
    // pool's finished file operations (each write of the output, each read of an entry) hand
    // over their next step, then wait with nothing to do while those steps ran one by one.
    await new Promise((resolve) => setImmediate(resolve));
    yield { chunk: head.chunk, prepared: head.prepared, output, more: ahead.length > 0 || !exhausted };
  }
}

/** Why a render stopped: the AppError its signal was aborted with, else CANCELLED. */
export function abortError(signal: AbortSignal): AppError {
  return isAppError(signal.reason) ? signal.reason : new AppError('CANCELLED', 'The render was aborted.');
}
