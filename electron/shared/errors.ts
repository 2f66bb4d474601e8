/**
 * The one error type of the app. Every failure the user or an API caller can see carries
 * a `code` from this union; the server maps codes to HTTP statuses in one place.
 */
export type ErrorCode =
  // input
  | 'INVALID_JSON'
  | 'INVALID_FIELD'
  | 'MISSING_FIELD'
  | 'UNKNOWN_VOICE'
  | 'NOTHING_TO_SPEAK'
  | 'TEXT_TOO_LONG'
  | 'BODY_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  // auth, money, quotas
  | 'UNAUTHORIZED'
  | 'INSUFFICIENT_CREDITS'
  | 'TOO_MANY_REQUESTS'
  | 'FORBIDDEN_HOST'
  | 'FORBIDDEN_ORIGIN'
  // lookups
  | 'NOT_FOUND'
  | 'REQUEST_NOT_FOUND'
  /** No audiobook export with this id for this key. */
  | 'EXPORT_NOT_FOUND'
  /** No book project with this id for this key (or no such chapter, segment, character or render in it: the message says which). */
  | 'PROJECT_NOT_FOUND'
  /** The edit cannot be made to the project as it is now (e.g. merge one chapter, nothing to undo). */
  | 'PROJECT_CONFLICT'
  | 'NO_CALLBACK_URL'
  | 'CALLBACK_NOT_ATTEMPTED'
  | 'REQUEST_NOT_FINISHED'
  | 'KEY_NOT_FOUND'
  /** The key was revoked: it takes no more credits. */
  | 'KEY_REVOKED'
  /** An Idempotency-Key sent again within its 24 h with a different request (IETF httpapi draft: 422). */
  | 'IDEMPOTENCY_KEY_REUSED'
  // storage
  | 'DATABASE_LOCKED'
  | 'DATABASE_TOO_NEW'
  | 'DATABASE_CORRUPT'
  /** The PostgreSQL server could not be reached, or refused the connection (address, login, database). */
  | 'DATABASE_UNAVAILABLE'
  /** Not enough free disk space for what was sent (a project archive's audio): the message says how much is needed. */
  | 'INSUFFICIENT_STORAGE'
  // engine and server
  | 'ENGINE_FAILED'
  | 'ENGINE_TIMEOUT'
  | 'OUTPUT_FAILED'
  | 'SHUTTING_DOWN'
  /** A voice's model or data file is missing, truncated or not the format its kind needs. */
  | 'VOICE_PACK_INVALID'
  /** A voice pack could not be downloaded (the mirror refused, failed or stopped answering). */
  | 'VOICE_DOWNLOAD_FAILED'
  /** No such voice pack in the catalogue, or not installed. */
  | 'VOICE_PACK_NOT_FOUND'
  /** No custom voice with this code. */
  | 'CUSTOM_VOICE_NOT_FOUND'
  /** A custom voice's code is taken (by another custom voice, a catalogue code, an OpenAI or Kokoro name). */
  | 'CUSTOM_VOICE_CONFLICT'
  /** A key tried to change or delete one of the studio's custom voices: only the signed-in studio may. */
  | 'CUSTOM_VOICE_READ_ONLY'
  /** No pronunciation-lexicon entry with this id. */
  | 'LEXICON_ENTRY_NOT_FOUND'
  /**
   * A lexicon file to import cannot be read (the message says where: line and column, or the
   * entry), or the data directory's lexicon.json is damaged and changes are refused.
   */
  | 'LEXICON_FILE_INVALID'
  /** SSML input that cannot be read: the message names the line and column (details: line, column, offset). */
  | 'SSML_INVALID'
  /**
   * A manuscript to import cannot be read: broken, encrypted, a zip bomb, entity expansion, a PDF
   * without a text layer. The message names the file and what is wrong (details: file, format).
   */
  | 'MANUSCRIPT_INVALID'
  /** A manuscript is over a limit (file size, an entry's inflated size, characters): the message names the file and the limit. */
  | 'MANUSCRIPT_TOO_LARGE'
  /** The request was cancelled by its owner before it finished (a FAILURE, refunded). */
  | 'CANCELLED'
  | 'INTERNAL';

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Extra machine-readable context (e.g. the field that failed validation). */
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/**
 * The end of an exhaustive switch over a union: the compiler rejects the call when a case is
 * missing, and a value from outside the union (a message from a newer peer) throws INTERNAL.
 */
export function assertNever(value: never): never {
  throw new AppError('INTERNAL', `unexpected value: ${JSON.stringify(value)}`);
}

/** An error as it crosses a thread boundary: an AppError keeps its code, anything else is `fallback`. */
export function toWireError(error: unknown, fallback: ErrorCode): { code: ErrorCode; message: string } {
  if (isAppError(error)) return { code: error.code, message: error.message };
  return { code: fallback, message: error instanceof Error ? error.message : String(error) };
}
