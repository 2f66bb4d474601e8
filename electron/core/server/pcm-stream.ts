/**
 * A response body fed with PCM as a render or an audition produces it: each piece is encoded
 * and written at once (chunked), in slices with the event loop let run between them — the
 * encoders are synchronous, and seconds of audio encoded in one go would hold back every
 * socket, this one too. Used by OpenAI speech (speech-stream.ts) and auditions
 * (audition-stream.ts); both hold their status line until the first audio, so an early
 * failure still gets an error in its API's shape.
 */

import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { StreamEncoder } from '../engine';
import { STREAMED_ANSWER_HEADERS } from './streamed-answer';

/** Samples encoded at a time before the event loop may run. */
const ENCODE_SLICE = 4096;

export interface PcmStream {
  /** The response body. It is destroyed when the client hangs up. */
  readonly body: PassThrough;
  /** Queues audio to encode and send, in order. */
  push(pcm: Int16Array): void;
  /**
   * No more audio. With `error` the stream is cut (the client sees an incomplete response:
   * the only way to fail once bytes are out); else the encoder's last bytes, then `trailer`.
   */
  end(error?: Error, trailer?: string): void;
}

export interface PcmStreamOptions {
  /** What goes on the wire for each encoded piece (default: the bytes themselves). */
  wrap?: (bytes: Uint8Array) => string | Uint8Array;
  /** Called once when the body closes, finished or cut off. */
  onClose?: () => void;
}

/** Starts pumping into a new body; the encoder is closed when the body is done. */
export function createPcmStream(encoder: StreamEncoder, options: PcmStreamOptions = {}): PcmStream {
  const body = new PassThrough();
  const queue: Int16Array[] = [];
  let ending: { error?: Error | undefined; trailer?: string | undefined } | undefined;
  let wake: (() => void) | undefined;
  const poke = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  // A client that hangs up only stops this stream; the caller decides what else stops.
  body.on('error', () => undefined);
  body.on('close', () => {
    options.onClose?.();
    poke();
  });
  const send = (bytes: Uint8Array) => {
    if (bytes.length > 0 && !body.destroyed) body.write(options.wrap ? options.wrap(bytes) : bytes);
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
        if (ending || body.destroyed) break;
        await new Promise<void>((resolve) => (wake = resolve));
      }
      if (body.destroyed) return;
      if (ending!.error) throw ending!.error;
      send(await encoder.finish());
      if (ending!.trailer) body.write(ending!.trailer);
      body.end();
    } catch (error) {
      body.destroy(error as Error);
    } finally {
      await encoder.close().catch(() => undefined);
    }
  };
  void pump();
  return {
    body,
    push(pcm) {
      queue.push(pcm);
      poke();
    },
    end(error, trailer) {
      ending ??= { error, trailer };
      poke();
    },
  };
}

/**
 * Sends the stream as a 200 with `contentType` (and the headers that keep proxies from holding
 * it back); a connection cut off mid-way destroys it.
 */
export function sendPcmStream(reply: FastifyReply, stream: PcmStream, contentType: string): FastifyReply {
  reply.raw.on('close', () => {
    if (!stream.body.writableEnded) stream.body.destroy();
  });
  return reply
    .code(200)
    .headers({ ...STREAMED_ANSWER_HEADERS, 'content-type': contentType })
    .send(stream.body);
}
