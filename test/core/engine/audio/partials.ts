/** The temporary files of a sink writing `path`: `<path>.<8 hex digits>.partial` beside it. */

import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Full paths of the temporary files of `path` now (none once it is finished or aborted). */
export function partialsOf(path: string): string[] {
  const name = basename(path);
  return readdirSync(dirname(path))
    .filter(
      (entry) => entry.startsWith(`${name}.`) && /^[0-9a-f]{8}\.partial$/.test(entry.slice(name.length + 1)),
    )
    .map((entry) => join(dirname(path), entry));
}
