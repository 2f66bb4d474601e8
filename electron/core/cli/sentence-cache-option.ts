/**
 * `--sentence-cache-mb` of `say` and `export`: reuse the sentences the data folder's cache
 * already holds (a book exported again after an edit synthesises only what changed). With an
 * explicit --data-dir the cache is on by default, as it is for `serve`; without one, a one-off
 * command leaves nothing in the per-user folder unless asked.
 */

import { DEFAULT_SENTENCE_CACHE_MB } from '../../shared/options';
import type { SentenceCacheOptions } from '../engine';
import { defaultDataDir, sentenceCacheDir } from '../platform/paths';
import { integerOption } from './usage';

export const SENTENCE_CACHE_OPTIONS = { 'sentence-cache-mb': { type: 'string' } } as const;

export const SENTENCE_CACHE_OPTION_USAGE = `  --sentence-cache-mb <n> reuse sentences rendered before, kept in <data-dir>/cache/sentences up to
                      n MB (default: ${DEFAULT_SENTENCE_CACHE_MB} with --data-dir, else none; 0: none)`;

/** The engine's cache options for these command-line values; UsageError for a bad number. */
export function sentenceCacheOption(values: {
  'data-dir'?: string | undefined;
  'sentence-cache-mb'?: string | undefined;
}): SentenceCacheOptions | undefined {
  const mb = integerOption('sentence-cache-mb', values['sentence-cache-mb'], 0, 1_048_576);
  const dataDir = values['data-dir'];
  if (mb === 0 || (mb === undefined && dataDir === undefined)) return undefined;
  return {
    dir: sentenceCacheDir(dataDir ?? defaultDataDir()),
    maxBytes: (mb ?? DEFAULT_SENTENCE_CACHE_MB) * 1024 * 1024,
  };
}
