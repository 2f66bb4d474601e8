/**
 * Where a data directory keeps its pronunciation lexicon. Apart from the store so that a
 * command can look for the file without loading the store (and its schema package).
 */

import { join } from 'node:path';

/** Name of the lexicon file in a data directory. */
export const LEXICON_FILE = 'lexicon.json';

/** `<dataDir>/lexicon.json`. */
export function lexiconPath(dataDir: string): string {
  return join(dataDir, LEXICON_FILE);
}
