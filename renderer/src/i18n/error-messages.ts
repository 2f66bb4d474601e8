/**
 * The studio's words for the API's errors. The API answers in English whatever the interface's
 * language (the cloud service's contract: clients read `error_code`, and the English
 * `error_message` is what its documentation shows), with the error's particulars as
 * `error_details` (line and column, the reason, the file, the limit: docs/API.md, "Errors"). The
 * studio writes, for each code, a sentence in the interface's language filled from those
 * particulars, never the server's English; in English the server's own message is shown.
 */

import { defineMessages, type IntlShape, type MessageDescriptor } from 'react-intl';
import type { ErrorDetails } from '../../../electron/shared/api';
import type { ErrorCode } from '../../../electron/shared/errors';
import type { SsmlErrorReason } from '../../../electron/shared/ssml';

/** ErrorCode, the studio's own (no answer, an unreadable one), and INTERRUPTED of a project export record. */
export type StudioErrorCode = ErrorCode | 'NETWORK' | 'BAD_RESPONSE' | 'INTERRUPTED';

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
  INTERRUPTED: {
    id: 'errors.INTERRUPTED',
    defaultMessage: 'The export was interrupted (the studio was closed before it finished): export again.',
  },
});

/** Why SSML (or a lexicon entry's IPA) cannot be read, one sentence per `details.reason`. */
export const SSML_REASONS: Record<SsmlErrorReason, MessageDescriptor> = defineMessages({
  syntax: { id: 'errors.ssml.syntax', defaultMessage: 'The markup is not written correctly here.' },
  entity: {
    id: 'errors.ssml.entity',
    defaultMessage: '“{value}” is not a valid entity: use {entities}.',
  },
  text_outside_speak: {
    id: 'errors.ssml.textOutsideSpeak',
    defaultMessage: 'All text must stand between {open} and {close}.',
  },
  speak_first: { id: 'errors.ssml.speakFirst', defaultMessage: 'The document must start with {open}.' },
  speak_nested: { id: 'errors.ssml.speakNested', defaultMessage: '{open} may not stand inside {open}.' },
  closes_nothing: {
    id: 'errors.ssml.closesNothing',
    defaultMessage: 'The end tag {close} closes no open element.',
  },
  wrong_close: {
    id: 'errors.ssml.wrongClose',
    defaultMessage: 'The end tag {close} is here where {expectedClose} was expected.',
  },
  not_closed: { id: 'errors.ssml.notClosed', defaultMessage: 'The element {tag} is not closed.' },
  inside_reading: {
    id: 'errors.ssml.insideReading',
    defaultMessage: '{tag} may not stand inside {expected}, which holds only text.',
  },
  no_text: { id: 'errors.ssml.noText', defaultMessage: 'The element {tag} has no text.' },
  missing_attribute: {
    id: 'errors.ssml.missingAttribute',
    defaultMessage: 'The element {tag} needs the attribute {attribute}.',
  },
  bad_value: {
    id: 'errors.ssml.badValue',
    defaultMessage: '“{value}” is not a valid value for {attribute} of {tag}.',
  },
  out_of_bounds: {
    id: 'errors.ssml.outOfBounds',
    defaultMessage: '“{value}” for {attribute} of {tag} is outside the allowed range.',
  },
  unknown_voice: { id: 'errors.ssml.unknownVoice', defaultMessage: 'There is no voice “{value}”.' },
  ipa_tone: {
    id: 'errors.ssml.ipaTone',
    defaultMessage:
      'IPA entries cannot hold tone marks such as “{symbol}” (character {position}): write a respelling instead.',
  },
  ipa_symbol: {
    id: 'errors.ssml.ipaSymbol',
    defaultMessage: 'The IPA symbol “{symbol}” (character {position}) is not supported.',
  },
  ipa_empty: { id: 'errors.ssml.ipaEmpty', defaultMessage: 'The IPA has no phonemes.' },
});

