/**
 * The studio's words for the API's errors. The API answers in English whatever the interface's
 * language (the cloud service's contract: clients read `error_code`, and the English
 * `error_message` is what its documentation shows); the studio shows, for each code, a sentence in
 * the interface's language and, after it, the server's own message, which names the field, the
 * line and column, the file or the limit. In English the server's message alone is shown.
 */

import { defineMessages, type IntlShape, type MessageDescriptor } from 'react-intl';
import type { ErrorCode } from '../../../electron/shared/errors';

export type StudioErrorCode = ErrorCode | 'NETWORK' | 'BAD_RESPONSE';

/** One headline per code: the compiler lists a code added to ErrorCode without one. */
export const ERROR_HEADLINES: Record<StudioErrorCode, MessageDescriptor> = defineMessages({
  INVALID_JSON: { id: 'errors.INVALID_JSON', defaultMessage: 'The request is not valid JSON.' },
  INVALID_FIELD: { id: 'errors.INVALID_FIELD', defaultMessage: 'A value is not valid.' },
  MISSING_FIELD: { id: 'errors.MISSING_FIELD', defaultMessage: 'A required value is missing.' },
  UNKNOWN_VOICE: { id: 'errors.UNKNOWN_VOICE', defaultMessage: 'There is no such voice.' },
  NOTHING_TO_SPEAK: {
    id: 'errors.NOTHING_TO_SPEAK',
    defaultMessage: 'The text has nothing to speak.',
  },
  TEXT_TOO_LONG: { id: 'errors.TEXT_TOO_LONG', defaultMessage: 'The text is too long.' },
  BODY_TOO_LARGE: { id: 'errors.BODY_TOO_LARGE', defaultMessage: 'What was sent is too large.' },
  UNSUPPORTED_MEDIA_TYPE: {
    id: 'errors.UNSUPPORTED_MEDIA_TYPE',
    defaultMessage: 'This kind of file is not accepted.',
  },
  UNAUTHORIZED: { id: 'errors.UNAUTHORIZED', defaultMessage: 'You are not signed in.' },
  INSUFFICIENT_CREDITS: {
    id: 'errors.INSUFFICIENT_CREDITS',
    defaultMessage: 'The key has too few credits left.',
  },
  TOO_MANY_REQUESTS: {
    id: 'errors.TOO_MANY_REQUESTS',
    defaultMessage: 'Too many requests: wait a moment and try again.',
  },
  FORBIDDEN_HOST: { id: 'errors.FORBIDDEN_HOST', defaultMessage: 'This address is not allowed.' },
  FORBIDDEN_ORIGIN: {
    id: 'errors.FORBIDDEN_ORIGIN',
    defaultMessage: 'This web page is not allowed to use the server.',
  },
  NOT_FOUND: { id: 'errors.NOT_FOUND', defaultMessage: 'Not found.' },
  REQUEST_NOT_FOUND: { id: 'errors.REQUEST_NOT_FOUND', defaultMessage: 'The request was not found.' },
  EXPORT_NOT_FOUND: { id: 'errors.EXPORT_NOT_FOUND', defaultMessage: 'The export was not found.' },
  PROJECT_NOT_FOUND: {
    id: 'errors.PROJECT_NOT_FOUND',
    defaultMessage: 'The project, or a part of it, was not found.',
  },
  PROJECT_CONFLICT: {
    id: 'errors.PROJECT_CONFLICT',
    defaultMessage: 'The project cannot be changed that way now.',
  },
  NO_CALLBACK_URL: { id: 'errors.NO_CALLBACK_URL', defaultMessage: 'The request has no callback URL.' },
  CALLBACK_NOT_ATTEMPTED: {
    id: 'errors.CALLBACK_NOT_ATTEMPTED',
    defaultMessage: 'The callback has not been tried yet.',
  },
  REQUEST_NOT_FINISHED: {
    id: 'errors.REQUEST_NOT_FINISHED',
    defaultMessage: 'The request has not finished yet.',
  },
  KEY_NOT_FOUND: { id: 'errors.KEY_NOT_FOUND', defaultMessage: 'The API key was not found.' },
  KEY_REVOKED: { id: 'errors.KEY_REVOKED', defaultMessage: 'The API key was revoked.' },
  IDEMPOTENCY_KEY_REUSED: {
    id: 'errors.IDEMPOTENCY_KEY_REUSED',
    defaultMessage: 'This Idempotency-Key was used for a different request.',
  },
  DATABASE_LOCKED: { id: 'errors.DATABASE_LOCKED', defaultMessage: 'The database is busy.' },
  DATABASE_TOO_NEW: {
    id: 'errors.DATABASE_TOO_NEW',
    defaultMessage: 'The database was made by a newer version of the studio.',
  },
  DATABASE_CORRUPT: { id: 'errors.DATABASE_CORRUPT', defaultMessage: 'The database is damaged.' },
  DATABASE_UNAVAILABLE: {
    id: 'errors.DATABASE_UNAVAILABLE',
    defaultMessage: 'The database cannot be reached.',
  },
  ENGINE_FAILED: { id: 'errors.ENGINE_FAILED', defaultMessage: 'The speech engine failed.' },
  ENGINE_TIMEOUT: { id: 'errors.ENGINE_TIMEOUT', defaultMessage: 'The speech engine took too long.' },
  OUTPUT_FAILED: { id: 'errors.OUTPUT_FAILED', defaultMessage: 'The audio could not be written.' },
  SHUTTING_DOWN: { id: 'errors.SHUTTING_DOWN', defaultMessage: 'The server is shutting down.' },
  VOICE_PACK_INVALID: {
    id: 'errors.VOICE_PACK_INVALID',
    defaultMessage: 'The voice pack is damaged or incomplete.',
  },
  VOICE_DOWNLOAD_FAILED: {
    id: 'errors.VOICE_DOWNLOAD_FAILED',
    defaultMessage: 'The voice could not be downloaded.',
  },
  VOICE_PACK_NOT_FOUND: {
    id: 'errors.VOICE_PACK_NOT_FOUND',
    defaultMessage: 'The voice pack was not found.',
  },
  CUSTOM_VOICE_NOT_FOUND: {
    id: 'errors.CUSTOM_VOICE_NOT_FOUND',
    defaultMessage: 'The custom voice was not found.',
  },
  CUSTOM_VOICE_CONFLICT: {
    id: 'errors.CUSTOM_VOICE_CONFLICT',
    defaultMessage: 'This voice code is taken.',
  },
  CUSTOM_VOICE_READ_ONLY: {
    id: 'errors.CUSTOM_VOICE_READ_ONLY',
    defaultMessage: "This custom voice is the studio's: only the signed-in studio may change it.",
  },
  LEXICON_ENTRY_NOT_FOUND: {
    id: 'errors.LEXICON_ENTRY_NOT_FOUND',
    defaultMessage: 'The lexicon entry was not found.',
  },
  LEXICON_FILE_INVALID: {
    id: 'errors.LEXICON_FILE_INVALID',
    defaultMessage: 'The lexicon file cannot be read.',
  },
  SSML_INVALID: { id: 'errors.SSML_INVALID', defaultMessage: 'The SSML cannot be read.' },
  MANUSCRIPT_INVALID: {
    id: 'errors.MANUSCRIPT_INVALID',
    defaultMessage: 'The manuscript cannot be read.',
  },
  MANUSCRIPT_TOO_LARGE: {
    id: 'errors.MANUSCRIPT_TOO_LARGE',
    defaultMessage: 'The manuscript is too large.',
  },
  INSUFFICIENT_STORAGE: {
    id: 'errors.INSUFFICIENT_STORAGE',
    defaultMessage: 'There is not enough free disk space for this.',
  },
  CANCELLED: { id: 'errors.CANCELLED', defaultMessage: 'The request was cancelled.' },
  INTERNAL: { id: 'errors.INTERNAL', defaultMessage: 'Something went wrong inside the studio.' },
  NETWORK: {
    id: 'errors.NETWORK',
    defaultMessage: 'The studio server is not answering. Is it still running?',
  },
  BAD_RESPONSE: {
    id: 'errors.BAD_RESPONSE',
    defaultMessage: 'The server sent an answer the studio cannot read.',
  },
});

/**
 * A sentence for the user in the interface's language: in English the server's own message; in
 * another language the code's headline, then the server's message (in English) for its
 * particulars. A code the studio does not know (a newer server) shows the server's message.
 */
export function describeError(intl: IntlShape, error: { code: string; message: string }): string {
  const headline = ERROR_HEADLINES[error.code as StudioErrorCode];
  if (!headline || intl.locale.split('-')[0] === 'en') return error.message;
  const translated = intl.formatMessage(headline);
  const english = headline.defaultMessage as string;
  // The client's own sentences (no answer, an unreadable answer) have nothing more to say.
  if (error.message === english || error.code === 'NETWORK') return translated;
  return intl.formatMessage(
    { id: 'errors.withDetail', defaultMessage: '{headline} ({detail})' },
    { headline: translated, detail: error.message },
  );
}
