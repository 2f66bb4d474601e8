/**
 * A project's rows under new ids (an archive's, a duplicate's), in a module of its own: the
 * archive reader's child process makes them without loading the project service.
 */

import { randomBytes } from 'node:crypto';
import { AppError } from '../../shared/errors';
import type { QuoteVoice } from '../../shared/projects';
import type { ChapterRow, CharacterRow, ProjectRow, SegmentRow } from '../store';

export function newId(): string {
  return randomBytes(16).toString('hex');
}

export interface ClonedProject {
  project: ProjectRow;
  chapters: ChapterRow[];
  characters: CharacterRow[];
  segments: SegmentRow[];
}

/** The rows of a project under new ids (`project.id` already new), references followed. */
export function cloneRows(
  project: ProjectRow,
  chapters: readonly ChapterRow[],
  characters: readonly CharacterRow[],
  segments: readonly SegmentRow[],
): ClonedProject {
  const ids = new Map<string, string>();
  const map = (id: string) => {
    let to = ids.get(id);
    if (!to) ids.set(id, (to = newId()));
    return to;
  };
  const ref = (id: string | null) => (id === null ? null : (ids.get(id) ?? null));
  const out: ClonedProject = {
    project: { ...project, history_position: 0 },
    chapters: chapters.map((c) => ({ ...c, id: map(c.id), project_id: project.id })),
    characters: characters.map((c) => ({ ...c, id: map(c.id), project_id: project.id })),
    segments: [],
  };
  out.segments = segments.map((s) => ({
    ...s,
    id: map(s.id),
    project_id: project.id,
    chapter_id: ids.get(s.chapter_id)!,
    speaker: ref(s.speaker),
    suggested_speaker: ref(s.suggested_speaker),
    quotes: jsonOrNull(
      parseJson<QuoteVoice[]>(s.quotes, []).map((q) => ({ ...q, character_id: ids.get(q.character_id)! })),
    ),
  }));
  return out;
}

export function parseJson<T>(text: string | null, fallback: T): T {
  return text === null ? fallback : (JSON.parse(text) as T);
}

export function jsonOrNull(list: readonly unknown[]): string | null {
  return list.length === 0 ? null : JSON.stringify(list);
}

/** The error for a project id the store does not hold. */
export function projectNotFound(projectId: string): AppError {
  return new AppError('PROJECT_NOT_FOUND', `No project "${projectId}".`, { part: 'project', id: projectId });
}
