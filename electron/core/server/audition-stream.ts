/**
 * The answer of an audition: a WAV streamed as the engine synthesises it. The status line waits
 * for the first audio (the first sentence), so an audition that fails before speaking still
 * gets an error in the API's shape; then the header (sizes unknown, as in speech-stream.ts)
 * goes out with that audio, and each later sentence as soon as it is ready (chunked). Nothing
 * is stored: a listener that hangs up stops the synthesis.
 *
 * The sentence cache: a request with `X-Sentence-Cache: bypass` is synthesised without it (the
 * workbench measures a voice so); every answer's `X-Sentence-Cache` says how much of it the cache
 * answered (`hit`, `partial`, `miss`, `bypass`), so figures timed from it are not taken for synthesis.
 */

import type { FastifyReply } from 'fastify';
import { AppError } from '../../shared/errors';
import {
  SENTENCE_CACHE_BYPASS,
  SENTENCE_CACHE_HEADER,
  type SentenceCacheUse,
} from '../../shared/sentence-cache';
import {
  createStreamEncoder,
  type AuditionOptions,
  type AuditionResult,
  type Engine,
  type StreamEncoder,
} from '../engine';
import { createPcmStream, sendPcmStream } from './pcm-stream';

/** Answers with the audition of `options`, streamed; rejects (before any byte) with its AppError. */
export async function sendAudition(
  reply: FastifyReply,
  engine: Pick<Engine, 'streamAudition'>,
  options: AuditionOptions,
): Promise<FastifyReply> {
  const bypassCache = wantsNoCache(reply.request.headers[SENTENCE_CACHE_HEADER.toLowerCase()]);
  let cacheUse: SentenceCacheUse | undefined;
  const queue: Int16Array[] = [];
  let sampleRate = 0;
  let outcome: { result: AuditionResult } | { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  // Wakes the wait for the first audio; once the stream exists, feeds it instead.
  let poke = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const nextEvent = () => new Promise<void>((resolve) => (wake = resolve));
  const stop = new AbortController();
  // The response closes when it is done or its connection is cut: only the second stops the engine.
  reply.raw.once('close', () => {
    if (!outcome) stop.abort(new AppError('CANCELLED', 'The listener hung up.'));
    poke();
  });

  void engine
    .streamAudition({
      ...options,
      ...(bypassCache ? { bypassCache } : {}),
      signal: stop.signal,
      onCache: (use) => (cacheUse = use),
      onAudio: (pcm, rate) => {
        sampleRate = rate;
        queue.push(pcm);
        poke();
      },
    })
    .then(
      (result) => (outcome = { result }),
      (error: unknown) => (outcome = { error }),
    )
    .finally(() => poke());

  while (queue.length === 0 && !outcome) await nextEvent();
  if (queue.length === 0 && outcome && 'error' in outcome) throw outcome.error;
  let encoder: StreamEncoder;
  try {
    encoder = await createStreamEncoder('wav', {
      sampleRate: sampleRate || (outcome && 'result' in outcome ? outcome.result.sampleRate : 0),
    });
  } catch (error) {
    stop.abort(error);
    throw error;
  }
  const stream = createPcmStream(encoder);
  // From here the engine's audio and its end go straight to the stream.
  const flush = () => {
    for (const pcm of queue.splice(0)) stream.push(pcm);
    if (outcome) stream.end('error' in outcome ? (outcome.error as Error) : undefined);
  };
  poke = flush;
  flush();
  if (cacheUse) reply.header(SENTENCE_CACHE_HEADER, cacheUse);
  return sendPcmStream(reply, stream, encoder.contentType);
}

/** Whether the request's X-Sentence-Cache asks for no cache; INVALID_FIELD for another value. */
function wantsNoCache(value: string | string[] | undefined): boolean {
  if (value === undefined) return false;
  if (typeof value === 'string' && value.trim().toLowerCase() === SENTENCE_CACHE_BYPASS) return true;
  throw new AppError(
    'INVALID_FIELD',
    `Invalid ${SENTENCE_CACHE_HEADER} header: the one value a request may send is "${SENTENCE_CACHE_BYPASS}".`,
    { field: SENTENCE_CACHE_HEADER },
  );
}
