/**
 * Book projects: the list, the open project (its chapters and cast), the segments of the chapters
 * opened (read a window at a time: the first SEGMENT_PAGE when a chapter opens, more as the list
 * scrolls or the player reaches their end), and its renders. Every edit goes to the server and
 * the answer replaces what is shown (the server keeps undo and the segment states); the open
 * chapter's segments are then read again. While a project is open its `project` events (render progress, segment
 * states) arrive on the event stream; while a render runs it is also re-read every `pollMs`, so
 * an event sent before the stream opened cannot leave a bar stuck (as job-slice follows requests).
 */

import type {
  LanguageChoice,
  ProjectDetail,
  ProjectEvent,
  ProjectRecord,
  ProjectRenderRecord,
  ProjectSettings,
  SegmentRecord,
  SegmentState,
} from '../../../electron/shared/projects';
import { PROJECT_LIMITS } from '../../../electron/shared/projects';
import type { CustomVoice } from '../../../electron/shared/custom-voices';
import { byName } from './custom-voices-slice';
import { errorMessage } from '../lib/api-client';
import {
  createProjectsApi,
  type ChapterEdit,
  type CharacterEdit,
  type CharacterInput,
  type ImportOptions,
  type RegenerateOptions,
  type SegmentEdit,
} from '../lib/projects-api';
import type { SliceCreator } from './types';

/** What an import of a manuscript answered about how it was read (shown once, in the project it made). */
export interface ImportSummary {
  projectId: string;
  fileName: string;
  languageChoice: LanguageChoice | null;
  legacyEncoding: ProjectDetail['legacy_encoding'] | null;
  /** The character encoding a text file was read in (detected), when the import says. */
  textEncoding: ProjectDetail['text_encoding'] | null;
}

export interface ProjectsSlice {
  /** The projects read so far, newest first (a page at a time: loadMoreProjects reads the next). */
  projects: ProjectRecord[];
  projectsLoaded: boolean;
  /** The next page's cursor (null: every project is read). */
  projectsNext: string | null;
  /** How many projects the key has (the server's count when the list was last read). */
  projectsTotal: number;
  /** The last failed action of the Projects list, in the API's words. */
  projectsError: string | null;
  /** The open project, or null (the list shows). */
  project: ProjectDetail | null;
  /**
   * The id of the project being shown or opened (its address, `#/projects/<id>`), set at once
   * by openProject; null for the list. With `project` still null, it is loading or failed.
   */
  openProjectId: string | null;
  /** The last failed action in the open project. */
  projectError: string | null;
  /** The chapter whose segments show. */
  openChapterId: string | null;
  /** The segments read so far of the open project's chapters, from each chapter's first on. */
  chapterSegments: SegmentWindows;
  /** The project's newest render (running or finished), or null. */
  projectRender: ProjectRenderRecord | null;
  /** The custom voices the open project may cast (its key's and the studio's), for its voice pickers. */
  projectVoices: CustomVoice[];
  /** The last manuscript import's summary (its language and conversion) until dismissed or the project is closed. */
  importSummary: ImportSummary | null;
  dismissImportSummary(): void;
  /** Reads the first page of the projects. */
  loadProjects(): Promise<void>;
  /** Reads the next page of the projects after those read. */
  loadMoreProjects(): Promise<void>;
  /** Reads again which custom voices the open project may cast. */
  loadProjectVoices(): Promise<void>;
  createProject(title: string): Promise<void>;
  /** A manuscript file as a new project; opens it. False when the server refused it (projectsError says why). */
  importManuscript(file: Blob, fileName: string, options?: ImportOptions): Promise<boolean>;
  importArchive(file: Blob, fileName: string): Promise<boolean>;
  renameProject(id: string, title: string): Promise<void>;
  duplicateProject(id: string): Promise<void>;
  deleteProject(id: string): Promise<void>;
  openProject(id: string): Promise<void>;
  closeProject(): void;
  /** Re-reads the open project. */
  refreshProject(): Promise<void>;
  updateProject(settings: ProjectSettings): Promise<void>;
  /** Appends a manuscript's chapters to the open project. */
  importChapters(file: Blob, fileName: string): Promise<boolean>;
  undo(): Promise<void>;
  redo(): Promise<void>;
  openChapter(chapterId: string): void;
  /**
   * Reads a chapter's segments: the first page, or (`more`) the next one after those read.
   * Answers the chapter's segments read so far, or null when there were no more (or it failed).
   */
  loadSegments(chapterId: string, more?: boolean): Promise<readonly SegmentRecord[] | null>;
  updateChapter(chapterId: string, edit: ChapterEdit): Promise<void>;
  /** Moves a chapter to `index` (0-based) in the book's order. */
  moveChapter(chapterId: string, index: number): Promise<void>;
  mergeWithNext(chapterId: string): Promise<void>;
  splitChapter(chapterId: string, segmentId: string, title: string): Promise<void>;
  updateSegment(segmentId: string, edit: SegmentEdit): Promise<boolean>;
  addCharacter(character: CharacterInput): Promise<void>;
  updateCharacter(characterId: string, edit: CharacterEdit): Promise<void>;
  removeCharacter(characterId: string): Promise<void>;
  /** Merges a character into another (undoable). */
  mergeCharacter(characterId: string, into: string): Promise<void>;
  /** Splits names out of a character (undoable). */
  splitCharacter(characterId: string, names: string[]): Promise<void>;
  applySuggestions(segmentIds?: string[]): Promise<void>;
  startRender(target?: { chapter_ids?: string[]; segment_ids?: string[] }): Promise<void>;
  pauseRender(): Promise<void>;
  resumeRender(): Promise<void>;
  cancelRender(): Promise<void>;
  /** Renders one segment again now (another voice or speed if given). */
  regenerateSegment(segmentId: string, options?: RegenerateOptions): Promise<boolean>;
}

