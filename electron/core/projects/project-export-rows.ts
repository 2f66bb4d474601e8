/**
 * A project export as a row of the `exports` queue (kind `project`): its own fields kept as JSON
 * in `project_state`, its folder, and the `record.json` files of earlier versions moved into the queue.
 */

import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BookFormat, FolderFormat } from '../../shared/book-exports';
import type { ProjectExportRecord } from '../../shared/projects';
import { errorText, type LeasedQueueRun } from '../jobs';
import type { ExportRow, ProjectRow } from '../store';
import type { ProjectExportsOptions } from './project-export';

export const EXPORT_ID = /^[0-9a-f]{32}$/;

export /** A project export's own record fields, kept as JSON in its row's `project_state`. */
interface ProjectExportState {
  /** Where it is while it runs. */
  phase: 'rendering' | 'encoding';
  file_name: string;
  render_id: string | null;
  files: string[];
  subtitles?: string[] | undefined;
}

export /** A project export while it runs here. */
interface Running extends LeasedQueueRun<ExportRow> {
  state: ProjectExportState;
  progress: number | undefined;
  eta: number | null;
}

export function stateOf(row: Pick<ExportRow, 'project_state'>): ProjectExportState {
  return JSON.parse(row.project_state ?? '{}') as ProjectExportState;
}

/** `<filesDir>/projects/<project id>/exports/<export id>/`: an export's files. */
export const exportDirOf = (filesDir: string, projectId: string, exportId: string) =>
  join(filesDir, 'projects', projectId, 'exports', exportId);

/** A row of the queue for a project export: the text export's settings it has no use for are neutral. */
export function newRow(
  project: ProjectRow,
  keyId: string,
  id: string,
  format: BookFormat,
  folderFormat: FolderFormat | null,
  state: ProjectExportState,
  createdAt: string,
) {
  return {
    id,
    key_id: keyId,
    input_text: '',
    characters: 0,
    voice_code: '',
    model_id: project.model_id,
    speed_rate: 1,
    pitch_rate: 1,
    volume: 100,
    preset: project.preset,
    format,
    folder_format: folderFormat,
    title: project.title,
    author: project.author,
    cover_type: null,
    cover_base64: null,
    cost_milli: 0,
    custom_voice: null,
    download_token: randomBytes(24).toString('base64url'),
    created_at: createdAt,
    kind: 'project' as const,
    project_id: project.id,
    project_state: JSON.stringify(state),
  };
}

/**
 * Moves the `record.json` an earlier version wrote for each export into the queue: a finished
 * one as it ended, an unfinished one queued to run again. Its file is removed once its row is in.
 */
export async function convertRecordFiles(
  options: ProjectExportsOptions,
  instanceId: string,
  leaseMs: number,
): Promise<void> {
  const { filesDir, log } = options;
  const projectsDir = join(filesDir, 'projects');
  const projectIds = await readdir(projectsDir).catch(() => [] as string[]);
  for (const projectId of projectIds) {
    const exportIds = await readdir(join(projectsDir, projectId, 'exports')).catch(() => [] as string[]);
    for (const exportId of exportIds) {
      const path = join(exportDirOf(filesDir, projectId, exportId), 'record.json');
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch {
        continue;
      }
      try {
        await convertRecord(options, instanceId, leaseMs, JSON.parse(text) as ProjectExportRecord);
        await rm(path, { force: true });
      } catch (error) {
        log.warn(`project export ${exportId}: could not move its record into the queue: ${errorText(error)}`);
      }
    }
  }
}

async function convertRecord(
  options: ProjectExportsOptions,
  instanceId: string,
  leaseMs: number,
  record: ProjectExportRecord,
): Promise<void> {
  const { store, clock } = options;
  if (!EXPORT_ID.test(record.id) || (await store.exports.get(record.id, 'project'))) return;
  const project = await store.projects.getProject(record.project_id);
  if (!project) return;
  const state: ProjectExportState = {
    phase: 'rendering',
    file_name: record.file_name,
    render_id: record.render_id,
    files: record.files,
    ...(record.subtitles ? { subtitles: record.subtitles } : {}),
  };
  const row = newRow(
    project,
    project.key_id,
    record.id,
    record.format,
    record.folder_format,
    state,
    record.created_at,
  );
  await store.transaction(async (tx) => {
    await tx.exports.insert(row);
    if (record.status !== 'done' && record.status !== 'failed') return;
    // Finished before: claimed and ended at once, in the transaction that adds it.
    const at = record.finished_at ?? record.created_at;
    await tx.exports.claim(record.id, at, { owner: instanceId, until: clock.now() + leaseMs });
    await tx.exports.finish(record.id, instanceId, {
      status: record.status === 'done' ? 'SUCCESS' : 'FAILURE',
      finishedAt: at,
      errorCode: record.error_code,
      errorMessage: record.error_message,
      errorDetails: record.error_details ? JSON.stringify(record.error_details) : null,
      chapters: JSON.stringify(record.chapters),
      report: JSON.stringify(record.report),
      durationMs: record.duration_ms,
      fileBytes: record.file_bytes,
    });
  });
}
