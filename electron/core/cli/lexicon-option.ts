/**
 * The pronunciation lexicon for commands that speak (`say`, and any other that renders): the
 * entries of the data folder's `lexicon.json` for the voice's language, unless the command line
 * says `--without-lexicon`. The lexicon store (and its schema package) is loaded only when the
 * folder has a lexicon file.
 */

import { existsSync } from 'node:fs';
import type { LanguageCode } from '../../shared/voices';
import type { LexiconRule } from '../engine';

/** The `parseArgs` option. */
export const LEXICON_OPTIONS = { 'without-lexicon': { type: 'boolean' } } as const;

/** Its usage line. */
export const LEXICON_OPTION_USAGE = `  --without-lexicon   speak without the data folder's pronunciation lexicon (see lexicon --help)`;

/**
 * The entries of `language` in the lexicon of `dataDirOption` (default: the per-user data
 * folder); none with `without`, or when the folder has no lexicon. A damaged file is reported
 * on stderr and counts as empty.
 */
export async function readLexicon(
  dataDirOption: string | undefined,
  language: LanguageCode,
  without = false,
): Promise<LexiconRule[]> {
  if (without) return [];
  const [{ defaultDataDir }, { lexiconPath }] = await Promise.all([
    import('../platform/paths'),
    import('../lexicon/layout'),
  ]);
  const dataDir = dataDirOption ?? defaultDataDir();
  if (!existsSync(lexiconPath(dataDir))) return [];
  const [{ createLexiconStore }, { stderrLog }] = await Promise.all([
    import('../lexicon'),
    import('../platform/log'),
  ]);
  return createLexiconStore({ dataDir, log: stderrLog }).entriesFor(language);
}

/** " with 3 lexicon entries" for the summary line; '' without entries. */
export function lexiconNote(entries: readonly LexiconRule[]): string {
  if (entries.length === 0) return '';
  return ` with ${entries.length} lexicon entr${entries.length === 1 ? 'y' : 'ies'}`;
}