const isRunning = (render: ProjectRenderRecord | null) =>
  render !== null &&
  (render.status === 'queued' || render.status === 'rendering' || render.status === 'paused');

/** Segments one read asks for (the server answers at most PROJECT_LIMITS.segmentPage). */
export const SEGMENT_PAGE = PROJECT_LIMITS.segmentPage;

/** A chapter's segments read so far (positions 0 to items.length - 1) and how many it has. */
export interface ChapterSegments {
  items: readonly SegmentRecord[];
  total: number;
}
export type SegmentWindows = Readonly<Record<string, ChapterSegments>>;

interface ProjectView {
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

export const createProjectsSlice: SliceCreator<ProjectsSlice> =
  ({ client, pollMs = 1000 }) =>
  (set, get) => {
    const api = createProjectsApi(client);
    /** Each open project gets a number; loops of an older one stop. */
    let opened = 0;
    let stream: AbortController | undefined;
    let polling = false;
    let refreshTimer: ReturnType<typeof setTimeout> | undefined;

    const failList = (error: unknown) => {
      set({ projectsError: errorMessage(error) });
    };
    const fail = (error: unknown) => {
      set({ projectError: errorMessage(error) });
    };
    const openId = () => get().project?.project.id;

    /** Each read of segments gets a number: an answer older than a newer read is dropped. */
    let segmentReads = 0;

    /**
     * Shows a project's detail; keeps the open chapter if it still exists and reads its segments
     * again (as many as were read), the other chapters' to be read when opened.
     */
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

    /** Reads `count` segments of a chapter from `offset` (a page at a time) into the store. */
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

    /** Runs an edit of the open project that answers the project. */
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

    /** Re-reads the project soon (once for a burst of segment edits: counters and undo). */
    const refreshSoon = () => {
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => void get().refreshProject(), 400);
    };

