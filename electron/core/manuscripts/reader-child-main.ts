/**
 * The child side of a read in a child process (reader-process.ts's runInChild): it takes the one
 * request its parent sends over IPC, runs the handler, and answers: the parts the handler sends
 * on the way (a large answer in pieces, each sent before the next is made), then one reply, the
 * value or the error in the API's shape, and exits. The child ends with its parent: when the IPC
 * channel closes (the parent exited or killed it), it exits.
 */

import { toWireError, type ErrorCode } from '../../shared/errors';

/** What a child sends: parts on the way, then the value or the error. */
export type ReaderChildReply<T> =
  | { part: unknown }
  | { ok: true; value: T }
  | { ok: false; code: string; message: string; details?: Record<string, unknown> };

/** Sends one part of the answer; resolves once it is on its way (the next is made after). */
export type SendPart = (part: unknown) => Promise<void>;

/**
 * Answers the parent's one request with `handle`; an error without a code becomes `fallbackCode`.
 * Call it once, at the child's start.
 */
export function answerOneRequest<Request, T>(
  handle: (request: Request, sendPart: SendPart) => Promise<T>,
  fallbackCode: ErrorCode,
): void {
  if (!process.send)
    throw new Error('a reader child must be started with an IPC channel (child_process.fork)');
  const send = (message: ReaderChildReply<T>) =>
    new Promise<void>((resolve, reject) =>
      process.send!(message, (error: Error | null) => (error ? reject(error) : resolve())),
    );
  process.once('disconnect', () => process.exit(1));
  process.once('message', (request: Request) => {
    void handle(request, (part) => send({ part }))
      .then(
        (value): ReaderChildReply<T> => ({ ok: true, value }),
        (error: unknown): ReaderChildReply<T> => {
          const { code, message } = toWireError(error, fallbackCode);
          const details = (error as { details?: Record<string, unknown> }).details;
          return { ok: false, code, message, ...(details ? { details } : {}) };
        },
      )
      .then(send)
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
}
