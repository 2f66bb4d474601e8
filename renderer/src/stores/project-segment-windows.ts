/**
 * The segments of an open project's chapters as the store keeps them (a window per chapter, read
 * from its first segment on) and the pure updates that keep the chapters' and project's done
 * counts right when segments change.
 */

import type {
  ProjectDetail,
  ProjectEvent,
  SegmentRecord,
  SegmentState,
} from '../../../electron/shared/projects';
import { PROJECT_LIMITS } from '../../../electron/shared/projects';

/** Segments one read asks for (the server answers at most PROJECT_LIMITS.segmentPage). */
export const SEGMENT_PAGE = PROJECT_LIMITS.segmentPage;

/** A chapter's segments read so far (positions 0 to items.length - 1) and how many it has. */
export interface ChapterSegments {
  items: readonly SegmentRecord[];
  total: number;
}
export type SegmentWindows = Readonly<Record<string, ChapterSegments>>;

export interface ProjectView {
  project: ProjectDetail;
  chapterSegments: SegmentWindows;
}

/**
 * The project with segments' new states: those read are replaced, and the done counts of their
 * chapters and of the project move with them. `missed` tells whether a segment not read changed
 * (its chapter's counts are then to be read again).
 */
function withStates(
  view: ProjectView,
  changes: ReadonlyMap<string, SegmentRecord | SegmentState>,
): ProjectView & { missed: boolean } {
  const done = new Map<string, number>();
  let found = 0;
  let chapterSegments = view.chapterSegments;
  for (const [chapterId, window] of Object.entries(view.chapterSegments)) {
    if (!window.items.some((s) => changes.has(s.id))) continue;
    const items = window.items.map((s) => {
      const change = changes.get(s.id);
      if (change === undefined) return s;
      found++;
      const next = typeof change === 'string' ? (change === s.state ? s : { ...s, state: change }) : change;
      const delta = Number(next.state === 'done') - Number(s.state === 'done');
      if (delta !== 0) done.set(chapterId, (done.get(chapterId) ?? 0) + delta);
      return next;
    });
    chapterSegments = { ...chapterSegments, [chapterId]: { ...window, items } };
  }
  const missed = found < changes.size;
  if (chapterSegments === view.chapterSegments) return { ...view, missed };
  let project = view.project;
  if (done.size > 0) {
    const moved = [...done.values()].reduce((n, d) => n + d, 0);
    project = {
      ...project,
      project: { ...project.project, segments_done: project.project.segments_done + moved },
      chapters: project.chapters.map((c) =>
        done.has(c.id) ? { ...c, segments_done: c.segments_done + done.get(c.id)! } : c,
      ),
    };
  }
  return { project, chapterSegments, missed };
}

/** The project with one segment replaced (an edit's or a regenerate's answer), its counts kept right. */
export function withSegment(view: ProjectView, segment: SegmentRecord): ProjectView {
  const { project, chapterSegments } = withStates(view, new Map([[segment.id, segment]]));
  return { project, chapterSegments };
}

/**
 * The project with the states an event reports (the same objects when none applies); `missed`:
 * the event named a segment not read.
 */
export function withSegmentStates(view: ProjectView, event: ProjectEvent): ProjectView & { missed: boolean } {
  if (event.project_id !== view.project.project.id || event.segments.length === 0)
    return { ...view, missed: false };
  return withStates(view, new Map(event.segments.map((s) => [s.id, s.state])));
}

/**
 * The chapter a project opens on: its first included one (front matter left out of the book is
 * skipped), else its first.
 */
export function firstChapter(detail: ProjectDetail): string | null {
  return (detail.chapters.find((c) => c.included) ?? detail.chapters[0])?.id ?? null;
}
