/**
 * Paths of this machine out of texts that leave it: an error answered to an API client, a
 * failed request's stored message. Node words file-system errors with the path it could not
 * use ("ENOTDIR: not a directory, open '/home/ana/.local/share/narration-studio/audio/…'"),
 * which tells a client the user's name, the data folder and its layout. Each absolute path
 * (POSIX, Windows drive or UNC) becomes `…/` and its last part, so the message still says
 * which file; the log and the command line keep the full path for the person at the machine.
 * The server's own URL paths (`/api/…`, `/v1/…`, `/files/…`) and paths inside URLs are kept.
 */

/** Characters that end a path in a message (space, quotes, brackets, separators of a list). */
const STOP = `\\s'"\`<>|,;()[\\]{}`;
/** The server's own URL space: a route named in "No route GET /api/v1/…" is not a file. */
const OWN_ROUTES = '(?!(?:api|v1|files|assets|api-docs|openapi\\.json)(?:[/?#]|$))';
const POSIX_PATH = `(?<![\\w.~:/\\\\-])/${OWN_ROUTES}(?:[^${STOP}/]+/)+[^${STOP}/]*`;
const WINDOWS_PATH = `(?<![\\w])(?:[A-Za-z]:|\\\\\\\\[^${STOP}\\\\]+)\\\\(?:[^${STOP}\\\\]+\\\\)*[^${STOP}\\\\]*`;
const ABSOLUTE_PATH = new RegExp(`${POSIX_PATH}|${WINDOWS_PATH}`, 'g');
/** A path in quotes, as Node words it ("open '/home/…'"): spaces included (Application Support). */
const QUOTED_PATH = /'((?:\/|[A-Za-z]:\\|\\\\)[^'\n]*)'/g;

/** `…/` and the last part of a path. */
const shortened = (path: string) =>
  `…/${
    path
      .replace(/[/\\]+$/, '')
      .split(/[/\\]/)
      .pop() ?? ''
  }`;

/** `text` with every absolute path of a file or folder replaced by `…/<its last part>`. */
export function redactPaths(text: string): string {
  return text
    .replace(QUOTED_PATH, (_quoted, path: string) => `'${shortened(path)}'`)
    .replace(ABSOLUTE_PATH, (path) =>
      path.endsWith(':') ? `${shortened(path.slice(0, -1))}:` : shortened(path),
    );
}