/** Sentences built from an error's details, for the codes and reasons that have them. */
const DETAILED_MESSAGES = defineMessages({
  ssmlPlace: { id: 'errors.ssml.place', defaultMessage: 'At line {line}, column {column}:' },
  field: { id: 'errors.field', defaultMessage: '(field “{field}”)' },
  file: { id: 'errors.file', defaultMessage: 'File: “{file}”.' },
  manuscriptDamaged: {
    id: 'errors.manuscript.damaged',
    defaultMessage: '“{file}” cannot be read as {format}: it may be damaged or not of that format.',
  },
  manuscriptUnreadable: {
    id: 'errors.manuscript.unreadable',
    defaultMessage: '“{file}” cannot be read: it may be damaged or of another format.',
  },
  manuscriptEncrypted: {
    id: 'errors.manuscript.encrypted',
    defaultMessage: '“{file}” is locked with a password or DRM: import a copy without one.',
  },
  manuscriptEntities: {
    id: 'errors.manuscript.entities',
    defaultMessage: '“{file}” declares XML entities, which are refused for safety.',
  },
  manuscriptNoTextLayer: {
    id: 'errors.manuscript.noTextLayer',
    defaultMessage:
      '“{file}” has no text layer (its pages are pictures, as in a scan): import a version with text.',
  },
  manuscriptEmpty: { id: 'errors.manuscript.empty', defaultMessage: '“{file}” is empty.' },
  tooLargeBytes: {
    id: 'errors.manuscript.tooLargeBytes',
    defaultMessage: '“{file}” is too large: the limit is {mib, number} MiB.',
  },
  tooLargeCharacters: {
    id: 'errors.manuscript.tooLargeCharacters',
    defaultMessage: '“{file}” holds more than {limit, number} characters, the most a manuscript may have.',
  },
  tooSlow: {
    id: 'errors.manuscript.tooSlow',
    defaultMessage: '“{file}” took longer than {seconds, number} s to read and was stopped.',
  },
  tooLarge: {
    id: 'errors.manuscript.tooLarge',
    defaultMessage: '“{file}” is over a limit of what a manuscript may hold.',
  },
  notManuscript: {
    id: 'errors.manuscript.notManuscript',
    defaultMessage:
      '“{file}” is not a manuscript the studio can read: import DOCX, EPUB, ODT, HTML, Markdown, plain text or PDF (with a text layer).',
  },
  downloadOffline: {
    id: 'errors.download.offline',
    defaultMessage:
      'This computer cannot reach {host}, where voices are downloaded from (no internet connection, or the site is blocked). To install a voice without it, bring its files from another computer and import them in the Voice library.',
  },
  signInRefused: {
    id: 'errors.signIn.refused',
    defaultMessage:
      'This sign-in address is wrong, was already used or is older than {minutes, number} minutes (each works once). Open the newest sign-in address printed in the terminal of “npm start” or “serve”.',
  },
  missingField: { id: 'errors.missingField', defaultMessage: 'The field “{field}” is required.' },
  textTooLong: {
    id: 'errors.textTooLong',
    defaultMessage: 'The text has {characters, number} characters; the most allowed is {limit, number}.',
  },
  textOverLimit: {
    id: 'errors.textOverLimit',
    defaultMessage: 'The text is longer than the {limit, number} characters allowed.',
  },
  bodyTooLarge: {
    id: 'errors.bodyTooLarge',
    defaultMessage: 'What was sent is larger than {mib, number} MiB, the most allowed.',
  },
  projectMissing: { id: 'errors.missing.project', defaultMessage: 'There is no project “{id}”.' },
  chapterMissing: { id: 'errors.missing.chapter', defaultMessage: 'This project has no chapter “{id}”.' },
  segmentMissing: { id: 'errors.missing.segment', defaultMessage: 'This project has no segment “{id}”.' },
  characterMissing: {
    id: 'errors.missing.character',
    defaultMessage: 'This project has no character “{id}”.',
  },
  renderMissing: { id: 'errors.missing.render', defaultMessage: 'This project has no render “{id}”.' },
  coverMissing: { id: 'errors.missing.cover', defaultMessage: 'This project has no cover picture.' },
  requestMissing: {
    id: 'errors.missing.request',
    defaultMessage: 'There is no request “{id}” made with this API key.',
  },
  exportMissing: {
    id: 'errors.missing.export',
    defaultMessage: 'There is no export “{id}” made with this API key.',
  },
  keyMissing: { id: 'errors.missing.key', defaultMessage: 'There is no API key “{id}”.' },
  customVoiceMissing: {
    id: 'errors.missing.customVoice',
    defaultMessage: 'There is no custom voice “{id}”.',
  },
  voicePackMissing: { id: 'errors.missing.voicePack', defaultMessage: 'There is no voice pack “{id}”.' },
  customVoiceTaken: {
    id: 'errors.customVoiceTaken',
    defaultMessage: 'The voice code “{id}” is taken: choose another.',
  },
  segmentsFailed: {
    id: 'errors.segmentsFailed',
    defaultMessage:
      '{count, plural, one {# segment} other {# segments}} could not be rendered: each failed segment says why.',
  },
});

