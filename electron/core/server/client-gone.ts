/**
 * A signal for work a request waits on that nobody needs once its client has gone: it aborts
 * when the response closes before it was sent (the connection cut) or when the client closes its
 * sending side (a FIN: a client that hung up sends the same; http-edge.ts keeps the answer, here
 * CANCELLED, for one that only half-closed), with CANCELLED as the reason. A response that
 * finishes closes too; by then the work is done and nothing aborts.
 */

import type { FastifyReply } from 'fastify';
import { AppError } from '../../shared/errors';

export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const response = reply.raw;
  const onClose = (): void => {
    if (!response.writableFinished) {
      controller.abort(new AppError('CANCELLED', 'The client went away before the answer.'));
    }
  };
  const socket = reply.request.raw.socket;
  if (response.destroyed || socket.readableEnded) onClose();
  else {
    response.once('close', onClose);
    socket.once('end', onClose);
    response.once('close', () => socket.off('end', onClose));
  }
  return controller.signal;
}
