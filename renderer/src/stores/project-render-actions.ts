/** Rendering the open project: starting, pausing, resuming and cancelling a render, and one segment again now. */

import { withSegment } from './project-segment-windows';
import type { ProjectSession } from './project-session';
import type { ProjectsSlice } from './projects-slice';

type RenderActions = Pick<
  ProjectsSlice,
  'startRender' | 'pauseRender' | 'resumeRender' | 'cancelRender' | 'regenerateSegment'
>;

export function createProjectRenderActions(session: ProjectSession): RenderActions {
  const { api, set, get, openId, fail } = session;
  /** Runs an action on the open project's newest render (none: nothing happens). */
  const onRender = async (action: (id: string, renderId: string) => Promise<unknown>) => {
    const id = openId();
    const render = get().projectRender;
    if (!id || !render) return;
    try {
      await action(id, render.id);
    } catch (error) {
      fail(error);
    }
  };
  return {
    async startRender(target = {}) {
      const id = openId();
      if (!id) return;
      set({ projectError: null });
      try {
        set({ projectRender: await api.render(id, target) });
        void get().refreshSession();
        await get().refreshProject();
        session.watchRender();
      } catch (error) {
        fail(error);
      }
    },
    pauseRender: () =>
      onRender(async (id, renderId) => {
        set({ projectRender: await api.pauseRender(id, renderId) });
      }),
    resumeRender: () =>
      onRender(async (id, renderId) => {
        set({ projectRender: await api.resumeRender(id, renderId) });
        session.watchRender();
      }),
    cancelRender: () =>
      onRender(async (id, renderId) => {
        set({ projectRender: await api.cancelRender(id, renderId) });
        void get().refreshSession();
        await get().refreshProject();
      }),
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
        session.refreshSoon();
        return true;
      } catch (error) {
        fail(error);
        return false;
      }
    },
  };
}
