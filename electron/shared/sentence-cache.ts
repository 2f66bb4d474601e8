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

/**
 * The audition header of the sentence cache. A request with `X-Sentence-Cache: bypass` is
 * synthesised without reading or filling the cache (the workbench's "Measure without the
 * cache"); every audition's answer says how much of it the cache answered (`SentenceCacheUse`).
 */
export const SENTENCE_CACHE_HEADER = 'X-Sentence-Cache';
/** The one value a request may send in SENTENCE_CACHE_HEADER. */
export const SENTENCE_CACHE_BYPASS = 'bypass';

/**
 * How much of an audition the sentence cache answered: `hit` every engine call (the figures
 * measure reading stored audio, not synthesis), `partial` some, `miss` none (or no cache is
 * kept), `bypass` none because the request asked it not to be used.
 */
export type SentenceCacheUse = 'hit' | 'partial' | 'miss' | 'bypass';
