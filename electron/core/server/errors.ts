/**
 * The one place that maps error codes to HTTP statuses and to the spec's error body
 * `{status: 0, error_code, error_message}`. 5xx bodies never carry stack traces.
 */

import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply } from 'fastify';
import type { ErrorBody } from '../../shared/api';
import { AppError, isAppError, type ErrorCode } from '../../shared/errors';
import { API_CONTENT_TYPE } from './reply';
import { redactPaths } from '../platform/redact-paths';
import { errorDetails } from '../platform/error-details';

export const HTTP_STATUS: Record<ErrorCode, number> = {
  INVALID_JSON: 400,
  INVALID_FIELD: 400,
  MISSING_FIELD: 400,
  UNKNOWN_VOICE: 400,
  NOTHING_TO_SPEAK: 400,
  TEXT_TOO_LONG: 413,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  MANUSCRIPT_INVALID: 422,
  MANUSCRIPT_TOO_LARGE: 413,
  UNAUTHORIZED: 401,
  INSUFFICIENT_CREDITS: 402,
  TOO_MANY_REQUESTS: 429,
  FORBIDDEN_HOST: 403,
  FORBIDDEN_ORIGIN: 403,
  NOT_FOUND: 404,
  REQUEST_NOT_FOUND: 404,
  EXPORT_NOT_FOUND: 404,
  PROJECT_NOT_FOUND: 404,
  CUSTOM_VOICE_NOT_FOUND: 404,
  CUSTOM_VOICE_CONFLICT: 409,
  CUSTOM_VOICE_READ_ONLY: 403,
  PROJECT_CONFLICT: 409,
  NO_CALLBACK_URL: 404,
  CALLBACK_NOT_ATTEMPTED: 404,
  REQUEST_NOT_FINISHED: 409,
  KEY_NOT_FOUND: 404,
  KEY_REVOKED: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  DATABASE_LOCKED: 503,
  DATABASE_TOO_NEW: 503,
  DATABASE_CORRUPT: 503,
  DATABASE_UNAVAILABLE: 503,
  INSUFFICIENT_STORAGE: 507,
  ENGINE_FAILED: 500,
  ENGINE_TIMEOUT: 504,
  OUTPUT_FAILED: 500,
  SHUTTING_DOWN: 503,
  VOICE_PACK_INVALID: 422,
  VOICE_DOWNLOAD_FAILED: 502,
  VOICE_PACK_NOT_FOUND: 404,
  LEXICON_ENTRY_NOT_FOUND: 404,
  LEXICON_FILE_INVALID: 422,
  SSML_INVALID: 400,
  CANCELLED: 409,
  INTERNAL: 500,
};

/** Converts anything thrown in a route (ours or fastify's) into an AppError. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('BODY_TOO_LARGE', 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('INVALID_JSON', 'The body is empty; send a JSON object.');
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('INVALID_FIELD', 'The URL is not valid.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('INVALID_JSON', 'The body is not valid JSON.');
    default:
      break;
  }
  if (error instanceof SyntaxError) return new AppError('INVALID_JSON', 'The body is not valid JSON.');
  const status = fastifyError.statusCode ?? 500;
  if (status === 404) return new AppError('NOT_FOUND', 'Not found.');
  if (status === 413) return new AppError('BODY_TOO_LARGE', 'The request body is too large.');
  if (status >= 400 && status < 500)
    return new AppError('INVALID_FIELD', fastifyError.message ?? 'Bad request.');
  return new AppError('INTERNAL', 'Internal error.', undefined, { cause: error });
}

function errorBody(error: AppError): ErrorBody {
  const status = HTTP_STATUS[error.code];
  // Internal details stay in the log; the caller gets the code and a plain sentence.
  // Nor paths of this machine (a file-system error names the data folder): see redact-paths.ts.
  const message = status >= 500 && error.code === 'INTERNAL' ? 'Internal error.' : redactPaths(error.message);
  const details = status >= 500 && error.code === 'INTERNAL' ? undefined : errorDetails(error);
  return {
    status: 0,
    error_code: error.code,
    error_message: message,
    ...(details ? { error_details: details } : {}),
  };
}

/**
 * Answers a request node's HTTP parser refused before fastify saw it (malformed request line,
 * bad Content-Length or chunking, headers too large, timeout) with the spec's error body
 * instead of fastify's default one.
 */
export function writeClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || lingering.has(socket)) return;
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request took too long to arrive.']
        : [400, 'Bad Request', 'The request is not valid HTTP.'];
  const body = JSON.stringify(errorBody(new AppError('INVALID_FIELD', message)));
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Content-Type: ${API_CONTENT_TYPE}\r\nConnection: close\r\n\r\n${body}`,
  );
  lingerThenClose(socket);
}

/** Sockets closing after a refused request: what they still send is read and dropped. */
const lingering = new WeakSet<Duplex>();
/** How long, and how much, a refused request's remaining bytes are read before the socket is closed. */
const LINGER_MS = 2000;
const LINGER_BYTES = 1024 * 1024;

/**
 * A lingering close, as nginx's: the answer is sent and the sending side closed, then what the
 * client still sends (the rest of a 70 KB header, a body) is read and dropped until it closes, for
 * at most 2 s or 1 MB. Closing at once with unread bytes makes the kernel answer them with a
 * reset, which discards the answer in the client's receive queue if it had not read it yet
 * (measured: 77 answers lost of 200 from a client reading 100 ms late).
 */
function lingerThenClose(socket: Duplex): void {
  lingering.add(socket);
  let dropped = 0;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) socket.destroy();
  });
  socket.on('end', () => socket.destroy());
  socket.on('close', () => clearTimeout(timer));
  socket.resume();
}

export function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  const appError = toAppError(error);
  setRetryAfter(reply, appError);
  return reply.code(HTTP_STATUS[appError.code]).type(API_CONTENT_TYPE).send(errorBody(appError));
}

/** Sets Retry-After (whole seconds) when the error says when to come back (`details.retry_after_s`). */
export function setRetryAfter(reply: FastifyReply, error: AppError): void {
  const seconds = error.details?.retry_after_s;
  if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) {
    reply.header('retry-after', String(Math.ceil(seconds)));
  }
}
