/** A render paused, resumed, cancelled (refunded), or waited for until it settles. */

import { AppError } from '../../shared/errors';
import type { ProjectRenderRow } from '../store';
import type { RenderContext } from './render-context';
import { FINISHED, itemsOf } from './render-records';
import type { ProjectRenders } from './project-renders';

export function createRenderControls(ctx: RenderContext) {
  const { options, runs, worker, waiters, emit, settle, finishRender, mustGet, leaseMs, pollMs } = ctx;
  const { store, clock } = options;
  /**
   * Whether this instance runs the render: a row read as rendering may have been claimed here a
   * moment ago (it begins once that claim settles), or be running on another instance.
   */
  const runsHere = async (id: string) => {
    await worker.claimSettled();
    return runs.has(id);
  };
  const controls: Pick<ProjectRenders, 'pause' | 'resume' | 'cancel' | 'settled'> = {
    async pause(id) {
      const row = await mustGet(id);
      const live = runs.get(id);
      if (live) {
        live.pause = true;
        await live.done;
      } else if (row.status === 'queued') {
        if (!(await store.projectRenders.pauseQueued(id))) return controls.pause(id);
        emit(await mustGet(id), row.key_id, row.project_id, []);
      } else if (row.status === 'rendering') {
        if (await runsHere(id)) return controls.pause(id);
        await store.projectRenders.request(id, 'pause');
      } else if (row.status !== 'paused') {
        throw new AppError('PROJECT_CONFLICT', `The render is ${row.status}: it cannot be paused.`);
      }
      return mustGet(id);
    },

    async resume(id) {
      const row = await mustGet(id);
      if (row.status !== 'paused') {
        if (row.status === 'queued' || row.status === 'rendering') return row;
        throw new AppError('PROJECT_CONFLICT', `The render is ${row.status}: it cannot be resumed.`);
      }
      await store.projectRenders.resume(id);
      const latest = await mustGet(id);
      emit(latest, row.key_id, row.project_id, []);
      worker.pump();
      return latest;
    },

    async cancel(id) {
      const row = await mustGet(id);
      if (FINISHED.has(row.status)) return row;
      const live = runs.get(id);
      if (live) {
        live.cancel = true;
        live.controller.abort(new AppError('CANCELLED', 'Cancelled.'));
        await live.done;
        return mustGet(id);
      }
      if (row.status === 'queued' || row.status === 'paused') {
        if (
          await finishRender(
            row,
            itemsOf(row),
            {
              status: 'cancelled',
              errorCode: 'CANCELLED',
              errorMessage: 'Cancelled before it finished; what it did not render was refunded.',
            },
            false,
          )
        ) {
          return mustGet(id);
        }
        return controls.cancel(id);
      }
      // Running on another instance: its owner sees the request when it renews its lease.
      if (await runsHere(id)) return controls.cancel(id);
      await store.projectRenders.request(id, 'cancel');
      const deadline = clock.now() + leaseMs * 2;
      for (;;) {
        const latest = await mustGet(id);
        if (FINISHED.has(latest.status) || clock.now() > deadline) return latest;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },

    async settled(id) {
      const row = await mustGet(id);
      if (FINISHED.has(row.status) || row.status === 'paused') return row;
      return new Promise<ProjectRenderRow>((resolve) => {
        const list = waiters.get(id) ?? [];
        list.push(resolve);
        waiters.set(id, list);
        // On a shared database another instance may finish it: look now and then.
        const check = setInterval(() => {
          store.projectRenders.get(id).then(
            (latest) => {
              if (latest && (FINISHED.has(latest.status) || latest.status === 'paused')) {
                clearInterval(check);
                settle(latest);
              }
            },
            () => undefined,
          );
        }, pollMs);
        list.push(() => clearInterval(check));
      });
    },
  };
  return controls;
}
