/**
 * The one way a name that comes from outside (a URL's last segment, an archive entry, a field
 * of a voice pack manifest, an HTTP header such as Content-Disposition) becomes a path on disk.
 * A name is refused, never repaired: no separators outside the `/` of a nested path, no `.` or
 * `..`, no NUL or other control character, no absolute POSIX or Windows path, no drive letter
 * or `:` stream, no Windows device name; and the result must resolve inside its folder.
 */

import { resolve, sep } from 'node:path';

/** Windows device names, which open the device whatever the folder or extension. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\.|$)/i;
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/** What is wrong with one part of a name, or undefined when it can be a file name. */
function partProblem(part: string): string | undefined {
  if (part === '') return 'has an empty part';
  if (part === '.' || part === '..') return `has a "${part}" part`;
  if (WINDOWS_DEVICE.test(part)) return 'is a Windows device name';
  if (/[. ]$/.test(part)) return 'ends with a dot or a space (Windows drops them)';
  return undefined;
}

/**
 * Why `name` cannot become a file name (with `nested`, a `/`-separated relative path), or
 * undefined when it can. `name` is taken as it is: decode it (once) before asking.
 */
export function outsideNameProblem(name: string, nested = false): string | undefined {
  if (name === '') return 'is empty';
  if (name.includes('\0')) return 'holds a NUL character';
  if (CONTROL.test(name)) return 'holds a control character';
  if (name.includes('\\')) return 'holds a backslash (a Windows path separator)';
  if (name.startsWith('/')) return 'is an absolute path';
  if (/^[A-Za-z]:/.test(name)) return 'starts with a drive letter';
  if (name.includes(':')) return 'holds a ":" (a drive or a stream on Windows)';
  if (!nested && name.includes('/')) return 'holds a path separator';
  for (const part of name.split('/')) {
    const problem = partProblem(part);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * `folder` joined with the outside name `name` (with `nested`, a `/`-separated relative path
 * such as `voices/af_heart.bin`). Throws what `refuse` makes of the problem when the name is
 * unsafe or would resolve outside `folder`.
 */
export function pathInside(
  folder: string,
  name: string,
  refuse: (problem: string) => Error,
  { nested = false }: { nested?: boolean } = {},
): string {
  const problem = outsideNameProblem(name, nested);
  if (problem) throw refuse(problem);
  const root = resolve(folder);
  const target = resolve(root, ...name.split('/'));
  if (!target.startsWith(root + sep)) throw refuse('leaves its folder');
  return target;
}
