/**
 * Book projects: the list, the open project (its chapters, segments and cast), and its renders.
 * Every edit goes to the server and the answer replaces what is shown (the server keeps undo and
 * the segment states). While a project is open its `project` events (render progress, segment
 * states) arrive on the event stream; while a render runs it is also re-read every `pollMs`, so
 * an event sent before the stream opened cannot leave a bar stuck (as job-slice follows requests).
 */

import type {
  ProjectDetail,
  ProjectEvent,
  ProjectRecord,
  ProjectRenderRecord,
  ProjectSettings,
  SegmentRecord,
} from '../../../electron/shared/projects';
import { errorMessage } from '../lib/api-client';
import {
  createProjectsApi,
  type ChapterEdit,
  type CharacterEdit,
  type CharacterInput,
  type RegenerateOptions,
  type SegmentEdit,
} from '../lib/projects-api';
import type { SliceCreator } from './types';

export interface ProjectsSlice {
  projects: ProjectRecord[];
  projectsLoaded: boolean;
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
  /** The project's newest render (running or finished), or null. */
  projectRender: ProjectRenderRecord | null;
  loadProjects(): Promise<void>;
  createProject(title: string): Promise<void>;
  /** A manuscript file as a new project; opens it. False when the server refused it (projectsError says why). */
  importManuscript(file: Blob, fileName: string): Promise<boolean>;
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
  updateChapter(chapterId: string, edit: ChapterEdit): Promise<void>;
  /** Moves a chapter to `index` (0-based) in the book's order. */
  moveChapter(chapterId: string, index: number): Promise<void>;
  mergeWithNext(chapterId: string): Promise<void>;
  splitChapter(chapterId: string, segmentId: string, title: string): Promise<void>;
  updateSegment(segmentId: string, edit: SegmentEdit): Promise<boolean>;
  addCharacter(character: CharacterInput): Promise<void>;
  updateCharacter(characterId: string, edit: CharacterEdit): Promise<void>;
  removeCharacter(characterId: string): Promise<void>;
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

/** The project with one segment replaced (and its chapter's done count kept right). */
export function withSegment(detail: ProjectDetail, segment: SegmentRecord): ProjectDetail {
  return {
    ...detail,
    chapters: detail.chapters.map((chapter) => {
      if (chapter.id !== segment.chapter_id) return chapter;
      const segments = chapter.segments.map((s) => (s.id === segment.id ? segment : s));
      return { ...chapter, segments, segments_done: segments.filter((s) => s.state === 'done').length };
    }),
  };
}

/** The project with the states an event reports; unchanged (the same object) when none applies. */
export function withSegmentStates(detail: ProjectDetail, event: ProjectEvent): ProjectDetail {
  if (event.project_id !== detail.project.id || event.segments.length === 0) return detail;
  const states = new Map(event.segments.map((s) => [s.id, s.state]));
  let touched = false;
  const chapters = detail.chapters.map((chapter) => {
    if (!chapter.segments.some((s) => states.has(s.id))) return chapter;
    touched = true;
    const segments = chapter.segments.map((s) => {
      const state = states.get(s.id);
      return state === undefined || state === s.state ? s : { ...s, state };
    });
    return { ...chapter, segments, segments_done: segments.filter((s) => s.state === 'done').length };
  });
  return touched ? { ...detail, chapters } : detail;
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

    /** Shows a project's detail; keeps the open chapter if it still exists. */
    const show = (detail: ProjectDetail) => {
      const chapterId = get().openChapterId;
      const keep = detail.chapters.some((c) => c.id === chapterId);
      set({
        project: detail,
        projectError: null,
        openChapterId: keep ? chapterId : (detail.chapters[0]?.id ?? null),
        projects: get().projects.map((p) => (p.id === detail.project.id ? detail.project : p)),
      });
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
      const next = withSegmentStates(detail, event);
      if (next !== detail) set({ project: next });
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
      projectsError: null,
      project: null,
      openProjectId: null,
      projectError: null,
      openChapterId: null,
      projectRender: null,

      async loadProjects() {
        try {
          set({ projects: (await api.list()).items, projectsLoaded: true });
        } catch (error) {
          failList(error);
        }
      },
      async createProject(title) {
        set({ projectsError: null });
        try {
          const detail = await api.create({ title });
          set({ projects: [detail.project, ...get().projects] });
          await get().openProject(detail.project.id);
        } catch (error) {
          failList(error);
        }
      },
      async importManuscript(file, fileName) {
        set({ projectsError: null });
        try {
          const detail = await api.importManuscript(file, fileName);
          set({ projects: [detail.project, ...get().projects] });
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
          set({ projects: [detail.project, ...get().projects] });
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
          set({ projects: [detail.project, ...get().projects] });
        } catch (error) {
          failList(error);
        }
      },
      async deleteProject(id) {
        set({ projectsError: null });
        try {
          await api.remove(id);
          set({ projects: get().projects.filter((p) => p.id !== id) });
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
          projectError: null,
          projectsError: null,
          projectRender: null,
          view: 'projects',
          openProjectId: id,
        });
        try {
          const [detail, renders] = await Promise.all([api.get(id), api.renders(id).catch(() => [])]);
          if (mine !== opened) return;
          set({ openChapterId: detail.chapters[0]?.id ?? null });
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
          projectRender: null,
        });
        void get().loadProjects();
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
      openChapter: (chapterId) => set({ openChapterId: chapterId }),
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
            set({ project: withSegment(detail, segment), projectError: null });
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
          if (detail && detail.project.id === id) set({ project: withSegment(detail, segment) });
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
