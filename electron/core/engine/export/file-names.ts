/**
 * Names of the files an export writes, in a module of its own so that other layers (a project's
 * export names its file after the book) can use the rule without loading the exporter.
 */

/** Characters no file name may hold on some system: controls, path separators, Windows' reserved ones. */
// eslint-disable-next-line no-control-regex -- control characters are not allowed in file names
const UNSAFE_IN_FILE_NAMES = /[\u0000-\u001f\u007f/\\:*?"<>|]+/g;

/** A chapter title as a file name: no path or reserved characters, at most 80 characters. */
export function fileNameOf(title: string): string {
  const clean = title.replace(UNSAFE_IN_FILE_NAMES, ' ').replace(/\s+/g, ' ').trim();
  const name = Array.from(clean)
    .slice(0, 80)
    .join('')
    .replace(/[. ]+$/, '');
  return name || 'Chapter';
}
