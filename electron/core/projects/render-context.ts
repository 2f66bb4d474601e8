/**
 * What the parts of the project renders share: the options, the runs here and their queue, and
 * how a render's changes are told (events, waiters) and how a render ends (outcome and refund).
 */

import { PROJECT_LIMITS, type SegmentState } from '../../shared/projects';
import { isoTime } from '../platform/clock';
import type { ProjectRenderRow, RenderFinish, RenderItem } from '../store';
import { type LeasedQueueRun, type LeasedWorker, refundCredits } from '../jobs';
import { FINISHED, renderRecord } from './render-records';
import type { ProjectRendersOptions } from './project-renders';

/** A render running here. */
export interface Running extends LeasedQueueRun<ProjectRenderRow> {
  items: RenderItem[];
  pause: boolean;
  cancel: boolean;
  /** Throughput of this run: when it started and the characters rendered since. */
  startedAt: number;
  charsThisRun: number;
}

export type RenderOutcomes = ReturnType<typeof createRenderOutcomes>;

export interface RenderContext extends RenderOutcomes {
  options: ProjectRendersOptions;
  leaseMs: number;
  pollMs: number;
  runs: Map<string, Running>;
  worker: LeasedWorker;
  mustGet(id: string): Promise<ProjectRenderRow>;
}

export function createRenderOutcomes(
  options: ProjectRendersOptions,
  live: (id: string) => Running | undefined,
) {
  const { store, events, clock, instanceId } = options;
  const waiters = new Map<string, ((row: ProjectRenderRow) => void)[]>();
  const record = (row: ProjectRenderRow) => renderRecord(row, live(row.id), clock.now());

  const emit = (
    row: ProjectRenderRow | undefined,
    keyId: string,
    projectId: string,
    segments: { id: string; state: SegmentState }[],
  ) => {
    // A change of many segments (a whole book queued) is told without them: the event stays small.
    const listed = segments.length > PROJECT_LIMITS.eventSegments ? [] : segments;
    events.emit('project', {
      keyId,
      project_id: projectId,
      render: row ? record(row) : null,
      segments: listed,
    });
  };

  const settle = (row: ProjectRenderRow) => {
    if (!FINISHED.has(row.status) && row.status !== 'paused') return;
    const list = waiters.get(row.id);
    waiters.delete(row.id);
    for (const resolve of list ?? []) resolve(row);
  };

  /** Ends a render: its outcome, the refund of what it did not render, its leftover segments released. */
  const finishRender = async (
    row: ProjectRenderRow,
    items: readonly RenderItem[],
    outcome: Omit<RenderFinish, 'finishedAt'>,
    owned: boolean,
  ): Promise<boolean> => {
    const at = isoTime(clock.now());
    const spent = items.reduce((n, i) => n + (i.done ? i.cost_milli : 0), 0);
    const refund = row.cost_milli - spent;
    const left = items.filter((i) => !i.done).map((i) => i.id);
    const ok = await store.transaction(async (tx) => {
      const f = {
        status: outcome.status,
        finishedAt: at,
        errorCode: outcome.errorCode,
        errorMessage: outcome.errorMessage,
        errorDetails: outcome.errorDetails,
      };
      const finished = owned
        ? await tx.projectRenders.finish(row.id, instanceId, f)
        : await tx.projectRenders.finishWaiting(row.id, f);
      if (!finished) return false;
      await tx.projectRenders.releaseSegments(left);
      if (refund > 0) await refundCredits(tx, row, refund, at);
      return true;
    });
    if (ok) {
      const latest = (await store.projectRenders.get(row.id))!;
      emit(latest, row.key_id, row.project_id, []);
      settle(latest);
    }
    return ok;
  };

  return { waiters, record, emit, settle, finishRender };
}
