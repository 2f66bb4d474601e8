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
 * (the load suite's phase 2). While a worker's worth of the machine is free, the turn is at once.
 */

import { createHash } from 'node:crypto';
import type { WorkerPool } from '../pool';
import type { SpeechBackend } from '../speech-backend';
import type { SentenceCache } from './sentence-cache';

/**
 * Raise when an entry's meaning changes (its file layout, or what a key covers), so entries
 * written before are never read as current ones.
 */
const CACHE_FORMAT = 1;

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
  return {
    label: backend.label,
    sampleRate: backend.sampleRate,
    // The backend's own window. Asking further ahead (32 calls) let an edit's changed sentences
    // start sooner, but the CI run with it failed the load suite's check that small requests
    // beside a book are not starved (p99 31 s beside it against 5.7 s alone); this window is
    // what passed before the cache.
    window: backend.window,
    cacheKey,
    async synthesize(engineText, owner) {
      const key = cacheEntryKey(cacheKey, engineText);
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
