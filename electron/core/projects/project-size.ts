/**
 * A project's size against PROJECT_LIMITS, in a module of its own: the archive reader's child
 * process checks it without loading the project service.
 */

import { AppError } from '../../shared/errors';
import { PROJECT_LIMITS } from '../../shared/projects';

/** A project's size against PROJECT_LIMITS: MANUSCRIPT_TOO_LARGE naming the limit it passes. */
export function checkProjectSize(
  size: { chapters: number; segments: number; characters: number; cast?: number },
  name: string,
): void {
  const over = (
    [
      ['chapters', size.chapters, PROJECT_LIMITS.chapters],
      ['segments', size.segments, PROJECT_LIMITS.segments],
      ['characters of text', size.characters, PROJECT_LIMITS.characters],
      ['characters in its cast', size.cast ?? 0, PROJECT_LIMITS.cast],
    ] as const
  ).find(([, value, limit]) => value > limit);
  if (over) {
    const [what, value, limit] = over;
    throw new AppError(
      'MANUSCRIPT_TOO_LARGE',
      `"${name}" would make a project of ${value} ${what}; a project holds at most ${limit} ${what}.`,
      { file: name, limit: what, limit_value: limit },
    );
  }
}
