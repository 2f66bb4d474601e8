/**
 * The cursor of GET /api/v1/projects (a key's projects, newest first): opaque to clients,
 * base64url of `["after", <project id>, <created_at>]`, the last project of the page it ends. It
 * names only what the key already sees (not the row's place among every key's projects), and a
 * page still follows when that project was deleted meanwhile (from the newest made before it).
 */

import { AppError } from '../../shared/errors';

export interface ProjectListCursor {
  id: string;
  createdAt: string;
}

export function encodeProjectCursor(project: { id: string; created_at: string }): string {
  return Buffer.from(JSON.stringify(['after', project.id, project.created_at])).toString('base64url');
}

/** The cursor's project and time; INVALID_FIELD (field `cursor`) for anything this list did not give. */
export function decodeProjectCursor(cursor: string): ProjectListCursor {
  const bad = () =>
    new AppError(
      'INVALID_FIELD',
      'cursor must be a next_cursor of this list, unchanged; leave it out for the first page.',
      { field: 'cursor' },
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw bad();
  const [after, id, createdAt] = parsed as unknown[];
  if (after !== 'after' || typeof id !== 'string' || !/^[0-9a-f]{32}$/.test(id)) throw bad();
  if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt))) throw bad();
  return { id, createdAt };
}
