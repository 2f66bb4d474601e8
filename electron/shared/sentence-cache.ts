/**
 * The sentence cache as the API reports it (`GET` and `DELETE /api/v1/cache`): rendered engine
 * calls kept on disk by content, so a render after an edit synthesises only what changed.
 */

import { Type, type Static } from '@sinclair/typebox';

export const SentenceCacheStatsSchema = Type.Object({
  /** False when this engine keeps no cache (no data folder, or a limit of 0). */
  enabled: Type.Boolean(),
  /** Entries on disk this instance knows of. */
  entries: Type.Integer({ minimum: 0 }),
  /** Their size, bytes. */
  bytes: Type.Integer({ minimum: 0 }),
  /** Size above which the least recently used entries are removed, bytes (0 when disabled). */
  limit_bytes: Type.Integer({ minimum: 0 }),
  /** Engine calls answered from the cache since this engine started. */
  hits: Type.Integer({ minimum: 0 }),
  /** Engine calls synthesised (and then stored) since this engine started. */
  misses: Type.Integer({ minimum: 0 }),
});
export type SentenceCacheStats = Static<typeof SentenceCacheStatsSchema>;
