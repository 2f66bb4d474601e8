/**
 * A backend whose engine calls go through the sentence cache: an engine text the backend has
 * spoken before, with the same settings, is read back instead of synthesised. The key is a hash
 * of the cache format, the backend's `cacheKey` (engine build, voice, every setting that changes
 * its output) and the engine text: the text after preparation, which already holds the
 * pronunciation lexicon's replacements, so a lexicon edit misses exactly the sentences it
 * touches. The pipeline after the engine call (trimming, pauses, timings, volume, encoding)
 * runs as before, so a render from the cache is bit-identical to one without it.
 *
 * A sentence read from the cache still waits for its render's turn in the engine pool, as a
 * synthesis would (`WorkerPool.turn`): a render answered from the cache otherwise ran at full
 * speed on the engine thread, and small requests beside a book rendered again waited 6× longer
 * (the load suite's phase 2). While no other render needs the machine, the turn is at once.
 * `isCached` tells the render which calls will need the engine, so it starts those early.
 */

import { createHash } from 'node:crypto';
import type { WorkerPool } from '../espeak/worker-pool';
import type { SpeechBackend } from '../speech-backend';
import type { SentenceCache } from './sentence-cache';

/**
 * Raise when an entry's meaning changes (its file layout, or what a key covers), so entries
 * written before are never read as current ones.
 */
const CACHE_FORMAT = 2;

/**
 * Keys remembered between `isCached` and `synthesize`: several renders' look-aheads (1,000 calls
 * each). Beyond it they are forgotten (and hashed again), so cancelled renders' keys cannot pile up.
 */
const MAX_PLANNED_KEYS = 8192;

/** The entry name of `engineText` spoken by a backend with `backendKey`: hex SHA-256. */
export function cacheEntryKey(backendKey: string, engineText: string): string {
  return createHash('sha256')
    .update(JSON.stringify([CACHE_FORMAT, backendKey, engineText]))
    .digest('hex');
}

/**
 * `backend` reading and filling `cache`, its hits taking turns in `pool`; the backend itself
 * when there is no cache or it cannot be cached.
 */
export function cachedBackend(
  backend: SpeechBackend,
  cache: SentenceCache | undefined,
  pool: Pick<WorkerPool, 'turn'>,
): SpeechBackend {
  const { cacheKey } = backend;
  if (!cache || cacheKey === undefined) return backend;
  /** Keys hashed by `isCached` for the calls still to come (a cancelled render leaves some). */
  const keys = new Map<string, string>();
  return {
    label: backend.label,
    sampleRate: backend.sampleRate,
    // The backend's own window. A wider one (32 calls) let an edit's changed sentences start
    // sooner, but the CI run with it failed the load suite's check that small requests beside a
    // book are not starved (p99 31 s beside it against 5.7 s alone); the changed sentences now
    // start early through `isCached`, with no more calls in flight than this window.
    window: backend.window,
    cacheKey,
    isCached(engineText) {
      const key = cacheEntryKey(cacheKey, engineText);
      // Asked once for each engine call of a render as it is planned, some time before its
      // synthesize: the key is hashed once (the map holds the planned calls, the look-ahead's).
      if (keys.size >= MAX_PLANNED_KEYS) keys.clear();
      keys.set(engineText, key);
      return cache.has(key);
    },
    async synthesize(engineText, owner) {
      const key = keys.get(engineText) ?? cacheEntryKey(cacheKey, engineText);
      keys.delete(engineText);
      const stored = await cache.get(key);
      if (stored) {
        await pool.turn(owner);
        return stored;
      }
      const output = await backend.synthesize(engineText, owner);
      // Stored while the render goes on; put() copies the output first and never rejects.
      void cache.put(key, output);
      return output;
    },
  };
}
