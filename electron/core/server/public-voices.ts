/**
 * GET /api/public/v1/voices in the service's published shape: `result.voices[]` (code, name,
 * gender, language_code, credit_factor, demo) and cursor paging (`result.pagination`), as its
 * clients read it. Cursors are opaque to clients: base64url of `["after" | "before", code]`.
 */

import type { PublicVoice, PublicVoiceList } from '../../shared/api';
import { AppError } from '../../shared/errors';
import { languageTag } from '../../shared/languages';
import { VOICES, type VoiceInfo } from '../../shared/voices';

const PUBLIC_VOICES_PAGE_SIZE = 20;
const MAX_LIMIT = 100;

function toPublicVoice(voice: VoiceInfo): PublicVoice {
  return {
    code: voice.voice_code,
    name: voice.name,
    gender: voice.gender,
    language_code: languageTag(voice.language, voice.accent),
    credit_factor: voice.price / 1000,
    demo: null,
  };
}

const ALL = VOICES.map(toPublicVoice);

type Direction = 'after' | 'before';

function encodeCursor(direction: Direction, code: string): string {
  return Buffer.from(JSON.stringify([direction, code])).toString('base64url');
}

function badCursor(): AppError {
  return new AppError(
    'INVALID_FIELD',
    'cursor must be a next_cursor or prev_cursor of this list with the same filters; leave it out for the first page.',
    { field: 'cursor' },
  );
}

/** Where a cursor points in `list`: the index the page starts at, or ends before. */
function decodeCursor(cursor: string, list: readonly PublicVoice[]): { direction: Direction; at: number } {
  let parsed: unknown;
  try {
    // Standard base64 (the service's own cursors) and base64url both decode.
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw badCursor();
  const [direction, code] = parsed as unknown[];
  if ((direction !== 'after' && direction !== 'before') || typeof code !== 'string') throw badCursor();
  const index = list.findIndex((v) => v.code === code);
  if (index < 0) throw badCursor();
  return { direction, at: direction === 'after' ? index + 1 : index };
}

/** A query parameter as one string: a repeated one is refused. */
function single(query: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value !== 'string')
      throw new AppError('INVALID_FIELD', `${name} must be given once.`, { field: name });
    return value;
  }
  return undefined;
}

/**
 * One page of the list. Query: `limit` 1–100 (default 20), `cursor`, and the filters `code`,
 * `language_code` (or `languageCode`), `gender` (male or female); other parameters
 * (`voice_ownership`, …) are ignored. A bad value is INVALID_FIELD naming it.
 */
export function publicVoicePage(query: Record<string, unknown>): PublicVoiceList {
  const limitText = single(query, 'limit');
  if (limitText !== undefined && !/^(100|[1-9][0-9]?)$/.test(limitText))
    throw new AppError('INVALID_FIELD', `limit must be a whole number from 1 to ${MAX_LIMIT}.`, {
      field: 'limit',
    });
  const limit = limitText === undefined ? PUBLIC_VOICES_PAGE_SIZE : Number(limitText);
  const gender = single(query, 'gender');
  if (gender !== undefined && gender !== 'male' && gender !== 'female')
    throw new AppError('INVALID_FIELD', 'gender must be male or female.', { field: 'gender' });
  const code = single(query, 'code');
  const language = single(query, 'language_code', 'languageCode');
  const list = ALL.filter(
    (v) =>
      (code === undefined || v.code === code) &&
      (language === undefined || v.language_code.toLowerCase() === language.toLowerCase()) &&
      (gender === undefined || v.gender === gender),
  );
  const cursor = single(query, 'cursor');
  let start = 0;
  if (cursor !== undefined && cursor !== '') {
    const { direction, at } = decodeCursor(cursor, list);
    start = direction === 'after' ? at : Math.max(0, at - limit);
  }
  const voices = list.slice(start, start + limit);
  const end = start + voices.length;
  const hasNext = end < list.length;
  const hasPrev = start > 0;
  return {
    pagination: {
      has_next_page: hasNext,
      has_prev_page: hasPrev,
      next_cursor: hasNext ? encodeCursor('after', voices.at(-1)!.code) : null,
      prev_cursor: hasPrev ? encodeCursor('before', (voices[0] ?? list[start - 1]!).code) : null,
    },
    voices,
  };
}
