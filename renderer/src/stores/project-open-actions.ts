/** Opening and closing a project, reading it again, its voices, and opening its chapters' segments. */

import { byName } from './custom-voices-slice';
import { firstChapter, SEGMENT_PAGE } from './project-segment-windows';
import { isRunning } from './project-render-watch';
import type { ProjectSession } from './project-session';
import type { ProjectsSlice } from './projects-slice';

type OpenActions = Pick<
  ProjectsSlice,
  | 'openProject'
  | 'closeProject'
  | 'refreshProject'
  | 'loadProjectVoices'
  | 'dismissImportSummary'
  | 'openChapter'
  | 'loadSegments'
>;

export function createProjectOpenActions(session: ProjectSession): OpenActions {
  const { api, set, get, openId, fail, failList, show, readSegments } = session;
  return {
    async openProject(id) {
      const mine = session.beginOpen();
      // Another project's detail does not stay on screen while this one loads.
      const shown = get().project;
      const same = shown?.project.id === id;
      set({
        project: same ? shown : null,
        chapterSegments: same ? get().chapterSegments : {},
        projectVoices: same ? get().projectVoices : [],
        projectError: null,
        projectsError: null,
        projectRender: null,
        view: 'projects',
        openProjectId: id,
      });
      try {
        const [detail, renders] = await Promise.all([api.get(id), api.renders(id).catch(() => [])]);
        if (!session.isCurrent(mine)) return;
        set({ openChapterId: firstChapter(detail) });
        show(detail);
        set({ projectRender: renders[0] ?? null });
      } catch (error) {
        if (session.isCurrent(mine)) failList(error);
        return;
      }
      session.listen();
      if (isRunning(get().projectRender)) session.watchRender();
    },
    closeProject() {
      session.stop();
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
    dismissImportSummary() {
      set({ importSummary: null });
    },
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
  };
}
