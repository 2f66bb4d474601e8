/**
 * The cursor of GET /api/v1/projects (a key's projects, newest first): opaque to clients,
 * base64url of `["after", <project id>, <created_at>]` (platform/list-cursor.ts), the last project
 * of the page it ends. It names only what the key already sees (not the row's place among every
 * key's projects), and a page still follows when that project was deleted meanwhile (from the
 * newest made before it).
 */

import { decodeListCursor, encodeListCursor } from '../platform/list-cursor';

export interface ProjectListCursor {
  id: string;
  createdAt: string;
}

export function encodeProjectCursor(project: { id: string; created_at: string }): string {
  return encodeListCursor('after', project.id, project.created_at);
}

/** The cursor's project and time; INVALID_FIELD (field `cursor`) for anything this list did not give. */
export function decodeProjectCursor(cursor: string): ProjectListCursor {
  return decodeListCursor(cursor, 'after', (values) => {
    const [id, createdAt] = values;
    if (values.length !== 2 || typeof id !== 'string' || !/^[0-9a-f]{32}$/.test(id)) return undefined;
    if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt))) return undefined;
    return { id, createdAt };
  });
}
