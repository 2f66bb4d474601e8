/**
 * Undoable edits: an edit is applied as a patch of whole rows in one transaction and recorded in
 * project_history with the patch that undoes it (a new edit after undos drops the redo tail).
 * Segments put over a row keep that row's audio when their words did not change.
 */

import { AppError } from '../../shared/errors';
import type { ProjectDetail } from '../../shared/projects';
import type { ChapterRow, CharacterRow, ProjectFields, ProjectRow, Repos, SegmentRow, Store } from '../store';
import { owned } from './project-lookups';
import { detailOf } from './project-records';

/** Edits kept for undo per project (the oldest go). */
const HISTORY_LIMIT = 500;

/** What an edit changes: whole rows to put and ids to remove (applied in that order). */
export interface ProjectPatch {
  project?: ProjectFields;
  chapters?: ChapterRow[];
  characters?: CharacterRow[];
  segments?: SegmentRow[];
  removeSegments?: string[];
  removeCharacters?: string[];
  removeChapters?: string[];
}

/** A segment's audio: the columns a render writes. */
type AudioColumn = 'state' | 'audio_key' | 'duration_ms' | 'error' | 'checks' | 'rendered_at';

/** What the service's parts share: the store, the clock, where audio lives, and the undoable edit. */
export interface ProjectContext extends ProjectHistory {
  store: Store;
  stamp: () => string;
  /** `<filesDir>/projects/<id>`: a project's segment audio. */
  audioDir: (projectId: string) => string;
}

export type ProjectHistory = ReturnType<typeof createProjectHistory>;

export function createProjectHistory(store: Store, stamp: () => string) {
  /** Runs an edit in one transaction: builds its patch from the rows, applies it, records its undo. */
  async function edit<T>(
    keyId: string,
    projectId: string,
    label: string,
    build: (
      repos: Repos,
      project: ProjectRow,
    ) => Promise<{ redo: ProjectPatch; undo: ProjectPatch; result?: T }>,
  ): Promise<{ detail: ProjectDetail; result: T | undefined }> {
    return await store.transaction(async (tx) => {
      const project = await owned(tx, keyId, projectId);
      const { redo, undo, result } = await build(tx, project);
      const at = stamp();
      await applyPatch(tx, project.id, redo, at);
      await tx.projects.pushHistory(
        {
          project_id: project.id,
          position: project.history_position + 1,
          label,
          undo: JSON.stringify(undo),
          redo: JSON.stringify(redo),
          created_at: at,
        },
        HISTORY_LIMIT,
      );
      const fresh = (await tx.projects.getProject(project.id))!;
      return { detail: await detailOf(tx, fresh), result };
    });
  }

  async function stepHistory(
    keyId: string,
    projectId: string,
    direction: 'undo' | 'redo',
  ): Promise<ProjectDetail> {
    return await store.transaction(async (tx) => {
      const project = await owned(tx, keyId, projectId);
      const position = direction === 'undo' ? project.history_position : project.history_position + 1;
      const entry = await tx.projects.historyAt(project.id, position);
      if (!entry)
        throw new AppError('PROJECT_CONFLICT', `Nothing to ${direction} in project "${project.title}".`);
      const patch = JSON.parse(direction === 'undo' ? entry.undo : entry.redo) as ProjectPatch;
      await applyPatch(tx, project.id, patch, stamp());
      await tx.projects.setHistoryPosition(project.id, direction === 'undo' ? position - 1 : position);
      return await detailOf(tx, (await tx.projects.getProject(project.id))!);
    });
  }

  return { edit, stepHistory };
}

/** Applies a patch: segments put over a row keep that row's audio when their words did not change. */
async function applyPatch(tx: Repos, projectId: string, patch: ProjectPatch, at: string): Promise<void> {
  await tx.projects.updateProject(projectId, patch.project ?? {}, at);
  if (patch.chapters?.length) await tx.projects.putChapters(patch.chapters);
  if (patch.characters?.length) await tx.projects.putCharacters(patch.characters);
  if (patch.segments?.length) {
    const rows: SegmentRow[] = [];
    // Many rows (an import undone, a merge): the project's segments in one query.
    const all =
      patch.segments.length > 20
        ? new Map((await tx.projects.segments(projectId)).map((s) => [s.id, s]))
        : undefined;
    for (const row of patch.segments) {
      const current = all ? all.get(row.id) : await tx.projects.getSegment(row.id);
      if (current && sameWords(current, row)) {
        rows.push({ ...row, ...pickAudio(current) });
      } else {
        // A render that was under way belongs to other words: the audio it had, if any, is stale.
        const busy = row.state === 'queued' || row.state === 'rendering';
        rows.push(busy ? { ...row, state: row.audio_key ? 'changed' : 'not_rendered' } : row);
      }
    }
    await tx.projects.putSegments(rows);
  }
  if (patch.removeSegments?.length) await tx.projects.removeSegments(patch.removeSegments);
  if (patch.removeCharacters?.length) await tx.projects.removeCharacters(patch.removeCharacters);
  if (patch.removeChapters?.length) await tx.projects.removeChapters(patch.removeChapters);
}

function sameWords(a: SegmentRow, b: SegmentRow): boolean {
  return a.text === b.text && a.speaker === b.speaker && a.quotes === b.quotes && a.emphasis === b.emphasis;
}

function pickAudio(row: SegmentRow): Pick<SegmentRow, AudioColumn> {
  return {
    state: row.state,
    audio_key: row.audio_key,
    duration_ms: row.duration_ms,
    error: row.error,
    checks: row.checks,
    rendered_at: row.rendered_at,
  };
}