    const onEvent = (event: ProjectEvent) => {
      const detail = get().project;
      if (!detail || event.project_id !== detail.project.id) return;
      const view = { project: detail, chapterSegments: get().chapterSegments };
      const next = withSegmentStates(view, event);
      if (next.chapterSegments !== view.chapterSegments)
        set({ project: next.project, chapterSegments: next.chapterSegments });
      // A segment not read changed: the chapters' counts are read again (once for a burst).
      if (next.missed) refreshSoon();
      if (event.render) {
        const current = get().projectRender;
        if (!current || current.id === event.render.id || event.render.created_at >= current.created_at) {
          const wasRunning = isRunning(current);
          set({ projectRender: event.render });
          if (!isRunning(event.render) && wasRunning) refreshSoon();
          else if (isRunning(event.render)) watchRender();
        }
      }
    };

    /** Re-reads the newest render every `pollMs` while one runs; the project once it ends. */
    const watchRender = () => {
      if (polling) return;
      polling = true;
      const mine = opened;
      void (async () => {
        try {
          while (mine === opened && isRunning(get().projectRender)) {
            await new Promise((resolve) => setTimeout(resolve, pollMs));
            const id = openId();
            if (!id || mine !== opened) return;
            const renders = await api.renders(id).catch(() => null);
            if (mine !== opened || !renders) continue;
            set({ projectRender: renders[0] ?? null });
            if (!isRunning(renders[0] ?? null)) {
              await get().refreshProject();
              void get().refreshSession();
            }
          }
        } finally {
          polling = false;
        }
      })();
    };

