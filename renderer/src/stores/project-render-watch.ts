/**
 * Following the open project while it shows: its `project` events (render progress, segment
 * states) from the event stream, and, while a render runs, a re-read of the newest render every
 * `pollMs`, so an event sent before the stream opened cannot leave a bar stuck (as job-slice
 * follows requests). Each opening gets a number; the loops of an older one stop.
 */

import type { StoreApi } from 'zustand';
import type { ProjectEvent, ProjectRenderRecord } from '../../../electron/shared/projects';
import type { ApiClient } from '../lib/api-client';
import type { ProjectsApi } from '../lib/projects-api';
import { withSegmentStates } from './project-segment-windows';
import type { StudioState } from './types';

export const isRunning = (render: ProjectRenderRecord | null) =>
  render !== null &&
  (render.status === 'queued' || render.status === 'rendering' || render.status === 'paused');

export interface RenderWatch {
  /** Starts following a newly opened project; answers its opening's number. */
  beginOpen(): number;
  /** Whether `opening` is still the current one (no other project opened or closed since). */
  isCurrent(opening: number): boolean;
  /** Opens the event stream of the project just shown. */
  listen(): void;
  /** Stops following: the stream closes, pending re-reads are dropped, loops end. */
  stop(): void;
  /** Re-reads the newest render every `pollMs` while one runs; the project once it ends. */
  watchRender(): void;
  /** Re-reads the project soon (once for a burst of segment edits: counters and undo). */
  refreshSoon(): void;
}

interface WatchDeps {
  api: ProjectsApi;
  client: ApiClient;
  set: StoreApi<StudioState>['setState'];
  get: () => StudioState;
  openId(): string | undefined;
  pollMs: number;
}

export function createRenderWatch({ api, client, set, get, openId, pollMs }: WatchDeps): RenderWatch {
  let opened = 0;
  let stream: AbortController | undefined;
  let polling = false;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;

  const refreshSoon = () => {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => void get().refreshProject(), 400);
  };

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

  return {
    beginOpen() {
      stream?.abort();
      return ++opened;
    },
    isCurrent: (opening) => opening === opened,
    listen() {
      const controller = new AbortController();
      stream = controller;
      client.streamEvents({ onProject: onEvent }, controller.signal).catch(() => undefined);
    },
    stop() {
      opened++;
      stream?.abort();
      stream = undefined;
      clearTimeout(refreshTimer);
    },
    watchRender,
    refreshSoon,
  };
}
