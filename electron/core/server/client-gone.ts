/**
 * A signal for work a request waits on that nobody needs once its client has gone: it aborts
 * when the response closes before it was sent (the connection cut), with CANCELLED as the
 * reason. A response that finishes closes too; by then the work is done and nothing aborts.
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
  if (response.destroyed) onClose();
  else response.once('close', onClose);
  return controller.signal;
}
