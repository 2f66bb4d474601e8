/**
 * The Idempotency-Key request header of the submit routes (`POST /api/v1/tts`,
 * `POST /v1/audio/speech`): read and checked here, honoured by the jobs in the transaction
 * that stores the request (jobs/idempotency.ts says what counts as the same request).
 */

import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import { hashRequest, type Jobs, type SubmitInput } from '../jobs';
import type { RequestRow } from '../store';

const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set to `true` on an answer that replays an earlier submit with the same key. */
const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1–255 printable ASCII characters (space to tilde). */
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * The request's Idempotency-Key, or undefined when it has none. Throws AppError
 * INVALID_FIELD (400, `details.field` = the header's name) when the header is sent more than
 * once, or its value (surrounding spaces aside, which HTTP drops) is not 1–255 printable
 * ASCII characters.
 */
function readIdempotencyKey(request: FastifyRequest): string | undefined {
  const raw = request.raw.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'idempotency-key') count++;
  const value = request.headers['idempotency-key'];
  if (count === 0 && value === undefined) return undefined;
  if (count > 1 || typeof value !== 'string') {
    throw new AppError('INVALID_FIELD', `Send one ${IDEMPOTENCY_KEY_HEADER} header, not several.`, {
      field: IDEMPOTENCY_KEY_HEADER,
    });
  }
  if (!VALID_KEY.test(value)) {
    throw new AppError(
      'INVALID_FIELD',
      `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 printable ASCII characters (got ${value.length} characters${value.length > 0 && !/^[\x20-\x7e]*$/.test(value) ? ', some not printable ASCII' : ''}).`,
      { field: IDEMPOTENCY_KEY_HEADER },
    );
  }
  return value;
}

/**
 * Submits `input` (validated, with its key and source) under the request's Idempotency-Key
 * when it has one, and resolves with the stored row: the new request, or on a replay the one
 * the key's first submit created, with `Idempotent-Replayed: true` set on `reply`. The
 * request's hash covers the route (method and path), `input` without the API key id (the
 * key is per API key anyway) and `answerOptions`: the validated options that shape the answer
 * but are not stored with the request (e.g. `response_type`, `stream_format`), so that a
 * resend asking for another answer is a different request. Rejects as `jobs.submit` does,
 * plus INVALID_FIELD for a bad header and IDEMPOTENCY_KEY_REUSED (422) for a key used with a
 * different request.
 */
export async function submitIdempotently(
  jobs: Jobs,
  request: FastifyRequest,
  reply: FastifyReply,
  input: SubmitInput,
  answerOptions: Readonly<Record<string, unknown>> = {},
): Promise<RequestRow> {
  const key = readIdempotencyKey(request);
  if (key === undefined) return jobs.submit(input);
  const { keyId: _apiKeyId, ...validated } = input;
  const requestHash = hashRequest({
    endpoint: `${request.method} ${request.routeOptions.url ?? request.url}`,
    request: validated,
    answer: answerOptions,
  });
  const { row, replayed } = await jobs.submitIdempotent(input, { key, requestHash });
  if (replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  return row;
}
