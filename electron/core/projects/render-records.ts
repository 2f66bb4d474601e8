/** A render's record as the API tells it: progress per chapter by characters, time left, cost. */

import { isAppError } from '../../shared/errors';
import { type ProjectRenderRecord } from '../../shared/projects';
import type { ProjectRenderRow, RenderItem } from '../store';
import { redactPaths } from '../platform/redact-paths';
import { storedDetails, storedErrorDetails } from '../platform/error-details';

export const FINISHED = new Set(['done', 'failed', 'cancelled']);

export const itemsOf = (row: ProjectRenderRow): RenderItem[] =>
  row.segment_ids ? (JSON.parse(row.segment_ids) as RenderItem[]) : [];

/** What a failed segment keeps of its error: the English message, the code and the particulars. */
export function segmentFailure(error: unknown): {
  error: string;
  error_code: string;
  error_details: string | null;
} {
  return isAppError(error)
    ? { error: error.message, error_code: error.code, error_details: storedErrorDetails(error) }
    : { error: String(error), error_code: 'INTERNAL', error_details: null };
}

/** The wire record, with live progress and time left (from this run's throughput) when `live` runs here. */
export function renderRecord(
  row: ProjectRenderRow,
  live: { items: RenderItem[]; startedAt: number; charsThisRun: number } | undefined,
  now: number,
): ProjectRenderRecord {
  const items = live ? live.items : itemsOf(row);
  const chapterIds = JSON.parse(row.chapter_ids) as string[];
  const perChapter = new Map<string, { total: number; done: number }>(
    chapterIds.map((c) => [c, { total: 0, done: 0 }]),
  );
  let total = 0;
  let done = 0;
  let spent = 0;
  for (const item of items) {
    const c = perChapter.get(item.chapter_id) ?? { total: 0, done: 0 };
    perChapter.set(item.chapter_id, c);
    c.total += item.characters;
    total += item.characters;
    if (item.done) {
      c.done += item.characters;
      done += item.characters;
      spent += item.cost_milli;
    }
  }
  let eta: number | null = null;
  if (live && live.charsThisRun > 0) {
    const seconds = (now - live.startedAt) / 1000;
    if (seconds > 0) eta = Math.round(((total - done) / (live.charsThisRun / seconds)) * 10) / 10;
  } else if (row.status === 'done') eta = 0;
  return {
    id: row.id,
    project_id: row.project_id,
    status: row.status,
    chapter_ids: chapterIds,
    segments_total: row.segments_total,
    segments_done: items.filter((i) => i.done).length,
    progress: total > 0 ? done / total : FINISHED.has(row.status) ? 1 : 0,
    chapters: [...perChapter].map(([chapter_id, c]) => ({
      chapter_id,
      progress: c.total > 0 ? c.done / c.total : 1,
    })),
    eta_seconds: eta,
    cost: (FINISHED.has(row.status) ? spent : row.cost_milli) / 1000,
    error_code: row.error_code,
    error_message: row.error_message === null ? null : redactPaths(row.error_message),
    ...storedDetails(row.error_details),
    created_at: row.created_at,
    finished_at: row.finished_at,
  };
}
