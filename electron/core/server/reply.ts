/** The spec's successful answer: `{status: 1, result}` as text/json. Failures: errors.ts. */

import type { FastifyReply } from 'fastify';

/** Content type of every /api response: the spec says text/json. */
export const API_CONTENT_TYPE = 'text/json; charset=utf-8';

export function sendResult(reply: FastifyReply, result: unknown): FastifyReply {
  return reply.type(API_CONTENT_TYPE).send({ status: 1, result });
}