const DETAILED: Record<keyof typeof DETAILED_MESSAGES, MessageDescriptor> = DETAILED_MESSAGES;

/** An error as the studio has it: its code, the server's English sentence, the details if any. */
export interface ErrorToDescribe {
  code: string;
  message: string;
  details?: ErrorDetails | undefined;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** Bytes as MiB to one decimal, for a limit in a sentence. */
const mebibytes = (bytes: number) => Math.round((bytes / 1024 ** 2) * 10) / 10;

/** `<name>` and `</name>` of an element named in the details. */
const openTag = (name: string) => `<${name}>`;
const closeTag = (name: string) => `</${name}>`;

/** The reason's sentence for SSML or IPA details, if the reason is one the studio knows. */
function ssmlReason(intl: IntlShape, details: ErrorDetails): string | undefined {
  const reason = text(details.reason);
  if (!reason || !Object.hasOwn(SSML_REASONS, reason)) return undefined;
  const tag = text(details.tag) ?? 'speak';
  const expected = text(details.expected) ?? '';
  return intl.formatMessage(SSML_REASONS[reason as SsmlErrorReason], {
    tag: openTag(tag),
    open: openTag('speak'),
    close: tag === 'speak' ? closeTag('speak') : closeTag(tag),
    expected: openTag(expected),
    expectedClose: closeTag(expected),
    attribute: text(details.attribute) ?? '',
    value: text(details.value) ?? '',
    symbol: text(details.symbol) ?? '',
    position: count(details.position) ?? 1,
    entities: '&amp; &lt; &gt; &quot; &apos;',
  });
}

/** The manuscript sentences (MANUSCRIPT_INVALID, MANUSCRIPT_TOO_LARGE, a file of no known kind). */
function manuscriptSentence(intl: IntlShape, code: string, details: ErrorDetails): string | undefined {
  const file = text(details.file);
  if (!file) return undefined;
  const reason = text(details.reason);
  if (code === 'MANUSCRIPT_INVALID') {
    if (reason === 'encrypted') return intl.formatMessage(DETAILED.manuscriptEncrypted, { file });
    if (reason === 'entities') return intl.formatMessage(DETAILED.manuscriptEntities, { file });
    if (reason === 'no_text_layer') return intl.formatMessage(DETAILED.manuscriptNoTextLayer, { file });
    if (reason === 'empty') return intl.formatMessage(DETAILED.manuscriptEmpty, { file });
    const format = text(details.format);
    return format
      ? intl.formatMessage(DETAILED.manuscriptDamaged, { file, format: format.toUpperCase() })
      : intl.formatMessage(DETAILED.manuscriptUnreadable, { file });
  }
  if (code === 'MANUSCRIPT_TOO_LARGE') {
    const bytes = count(details.limit_bytes);
    const characters = count(details.limit_characters);
    const ms = count(details.limit_ms);
    if (bytes !== undefined && details.entry === undefined)
      return intl.formatMessage(DETAILED.tooLargeBytes, {
        file,
        mib: mebibytes(bytes),
      });
    if (characters !== undefined)
      return intl.formatMessage(DETAILED.tooLargeCharacters, { file, limit: characters });
    if (ms !== undefined) return intl.formatMessage(DETAILED.tooSlow, { file, seconds: ms / 1000 });
    return intl.formatMessage(DETAILED.tooLarge, { file });
  }
  if (code === 'UNSUPPORTED_MEDIA_TYPE') return intl.formatMessage(DETAILED.notManuscript, { file });
  return undefined;
}

/**
 * The whole sentence the details allow for the code, or undefined when they say nothing the
 * headline does not (then the headline stands, with the field or the file named).
 */
function detailedSentence(intl: IntlShape, error: ErrorToDescribe, headline: string): string | undefined {
  const details = error.details ?? {};
  const { code } = error;
  const reason = text(details.reason);
  if (code === 'SSML_INVALID') {
    const line = count(details.line);
    const column = count(details.column);
    const place =
      line !== undefined && column !== undefined
        ? intl.formatMessage(DETAILED.ssmlPlace, { line, column })
        : undefined;
    const why = ssmlReason(intl, details);
    return [headline, place, why].filter(Boolean).join(' ');
  }
  if (code === 'INVALID_FIELD' && reason?.startsWith('ipa_')) {
    const why = ssmlReason(intl, details);
    return why ? `${headline} ${why}` : undefined;
  }
  const manuscript = manuscriptSentence(intl, code, details);
  if (manuscript) return manuscript;
  if (code === 'VOICE_DOWNLOAD_FAILED' && reason === 'offline' && text(details.host))
    return intl.formatMessage(DETAILED.downloadOffline, { host: text(details.host) });
  if (code === 'UNAUTHORIZED' && reason === 'sign_in_address_refused')
    return intl.formatMessage(DETAILED.signInRefused, { minutes: count(details.minutes) ?? 10 });
  return particularSentence(intl, code, details);
}

/** What a NOT_FOUND of a project names (`details.part`), one sentence each. */
const PROJECT_PARTS: Readonly<Record<string, MessageDescriptor>> = {
  project: DETAILED.projectMissing,
  chapter: DETAILED.chapterMissing,
  segment: DETAILED.segmentMissing,
  character: DETAILED.characterMissing,
  render: DETAILED.renderMissing,
  cover: DETAILED.coverMissing,
};

/** Codes whose details name the one thing missing or taken (`details.id`). */
const NAMED_BY_ID: Partial<Record<string, MessageDescriptor>> = {
  REQUEST_NOT_FOUND: DETAILED.requestMissing,
  EXPORT_NOT_FOUND: DETAILED.exportMissing,
  KEY_NOT_FOUND: DETAILED.keyMissing,
  CUSTOM_VOICE_NOT_FOUND: DETAILED.customVoiceMissing,
  VOICE_PACK_NOT_FOUND: DETAILED.voicePackMissing,
  CUSTOM_VOICE_CONFLICT: DETAILED.customVoiceTaken,
};

/**
 * The sentence naming an error's particular (docs/API.md, "Errors"): the field missing, the
 * voice unknown, the length and the limit, the thing not found; undefined without it.
 */
function particularSentence(intl: IntlShape, code: string, details: ErrorDetails): string | undefined {
  const id = text(details.id);
  const field = text(details.field);
  if (code === 'MISSING_FIELD' && field) return intl.formatMessage(DETAILED.missingField, { field });
  if (code === 'UNKNOWN_VOICE' && text(details.voice_code))
    return intl.formatMessage(SSML_REASONS.unknown_voice, { value: text(details.voice_code) });
  if (code === 'TEXT_TOO_LONG') {
    const limit = count(details.limit);
    const characters = count(details.characters);
    if (limit !== undefined && characters !== undefined)
      return intl.formatMessage(DETAILED.textTooLong, { characters, limit });
    if (limit !== undefined) return intl.formatMessage(DETAILED.textOverLimit, { limit });
  }
  if (code === 'BODY_TOO_LARGE' && count(details.limit_bytes) !== undefined)
    return intl.formatMessage(DETAILED.bodyTooLarge, { mib: mebibytes(count(details.limit_bytes)!) });
  const part = text(details.part);
  if (code === 'PROJECT_NOT_FOUND' && part && Object.hasOwn(PROJECT_PARTS, part) && (id || part === 'cover'))
    return intl.formatMessage(PROJECT_PARTS[part]!, { id });
  const failed = count(details.segments_failed);
  if (code === 'ENGINE_FAILED' && failed !== undefined)
    return intl.formatMessage(DETAILED.segmentsFailed, { count: failed });
  const named = NAMED_BY_ID[code];
  if (named && id) return intl.formatMessage(named, { id });
  return undefined;
}

/**
 * The sentence for a failed record (request, render, segment, export: its stored `error_code`,
 * `error_message` and `error_details`) in the interface's language; the message when there is
 * no code.
 */
export function describeFailure(
  intl: IntlShape,
  code: string | null | undefined,
  message: string | null,
  details?: ErrorDetails,
): string {
  if (!code) return message ?? '';
  return describeError(intl, { code, message: message ?? code, details });
}

/**
 * A sentence for the user in the interface's language: in English the server's own message; in
 * another language the code's sentence filled from the error's details (the reason, the line and
 * column, the file, the limit), or its headline naming the field or the file: never the
 * server's English. A code the studio does not know (a newer server) shows the server's message.
 */
export function describeError(intl: IntlShape, error: ErrorToDescribe): string {
  const headline = ERROR_HEADLINES[error.code as StudioErrorCode];
  if (!headline || intl.locale.split('-')[0] === 'en') return error.message;
  const translated = intl.formatMessage(headline);
  const detailed = detailedSentence(intl, error, translated);
  if (detailed) return detailed;
  const details = error.details ?? {};
  const field = text(details.field);
  if (field) return `${translated} ${intl.formatMessage(DETAILED.field, { field })}`;
  const file = text(details.file);
  if (file) return `${translated} ${intl.formatMessage(DETAILED.file, { file })}`;
  return translated;
}

/** Sentences for errors the browser itself raises (no server answer to word). */
const BROWSER_ERROR_MESSAGES = defineMessages({
  timeout: {
    id: 'errors.browser.timeout',
    defaultMessage: 'The studio server took too long to answer. Try again in a moment.',
  },
  aborted: { id: 'errors.browser.aborted', defaultMessage: 'It was stopped before it finished.' },
  audio: {
    id: 'errors.browser.audio',
    defaultMessage:
      'This browser cannot play the audio: it may be damaged, or of a kind the browser does not play.',
  },
  file: {
    id: 'errors.browser.file',
    defaultMessage:
      'The file cannot be read: it may have been moved or deleted, or another program may be using it.',
  },
  notAllowed: {
    id: 'errors.browser.notAllowed',
    defaultMessage: 'The browser did not allow this here: click again to try once more.',
  },
  download: {
    id: 'errors.browser.download',
    defaultMessage: 'The download failed (HTTP {status, number}).',
  },
});

const BROWSER_ERRORS: Record<keyof typeof BROWSER_ERROR_MESSAGES, MessageDescriptor> = BROWSER_ERROR_MESSAGES;

/** A failed download's HTTP status, for a sentence in the interface's language. */
export class DownloadError extends Error {
  constructor(readonly status: number) {
    super(`The download failed: HTTP ${status}.`);
    this.name = 'DownloadError';
  }
}

/** The DOMException names (and fetch's TypeError) the studio words, by what they mean. */
const BROWSER_ERROR_NAMES: Readonly<Record<string, keyof typeof BROWSER_ERRORS>> = {
  TimeoutError: 'timeout',
  AbortError: 'aborted',
  EncodingError: 'audio',
  NotSupportedError: 'audio',
  NotReadableError: 'file',
  NotFoundError: 'file',
  SecurityError: 'file',
  NotAllowedError: 'notAllowed',
};

/** The messages fetch rejects with when there is no answer (Chromium, Firefox, Safari, Node). */
const NO_ANSWER =
  /^(Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed|fetch failed)$/;

/**
 * The sentence for an error the browser raised (a fetch with no answer, a timeout, audio it
 * cannot decode, a file it cannot read, a failed download) in the interface's language; an
 * error it does not know keeps its message (the studio's own errors are already worded).
 */
export function describeBrowserError(intl: IntlShape, error: unknown): string {
  if (error instanceof DownloadError)
    return intl.formatMessage(BROWSER_ERRORS.download, { status: error.status });
  if (typeof MediaError !== 'undefined' && error instanceof MediaError)
    return intl.formatMessage(BROWSER_ERRORS.audio);
  if (!(error instanceof Error)) return String(error);
  if (error instanceof TypeError && NO_ANSWER.test(error.message))
    return intl.formatMessage(ERROR_HEADLINES.NETWORK);
  const kind = BROWSER_ERROR_NAMES[error.name];
  return kind ? intl.formatMessage(BROWSER_ERRORS[kind]) : error.message;
}
