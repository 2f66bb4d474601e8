/**
 * What the compose panel says after Open put a file's text into the draft: the legacy Vietnamese
 * encoding its text was converted from, or the character encoding a text file that is not UTF-8
 * was read in (as the project import's summary does), from the read's answer
 * (`legacy_encoding`, `text_encoding`); nothing for a UTF-8 file or a format with no encoding.
 */

import type { IntlShape } from 'react-intl';
import { LEGACY_VIETNAMESE_NAMES, TEXT_ENCODING_NAMES } from '../../../../electron/shared/manuscript';
import type { ManuscriptReadResult } from '../../../../electron/shared/manuscript-read';

/** The sentence for the file `name` read as `read` says, or null when there is nothing to say. */
export function fileReadNote(
  intl: IntlShape,
  name: string,
  read: Pick<ManuscriptReadResult, 'legacy_encoding' | 'text_encoding'>,
): string | null {
  if (read.legacy_encoding)
    return intl.formatMessage(
      {
        id: 'compose.file.converted',
        defaultMessage:
          '“{name}” was in {encoding}, an old Vietnamese encoding: its text was converted to Unicode.',
      },
      { name, encoding: LEGACY_VIETNAMESE_NAMES[read.legacy_encoding] },
    );
  if (read.text_encoding && read.text_encoding !== 'utf-8')
    return intl.formatMessage(
      {
        id: 'compose.file.textEncoding',
        defaultMessage:
          '“{name}” was read as {encoding} text (the file is not UTF-8: check its accented letters).',
      },
      { name, encoding: TEXT_ENCODING_NAMES[read.text_encoding] },
    );
  return null;
}
