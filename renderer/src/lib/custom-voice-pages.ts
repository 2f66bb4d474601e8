/**
 * GET /api/v1/custom-voices answers a page at a time (CUSTOM_VOICE_LIST: 50 at most); the
 * studio's views and voice pickers offer every voice, so they read the pages one after another.
 */

import {
  CUSTOM_VOICE_LIST,
  CUSTOM_VOICE_ROUTES,
  type CustomVoice,
  type CustomVoiceList,
} from '../../../electron/shared/custom-voices';

/**
 * Every custom voice of the list (with `project`: those the project may cast), by code, read
 * CUSTOM_VOICE_LIST.page at a time through `get` (a GET of the path it is given).
 */
export async function readCustomVoicePages(
  get: (path: string) => Promise<CustomVoiceList>,
  project?: string,
): Promise<CustomVoice[]> {
  const voices: CustomVoice[] = [];
  const seen = new Set<string>();
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ limit: String(CUSTOM_VOICE_LIST.page) });
    if (project !== undefined) params.set('project', project);
    if (cursor !== null) params.set('cursor', cursor);
    const page = await get(`${CUSTOM_VOICE_ROUTES}?${params.toString()}`);
    for (const voice of page.voices) if (!seen.has(voice.code)) voices.push(voice);
    for (const voice of page.voices) seen.add(voice.code);
    // A page that adds nothing ends the walk (a server that gave the same cursor again).
    cursor = page.voices.length > 0 && page.next_cursor !== cursor ? page.next_cursor : null;
  } while (cursor !== null);
  return voices;
}
