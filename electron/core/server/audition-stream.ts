/**
 * The answer of an audition: a WAV streamed as the engine synthesises it. The status line waits
 * for the first audio (the first sentence), so an audition that fails before speaking still
 * gets an error in the API's shape; then the header (sizes unknown, as in speech-stream.ts)
 * goes out with that audio, and each later sentence as soon as it is ready (chunked). Nothing
 * is stored: a listener that hangs up stops the synthesis.
 */

import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { AppError } from '../../shared/errors';
import { createStreamEncoder, type StreamEncoder } from '../engine/audio/stream-encoder';
import type { AuditionOptions, AuditionResult, Engine } from '../engine/engine';

/** Samples encoded per write before the event loop may run (see speech-stream.ts). */
const ENCODE_SLICE = 8192;

/** Answers with the audition of `options`, streamed; rejects (before any byte) with its AppError. */
export async function sendAudition(
  reply: FastifyReply,
  engine: Pick<Engine, 'streamAudition'>,
  options: AuditionOptions,
): Promise<FastifyReply> {
  const queue: Int16Array[] = [];
  let sampleRate = 0;
  let outcome: { result: AuditionResult } | { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const poke = () => {
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
      signal: stop.signal,
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
    .finally(poke);

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

  const body = new PassThrough();
  body.on('error', () => undefined);
  body.on('close', () => {
    if (!outcome) stop.abort(new AppError('CANCELLED', 'The listener hung up.'));
    poke();
  });
  const pump = async () => {
    try {
      for (;;) {
        while (queue.length > 0 && !body.destroyed) {
          const pcm = queue.shift()!;
          for (let at = 0; at < pcm.length && !body.destroyed; at += ENCODE_SLICE) {
            body.write(await encoder.encode(pcm.subarray(at, at + ENCODE_SLICE)));
          }
        }
        if (outcome || body.destroyed) break;
        await nextEvent();
      }
      if (body.destroyed) return;
      // A failure after the first audio can only cut the stream: the client sees it incomplete.
      if (outcome && 'error' in outcome) throw outcome.error;
      const last = await encoder.finish();
      if (last.length > 0) body.write(last);
      body.end();
    } catch (error) {
      body.destroy(error as Error);
    } finally {
      await encoder.close().catch(() => undefined);
    }
  };
  void pump();
  return reply
    .code(200)
    .header('content-type', encoder.contentType)
    .header('cache-control', 'no-store')
    .send(body);
}
