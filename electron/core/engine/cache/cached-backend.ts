/**
 * A backend whose engine calls go through the sentence cache: an engine text the backend has
 * spoken before, with the same settings, is read back instead of synthesised. The key is a hash
 * of the cache format, the backend's `cacheKey` (engine build, voice, every setting that changes
 * its output) and the engine text: the text after preparation, which already holds the
 * pronunciation lexicon's replacements, so a lexicon edit misses exactly the sentences it
 * touches. The pipeline after the engine call (trimming, pauses, timings, volume, encoding)
 * runs as before, so a render from the cache is bit-identical to one without it.
 */

import { createHash } from 'node:crypto';
import type { SpeechBackend } from '../speech-backend';
import type { SentenceCache } from './sentence-cache';

/**
 * Raise when an entry's meaning changes (its file layout, or what a key covers), so entries
 * written before are never read as current ones.
 */
const CACHE_FORMAT = 1;

/** Engine calls a render keeps in flight through the cache, at least (a few MB of audio). */
const CACHED_WINDOW = 32;

/** The entry name of `engineText` spoken by a backend with `backendKey`: hex SHA-256. */
export function cacheEntryKey(backendKey: string, engineText: string): string {
  return createHash('sha256')
    .update(JSON.stringify([CACHE_FORMAT, backendKey, engineText]))
    .digest('hex');
}

/** `backend` reading and filling `cache`; the backend itself when there is no cache or it cannot be cached. */
export function cachedBackend(backend: SpeechBackend, cache: SentenceCache | undefined): SpeechBackend {
  const { cacheKey } = backend;
  if (!cache || cacheKey === undefined) return backend;
  return {
    label: backend.label,
    sampleRate: backend.sampleRate,
    // A hit costs no engine time, only a file read, so the render may ask further ahead: the
    // sentences an edit changed then start synthesising while the unchanged ones before them
    // are still being written, instead of holding up the render when it reaches them.
    window: Math.max(backend.window, CACHED_WINDOW),
    cacheKey,
    async synthesize(engineText, owner) {
      const key = cacheEntryKey(cacheKey, engineText);
      const stored = await cache.get(key);
      if (stored) return stored;
      const output = await backend.synthesize(engineText, owner);
      // Stored while the render goes on; put() copies the output first and never rejects.
      void cache.put(key, output);
      return output;
    },
  };
}
