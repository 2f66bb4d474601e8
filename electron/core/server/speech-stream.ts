/**
 * The answer of `POST /v1/audio/speech`: the audio, streamed as the render produces it. The
 * request is rendered by the queue like any other (stored, charged, its file written); this
 * listens to its audio, encodes it again for the connection in the asked format and sends
 * each piece at once (chunked), so a player starts before the text is rendered. With
 * `stream_format: "sse"` the same bytes go as OpenAI's `speech.audio.delta` events (base64),
 * then `speech.audio.done`. When listening is no longer possible (a replayed request, one
 * that already started), the finished file is sent instead.
 */

import { readFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode } from '../../shared/errors';
import { createStreamEncoder } from '../engine/audio/stream-encoder';
import type { Jobs } from '../jobs';
import type { RequestRow } from '../store';
import { CONTENT_TYPES, sendFile } from './files';

/**
 * Samples encoded at a time before the event loop may run: the encoders are synchronous, and
 * a sentence of several seconds encoded in one go would hold back every socket, this one too.
 */
const ENCODE_SLICE = 4096;

/** Bytes of audio per SSE event when a finished file is sent as events. */
const SSE_FILE_PIECE = 32 * 1024;

interface SpeechAnswer {
  request: FastifyRequest;
  reply: FastifyReply;
  jobs: Jobs;
  /** The accepted request (source `openai`). */
  row: RequestRow;
  streamFormat: 'audio' | 'sse';
}

function sseEvent(event: object): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}

/** OpenAI's closing event; our "tokens" are the billed characters. */
function doneEvent(row: RequestRow): string {
  return sseEvent({
    type: 'speech.audio.done',
    usage: { input_tokens: row.characters, output_tokens: 0, total_tokens: row.characters },
  });
}

function failure(row: RequestRow): AppError {
  return new AppError(
    (row.error_code ?? 'ENGINE_FAILED') as ErrorCode,
    row.error_message ?? 'Synthesis failed.',
  );
}

/** Answers the speech request: streamed while it renders, or from its file once finished. */
export async function sendSpeech(answer: SpeechAnswer): Promise<FastifyReply> {
  const { reply, jobs, row } = answer;
  const queue: Int16Array[] = [];
  let sampleRate = 0;
  let finished: RequestRow | undefined;
  let wake: (() => void) | undefined;
  const poke = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const unlisten = jobs.runner.listen(row.id, (pcm, rate) => {
    sampleRate = rate;
    queue.push(pcm);
    poke();
  });
  reply.header('x-request-id', row.id);
  if (!unlisten) return sendFinished(answer, await jobs.whenFinished(row.id));
  const nextEvent = () => new Promise<void>((resolve) => (wake = resolve));
  void jobs.whenFinished(row.id).then((done) => {
    finished = done;
    poke();
  });

  // The status line waits for the first audio, so a request that fails early still gets an error.
  try {
    while (queue.length === 0 && !finished) await nextEvent();
  } catch (error) {
    unlisten();
    throw error;
  }
  if (queue.length === 0) {
    unlisten();
    return sendFinished(answer, finished!);
  }

  const sse = answer.streamFormat === 'sse';
  const encoder = await createStreamEncoder(row.audio_type, { sampleRate, bitrate: row.bitrate }).catch(
    (error: unknown) => {
      unlisten();
      throw error;
    },
  );
  const body = new PassThrough();
  // A client that hangs up only stops the stream: the request still finishes and is kept.
  body.on('error', () => undefined);
  body.on('close', () => {
    unlisten();
    poke();
  });
  const send = (piece: Uint8Array) => {
    if (body.destroyed || piece.length === 0) return;
    body.write(
      sse ? sseEvent({ type: 'speech.audio.delta', audio: Buffer.from(piece).toString('base64') }) : piece,
    );
  };
  const pump = async () => {
    try {
      for (;;) {
        while (queue.length > 0 && !body.destroyed) {
          const pcm = queue.shift()!;
          for (let at = 0; at < pcm.length && !body.destroyed; at += ENCODE_SLICE) {
            send(await encoder.encode(pcm.subarray(at, at + ENCODE_SLICE)));
            // Lets the socket send what was written, and other requests be served.
            await new Promise((resolve) => setImmediate(resolve));
          }
        }
        if (finished || body.destroyed) break;
        await nextEvent();
      }
      if (body.destroyed) return;
      // A render that fails mid-way cuts the stream: the client sees an incomplete response.
      if (finished!.status !== 'SUCCESS') throw failure(finished!);
      send(await encoder.finish());
      if (sse) body.write(doneEvent(finished!));
      body.end();
    } catch (error) {
      body.destroy(error as Error);
    } finally {
      unlisten();
      await encoder.close().catch(() => undefined);
    }
  };
  void pump();
  reply.raw.on('close', () => {
    if (!body.writableEnded) body.destroy();
  });
  return reply
    .code(200)
    .header('content-type', sse ? 'text/event-stream' : encoder.contentType)
    .header('cache-control', 'no-store')
    .send(body);
}

/** The answer from a finished request's file. */
async function sendFinished({ request, reply, row, jobs, streamFormat }: SpeechAnswer, done: RequestRow) {
  if (done.status !== 'SUCCESS') throw failure(done);
  const path = jobs.files.audioPath(done);
  if (streamFormat === 'audio') {
    return sendFile(request, reply, path, CONTENT_TYPES[done.audio_type], `speech.${done.audio_type}`);
  }
  const bytes = await readFile(path).catch((error: unknown) => {
    throw new AppError('NOT_FOUND', 'The file is gone from the data directory.', undefined, { cause: error });
  });
  let events = '';
  for (let at = 0; at < bytes.length; at += SSE_FILE_PIECE) {
    const piece = bytes.subarray(at, at + SSE_FILE_PIECE).toString('base64');
    events += sseEvent({ type: 'speech.audio.delta', audio: piece });
  }
  return reply
    .code(200)
    .header('content-type', 'text/event-stream')
    .header('cache-control', 'no-store')
    .send(events + doneEvent(row));
}
