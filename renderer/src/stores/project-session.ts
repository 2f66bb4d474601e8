/**
 * What the projects slice's actions share about the open project: which opening is current (each
 * open gets a number; loops of an older one stop), showing a detail the server answered, reading
 * segment windows, running an edit, and the errors of the list and of the project.
 */

import type { StoreApi } from 'zustand';
import type { ProjectDetail, SegmentRecord } from '../../../electron/shared/projects';
import { errorMessage } from '../lib/api-client';
import { createProjectsApi, type ProjectsApi } from '../lib/projects-api';
import { firstChapter, SEGMENT_PAGE, type ChapterSegments } from './project-segment-windows';
import { createRenderWatch, type RenderWatch } from './project-render-watch';
import type { StoreDeps, StudioState } from './types';

export interface ProjectSession extends RenderWatch {
  api: ProjectsApi;
  set: StoreApi<StudioState>['setState'];
  get: () => StudioState;
  /** The id of the project shown (its detail read), if any. */
  openId(): string | undefined;
  /** Shows a failure of the Projects list. */
  failList(error: unknown): void;
  /** Shows a failure in the open project. */
  fail(error: unknown): void;
  /**
   * Shows a project's detail; keeps the open chapter if it still exists and reads its segments
   * again (as many as were read), the other chapters' to be read when opened.
   */
  show(detail: ProjectDetail): void;
  /** Reads `count` segments of a chapter from `offset` (a page at a time) into the store. */
  readSegments(chapterId: string, offset: number, count: number): Promise<readonly SegmentRecord[] | null>;
  /** Runs an edit of the open project that answers the project. */
  edit(action: (id: string) => Promise<ProjectDetail>): Promise<void>;
}

export function createProjectSession(
  deps: StoreDeps,
  set: ProjectSession['set'],
  get: ProjectSession['get'],
): ProjectSession {
  const api = createProjectsApi(deps.client);
  const openId = () => get().project?.project.id;
  const fail = (error: unknown) => set({ projectError: errorMessage(error) });
  /** Each read of segments gets a number: an answer older than a newer read is dropped. */
  let segmentReads = 0;

  const readSegments = async (chapterId: string, offset: number, count: number) => {
    const id = openId();
    if (!id) return null;
    const mine = ++segmentReads;
    const items: SegmentRecord[] = [];
    let total = 0;
    try {
      do {
        const page = await api.segments(id, chapterId, offset + items.length, SEGMENT_PAGE);
        items.push(...page.items);
        total = page.total;
        if (page.items.length === 0) break;
      } while (items.length < count && offset + items.length < total);
    } catch (error) {
      if (openId() === id) fail(error);
      return null;
    }
    if (openId() !== id || (mine !== segmentReads && offset === 0)) return null;
    const before = offset === 0 ? [] : (get().chapterSegments[chapterId]?.items.slice(0, offset) ?? []);
    const window: ChapterSegments = { items: [...before, ...items], total };
    set({ chapterSegments: { ...get().chapterSegments, [chapterId]: window } });
    return window.items;
  };

  const show = (detail: ProjectDetail) => {
    const chapterId = get().openChapterId;
    const keep = detail.chapters.some((c) => c.id === chapterId);
    const open = keep ? chapterId : firstChapter(detail);
    const had = open ? get().chapterSegments[open] : undefined;
    set({
      project: detail,
      projectError: null,
      openChapterId: open,
      chapterSegments: had && get().project?.project.id === detail.project.id ? { [open!]: had } : {},
      projects: get().projects.map((p) => (p.id === detail.project.id ? detail.project : p)),
    });
    if (open) void readSegments(open, 0, Math.max(SEGMENT_PAGE, had?.items.length ?? 0));
  };

  const edit = async (action: (id: string) => Promise<ProjectDetail>) => {
    const id = openId();
    if (!id) return;
    try {
      const detail = await action(id);
      if (openId() === id) show(detail);
    } catch (error) {
      fail(error);
    }
  };

  return {
    api,
    set,
    get,
    openId,
    failList: (error) => set({ projectsError: errorMessage(error) }),
    fail,
    show,
    readSegments,
    edit,
    ...createRenderWatch({ api, set, get, openId, client: deps.client, pollMs: deps.pollMs ?? 1000 }),
  };
}