    return {
      projects: [],
      projectsLoaded: false,
      projectsNext: null,
      projectsTotal: 0,
      projectsError: null,
      projectVoices: [],
      importSummary: null,
      project: null,
      openProjectId: null,
      projectError: null,
      openChapterId: null,
      chapterSegments: {},
      projectRender: null,

      async loadProjects() {
        try {
          const page = await api.list();
          set({
            projects: page.items,
            projectsNext: page.next_cursor,
            projectsTotal: page.total,
            projectsLoaded: true,
          });
        } catch (error) {
          failList(error);
        }
      },
      async loadMoreProjects() {
        const cursor = get().projectsNext;
        if (!cursor) return;
        try {
          const page = await api.list(cursor);
          // A project made or deleted here meanwhile is already (or no longer) in the list: by id.
          const known = new Set(get().projects.map((p) => p.id));
          set({
            projects: [...get().projects, ...page.items.filter((p) => !known.has(p.id))],
            projectsNext: page.next_cursor,
            projectsTotal: page.total,
          });
        } catch (error) {
          failList(error);
        }
      },
      async loadProjectVoices() {
        const id = openId() ?? get().openProjectId;
        if (!id) return;
        try {
          const voices = await api.customVoices(id);
          if ((openId() ?? get().openProjectId) === id) set({ projectVoices: [...voices].sort(byName) });
        } catch (error) {
          fail(error);
        }
      },
      async createProject(title) {
        set({ projectsError: null });
        try {
          const detail = await api.create({ title });
          set({ projects: [detail.project, ...get().projects], projectsTotal: get().projectsTotal + 1 });
          await get().openProject(detail.project.id);
        } catch (error) {
          failList(error);
        }
      },
      async importManuscript(file, fileName, options) {
        set({ projectsError: null });
        try {
          const detail = await api.importManuscript(file, fileName, options);
          set({
            projects: [detail.project, ...get().projects],
            projectsTotal: get().projectsTotal + 1,
            importSummary: {
              projectId: detail.project.id,
              fileName,
              languageChoice: detail.language_choice ?? null,
              legacyEncoding: detail.legacy_encoding ?? null,
              textEncoding: detail.text_encoding ?? null,
            },
          });
          await get().openProject(detail.project.id);
          return true;
        } catch (error) {
          failList(error);
          return false;
        }
      },
      async importArchive(file, fileName) {
        set({ projectsError: null });
        try {
          const detail = await api.importArchive(file, fileName);
          set({ projects: [detail.project, ...get().projects], projectsTotal: get().projectsTotal + 1 });
          return true;
        } catch (error) {
          failList(error);
          return false;
        }
      },
      async renameProject(id, title) {
        set({ projectsError: null });
        try {
          const detail = await api.update(id, { title });
          set({ projects: get().projects.map((p) => (p.id === id ? detail.project : p)) });
          if (openId() === id) show(detail);
        } catch (error) {
          failList(error);
        }
      },
      async duplicateProject(id) {
        set({ projectsError: null });
        try {
          const detail = await api.duplicate(id);
          set({ projects: [detail.project, ...get().projects], projectsTotal: get().projectsTotal + 1 });
        } catch (error) {
          failList(error);
        }
      },
      async deleteProject(id) {
        set({ projectsError: null });
        try {
          await api.remove(id);
          set({
            projects: get().projects.filter((p) => p.id !== id),
            projectsTotal: get().projectsTotal - 1,
          });
          if (openId() === id) get().closeProject();
        } catch (error) {
          failList(error);
        }
      },
      async openProject(id) {
        const mine = ++opened;
        stream?.abort();
        // Another project's detail does not stay on screen while this one loads.
        const shown = get().project;
        set({
          project: shown?.project.id === id ? shown : null,
          chapterSegments: shown?.project.id === id ? get().chapterSegments : {},
          projectVoices: shown?.project.id === id ? get().projectVoices : [],
          projectError: null,
          projectsError: null,
          projectRender: null,
          view: 'projects',
          openProjectId: id,
        });
        try {
          const [detail, renders] = await Promise.all([api.get(id), api.renders(id).catch(() => [])]);
          if (mine !== opened) return;
          set({ openChapterId: firstChapter(detail) });
          show(detail);
          set({ projectRender: renders[0] ?? null });
        } catch (error) {
          if (mine === opened) failList(error);
          return;
        }
        const controller = new AbortController();
        stream = controller;
        client.streamEvents({ onProject: onEvent }, controller.signal).catch(() => undefined);
        if (isRunning(get().projectRender)) watchRender();
      },
      closeProject() {
        opened++;
        stream?.abort();
        stream = undefined;
        clearTimeout(refreshTimer);
        set({
          project: null,
          openProjectId: null,
          projectError: null,
          openChapterId: null,
          chapterSegments: {},
          projectRender: null,
          projectVoices: [],
          importSummary: null,
        });
        void get().loadProjects();
      },
      dismissImportSummary() {
        set({ importSummary: null });
      },
      async refreshProject() {
        const id = openId();
        if (!id) return;
        try {
          const detail = await api.get(id);
          if (openId() === id) show(detail);
        } catch (error) {
          fail(error);
        }
      },
      updateProject: (settings) => edit((id) => api.update(id, settings)),
      async importChapters(file, fileName) {
        const id = openId();
        if (!id) return false;
        try {
          show(await api.importInto(id, file, fileName));
          return true;
        } catch (error) {
          fail(error);
          return false;
        }
      },
      undo: () => edit((id) => api.undo(id)),
      redo: () => edit((id) => api.redo(id)),
      openChapter(chapterId) {
        set({ openChapterId: chapterId });
        if (!get().chapterSegments[chapterId]) void get().loadSegments(chapterId);
      },
      async loadSegments(chapterId, more = false) {
        const window = get().chapterSegments[chapterId];
        if (!more) return await readSegments(chapterId, 0, SEGMENT_PAGE);
        if (!window || window.items.length >= window.total) return null;
        return await readSegments(chapterId, window.items.length, SEGMENT_PAGE);
      },
      updateChapter: (chapterId, change) => edit((id) => api.updateChapter(id, chapterId, change)),
      async moveChapter(chapterId, index) {
        const detail = get().project;
        if (!detail) return;
        const order = detail.chapters.map((c) => c.id).filter((c) => c !== chapterId);
        const to = Math.max(0, Math.min(order.length, index));
        order.splice(to, 0, chapterId);
        if (order.every((c, i) => c === detail.chapters[i]!.id)) return;
        // Shown at once; the server's answer (or a refusal) settles it.
        const byId = new Map(detail.chapters.map((c) => [c.id, c]));
        set({ project: { ...detail, chapters: order.map((c) => byId.get(c)!) } });
        await edit((id) => api.reorderChapters(id, order));
        if (get().projectError) await get().refreshProject();
      },
      async mergeWithNext(chapterId) {
        const chapters = get().project?.chapters ?? [];
        const at = chapters.findIndex((c) => c.id === chapterId);
        const next = chapters[at + 1];
        if (at < 0 || !next) return;
        await edit((id) => api.mergeChapters(id, [chapterId, next.id]));
      },
      splitChapter: (chapterId, segmentId, title) =>
        edit((id) => api.splitChapter(id, chapterId, segmentId, title)),
      async updateSegment(segmentId, change) {
        const id = openId();
        if (!id) return false;
        try {
          const segment = await api.updateSegment(id, segmentId, change);
          const detail = get().project;
          if (detail && detail.project.id === id)
            set({
              ...withSegment({ project: detail, chapterSegments: get().chapterSegments }, segment),
              projectError: null,
            });
          refreshSoon();
          return true;
        } catch (error) {
          fail(error);
          return false;
        }
      },
      async addCharacter(character) {
        const id = openId();
        if (!id) return;
        try {
          await api.addCharacter(id, character);
          await get().refreshProject();
        } catch (error) {
          fail(error);
        }
      },
      async updateCharacter(characterId, change) {
        const id = openId();
        if (!id) return;
        try {
          const character = await api.updateCharacter(id, characterId, change);
          const detail = get().project;
          if (detail && detail.project.id === id)
            set({
              project: {
                ...detail,
                characters: detail.characters.map((c) => (c.id === character.id ? character : c)),
              },
              projectError: null,
            });
          refreshSoon();
        } catch (error) {
          fail(error);
        }
      },
      removeCharacter: (characterId) => edit((id) => api.removeCharacter(id, characterId)),
      mergeCharacter: (characterId, into) => edit((id) => api.mergeCharacter(id, characterId, into)),
      splitCharacter: (characterId, names) => edit((id) => api.splitCharacter(id, characterId, names)),
      applySuggestions: (segmentIds) => edit((id) => api.applySuggestions(id, segmentIds)),
      async startRender(target = {}) {
        const id = openId();
        if (!id) return;
        set({ projectError: null });
        try {
          set({ projectRender: await api.render(id, target) });
          void get().refreshSession();
          await get().refreshProject();
          watchRender();
        } catch (error) {
          fail(error);
        }
      },
      async pauseRender() {
        const id = openId();
        const render = get().projectRender;
        if (!id || !render) return;
        try {
          set({ projectRender: await api.pauseRender(id, render.id) });
        } catch (error) {
          fail(error);
        }
      },
      async resumeRender() {
        const id = openId();
        const render = get().projectRender;
        if (!id || !render) return;
        try {
          set({ projectRender: await api.resumeRender(id, render.id) });
          watchRender();
        } catch (error) {
          fail(error);
        }
      },
      async cancelRender() {
        const id = openId();
        const render = get().projectRender;
        if (!id || !render) return;
        try {
          set({ projectRender: await api.cancelRender(id, render.id) });
          void get().refreshSession();
          await get().refreshProject();
        } catch (error) {
          fail(error);
        }
      },
      async regenerateSegment(segmentId, options) {
        const id = openId();
        if (!id) return false;
        set({ projectError: null });
        try {
          const segment = await api.regenerate(id, segmentId, options);
          const detail = get().project;
          if (detail && detail.project.id === id)
            set(withSegment({ project: detail, chapterSegments: get().chapterSegments }, segment));
          void get().refreshSession();
          refreshSoon();
          return true;
        } catch (error) {
          fail(error);
          return false;
        }
      },
    };
  };
