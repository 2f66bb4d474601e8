/**
 * The opaque cursors of the API's paged lists (`cursor` in, `next_cursor` out): base64url of a
 * JSON array, its first element the list's tag, the rest what the page ended on. A list names in
 * its cursor only what its caller already saw on that page (a project's id and time, a custom
 * voice's code, an attempt's number), never a row's place among other keys' rows.
 */

import { AppError } from '../../shared/errors';

/** The cursor after a page that ended on `values` (strings and numbers) of the list `tag`. */
export function encodeListCursor(tag: string, ...values: ReadonlyArray<string | number>): string {
  return Buffer.from(JSON.stringify([tag, ...values])).toString('base64url');
}

/**
 * The values `cursor` carries when it is a cursor of the list `tag` that `accept` takes (it
 * returns undefined for anything else); INVALID_FIELD (field `cursor`) for anything this list did
 * not give.
 */
export function decodeListCursor<T>(
  cursor: string,
  tag: string,
  accept: (values: readonly unknown[]) => T | undefined,
): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const taken = Array.isArray(parsed) && parsed[0] === tag ? accept(parsed.slice(1)) : undefined;
  if (taken === undefined)
    throw new AppError(
      'INVALID_FIELD',
      'cursor must be a next_cursor of this list, unchanged; leave it out for the first page.',
      { field: 'cursor' },
    );
  return taken;
}
