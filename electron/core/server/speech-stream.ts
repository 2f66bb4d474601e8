/**
 * The answer of `POST /v1/audio/speech`: the audio, streamed as the render produces it. The
 * request is rendered by the queue like any other (stored, charged, its file written); this
 * listens to its audio, encodes it again for the connection in the asked format and sends
 * each piece at once (chunked), so a player starts before the text is rendered. With
 * `stream_format: "sse"` the same bytes go as OpenAI's `speech.audio.delta` events (base64),
 * then `speech.audio.done` (Kokoro-FastAPI's captioned speech frames it as lines of JSON,
 * routes/kokoro-fastapi.ts). When listening is no longer possible (a replayed request, one
 * that already started), the finished file is sent instead.
 */

import { buffer } from 'node:stream/consumers';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode } from '../../shared/errors';
import { createStreamEncoder, type StreamEncoder } from '../engine';
import type { Jobs } from '../jobs';
import type { RequestRow } from '../store';
import { CONTENT_TYPES, sendFile } from './files';
import { createPcmStream, sendPcmStream, type PcmStream } from './pcm-stream';
import { STREAMED_ANSWER_HEADERS } from './streamed-answer';

/** Bytes of audio per event (or line) when a finished file is sent in a framing. */
const SSE_FILE_PIECE = 32 * 1024;

/**
 * How encoded audio goes out in a text format (OpenAI's SSE events, Kokoro-FastAPI's lines of
 * JSON): each piece wrapped, then a closing text once the request succeeded.
 */
export interface SpeechFraming {
  contentType: string;
  wrap(bytes: Uint8Array): string;
  /** The last text of a successful answer (read from the finished request's files if need be). */
  closing(done: RequestRow): Promise<string>;
}

interface SpeechAnswer {
  request: FastifyRequest;
  reply: FastifyReply;
  jobs: Jobs;
  /** The accepted request (source `openai`). */
  row: RequestRow;
  /** `audio`: the encoded bytes as they are; `sse`: OpenAI's events; or another framing. */
  streamFormat: 'audio' | 'sse' | SpeechFraming;
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

/** OpenAI's `stream_format: "sse"`: `speech.audio.delta` events, then `speech.audio.done`. */
const SSE_FRAMING: SpeechFraming = {
  contentType: 'text/event-stream',
  wrap: (bytes) => sseEvent({ type: 'speech.audio.delta', audio: Buffer.from(bytes).toString('base64') }),
  closing: async (done) => doneEvent(done),
};

function framingOf(streamFormat: SpeechAnswer['streamFormat']): SpeechFraming | undefined {
  return streamFormat === 'audio' ? undefined : streamFormat === 'sse' ? SSE_FRAMING : streamFormat;
}

/** Answers the speech request: streamed while it renders, or from its file once finished. */
export async function sendSpeech(answer: SpeechAnswer): Promise<FastifyReply> {
  const { reply, jobs, row } = answer;
  const framing = framingOf(answer.streamFormat);
  // Audio heard before the stream exists: the status line waits for the first of it.
  const early: Int16Array[] = [];
  let sampleRate = 0;
  // Set once the first audio has arrived and the encoder is ready.
  const live: { stream?: PcmStream } = {};
  let finished: { done: RequestRow; closing: string | undefined } | undefined;
  let wake: (() => void) | undefined;
  const unlisten = await jobs.runner.listen(row.id, (pcm, rate) => {
    if (live.stream) return live.stream.push(pcm);
    sampleRate = rate;
    early.push(pcm);
    wake?.();
  });
  reply.header('x-request-id', row.id);
  if (!unlisten) return sendFinished(answer, await jobs.whenFinished(row.id));
  // A render that fails after its first audio can only cut the stream.
  const endStream = ({ done, closing }: NonNullable<typeof finished>) =>
    live.stream!.end(done.status === 'SUCCESS' ? undefined : failure(done), closing);
  const settle = (outcome: NonNullable<typeof finished>) => {
    finished = outcome;
    if (live.stream) endStream(outcome);
    else wake?.();
  };
  /** A failure found after the render (a closing text that cannot be made): the answer fails. */
  const failed = (done: RequestRow, error: unknown) =>
    settle({
      done: { ...done, status: 'FAILURE', error_message: (error as Error).message },
      closing: undefined,
    });
  void jobs
    .whenFinished(row.id)
    .then(async (done) => {
      try {
        settle({
          done,
          closing: framing && done.status === 'SUCCESS' ? await framing.closing(done) : undefined,
        });
      } catch (error) {
        failed(done, error);
      }
    })
    .catch((error: unknown) => failed(row, error));

  while (early.length === 0 && !finished) await new Promise<void>((resolve) => (wake = resolve));
  if (early.length === 0) {
    unlisten();
    return sendFinished(answer, finished!.done);
  }
  let encoder: StreamEncoder;
  try {
    encoder = await createStreamEncoder(row.audio_type, { sampleRate, bitrate: row.bitrate });
  } catch (error) {
    unlisten();
    throw error;
  }
  const stream = createPcmStream(encoder, {
    ...(framing ? { wrap: (bytes) => framing.wrap(bytes) } : {}),
    // A client that hangs up only stops its stream: the request still finishes and is kept.
    onClose: unlisten,
  });
  for (const pcm of early) stream.push(pcm);
  live.stream = stream;
  if (finished) endStream(finished);
  return sendPcmStream(reply, stream, framing ? framing.contentType : encoder.contentType);
}

/** The answer from a finished request's file. */
async function sendFinished({ request, reply, jobs, streamFormat }: SpeechAnswer, done: RequestRow) {
  if (done.status !== 'SUCCESS') throw failure(done);
  const path = jobs.files.audioPath(done);
  const framing = framingOf(streamFormat);
  if (!framing) {
    return sendFile(
      request,
      reply,
      { files: jobs.files, path },
      CONTENT_TYPES[done.audio_type],
      `speech.${done.audio_type}`,
    );
  }
  const bytes = await buffer(jobs.files.read(path)).catch((error: unknown) => {
    throw new AppError('NOT_FOUND', 'The file is gone from the data directory.', undefined, { cause: error });
  });
  let events = '';
  for (let at = 0; at < bytes.length; at += SSE_FILE_PIECE) {
    events += framing.wrap(bytes.subarray(at, at + SSE_FILE_PIECE));
  }
  return reply
    .code(200)
    .headers({ ...STREAMED_ANSWER_HEADERS, 'content-type': framing.contentType })
    .send(events + (await framing.closing(done)));
}
