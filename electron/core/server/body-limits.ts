/**
 * How many bytes of a JSON body each route reads at most (fastify's `bodyLimit` per route; more
 * is 413 BODY_TOO_LARGE, refused on its Content-Length before it is read):
 *
 * - a route that declares no body (its schema has none), and the public sign-in:
 *   `SMALL_BODY_LIMIT`, 4 KiB;
 * - the routes that take a text to speak (`TEXT_ROUTES`): what the longest legal text needs,
 *   `textBodyLimit(maxTextChars)`: 12 bytes a character (an astral character written as two
 *   `\uXXXX` escapes, as Python's json module does by default) and 64 KiB for the other fields;
 *   1,264 KiB at the default 100,000 characters;
 * - the reading of a text (`readText`): `textBodyLimit(READING_MAX_CHARS)`, 2,408 KiB for its
 *   200,000 characters;
 * - every other JSON route: the server's `bodyLimit` (default 1 MiB);
 * - a route that sets its own keeps it (exports and projects: room for a cover); a route with a
 *   raw body (manuscripts, archives, voice packs) reads it as a stream under its own limit.
 */

import type { FastifyInstance } from 'fastify';
import { READING_MAX_CHARS } from '../../shared/api';

/** Bytes of a body where none is expected (and of a sign-in). */
export const SMALL_BODY_LIMIT = 4 * 1024;

/** The routes whose body holds a text to speak, by operationId (openapi.ts). */
const TEXT_ROUTES = new Set(['submitTts', 'createSpeech', 'createCaptionedSpeech']);
/** Public routes that take a small body before any credential is known. */
const SMALL_ROUTES = new Set(['signIn']);

/** Bytes of the largest legal body of a route in TEXT_ROUTES. */
export function textBodyLimit(maxTextChars: number): number {
  return maxTextChars * 12 + 64 * 1024;
}

/**
 * Gives every route added after it its body limit (above). Must be added before the routes are.
 */
export function limitBodies(app: FastifyInstance, { maxTextChars }: { maxTextChars: number }): void {
  app.addHook('onRoute', (route) => {
    if (route.bodyLimit !== undefined) return;
    const schema = route.schema as { body?: unknown; operationId?: string } | undefined;
    const operationId = schema?.operationId ?? '';
    if (!schema?.body || SMALL_ROUTES.has(operationId)) route.bodyLimit = SMALL_BODY_LIMIT;
    else if (TEXT_ROUTES.has(operationId)) route.bodyLimit = textBodyLimit(maxTextChars);
    else if (operationId === 'readText') route.bodyLimit = textBodyLimit(READING_MAX_CHARS);
  });
}
