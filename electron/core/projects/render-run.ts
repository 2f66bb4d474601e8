/**
 * A claimed render run to its end: its segments in parallel lanes (as many as the engine has
 * workers), each recorded as it finishes; then done, failed, cancelled, paused or queued again.
 */

import { AppError, isAppError } from '../../shared/errors';
import { isoTime } from '../platform/clock';
import { storedErrorDetails } from '../platform/error-details';
import type { ModelId } from '../../shared/options';
import type { RenderItem } from '../store';
import type { RenderContext, Running } from './render-context';
import { segmentFailure } from './render-records';
import { castOf, renderOne, renderedAudio } from './render-cast';

/** The failed segments of a run, and the last one's error. */
interface Tally {
  failures: number;
  lastError: string;
}

export function createRenderRun(ctx: RenderContext) {
  const { options, worker, emit, settle, finishRender } = ctx;
  const { engine, store, log, instanceId } = options;

  const run = async (entry: Running): Promise<void> => {
    const { row } = entry;
    const project = await store.projects.getProject(row.project_id);
    if (!project) {
      await finishRender(
        row,
        entry.items,
        { status: 'failed', errorCode: 'PROJECT_NOT_FOUND', errorMessage: 'The project was removed.' },
        true,
      );
      return;
    }
    const tally: Tally = { failures: 0, lastError: '' };
    // Progress is written one write after another, each with the state as it is then (lanes
    // finish in any order; a stale write landing last would re-render a segment after a crash).
    let progressWrites: Promise<unknown> = Promise.resolve();
    const writeProgress = () => {
      progressWrites = progressWrites.then(() => {
        const done = entry.items.filter((i) => i.done);
        return store.projectRenders.progress(row.id, instanceId, {
          items: JSON.stringify(entry.items),
          segmentsDone: done.length,
          charactersDone: done.reduce((n, i) => n + i.characters, 0),
        });
      });
      return progressWrites;
    };
    try {
      // As many segments at once as the engine has workers: each is short, so one at a time
      // would leave all but one of them idle.
      const pending = entry.items.filter((i) => !i.done);
      let next = 0;
      const lane = async () => {
        while (next < pending.length) {
          if (entry.cancel || entry.pause || worker.closing || entry.leaseLost) return;
          await renderItem(ctx, entry, project.model_id, pending[next++]!, tally);
          await writeProgress();
        }
      };
      const lanes = await Promise.allSettled(
        Array.from({ length: Math.max(1, Math.min(engine.poolSize, pending.length)) }, lane),
      );
      const failed = lanes.find((lane): lane is PromiseRejectedResult => lane.status === 'rejected');
      if (failed) throw failed.reason;
    } catch (error) {
      if (entry.leaseLost) return;
      if (!(worker.closing && entry.controller.signal.aborted) && !entry.cancel) {
        const appError = isAppError(error)
          ? error
          : new AppError('INTERNAL', 'The render failed unexpectedly.');
        if (!isAppError(error))
          log.warn(`project render ${row.id}: ${(error as Error)?.stack ?? String(error)}`);
        await finishRender(
          row,
          entry.items,
          {
            status: 'failed',
            errorCode: appError.code,
            errorMessage: appError.message,
            errorDetails: storedErrorDetails(appError),
          },
          true,
        );
        return;
      }
    }
    if (entry.leaseLost) return;
    const rendering = entry.items.filter((i) => !i.done).map((i) => i.id);
    if (entry.cancel) {
      await finishRender(
        row,
        entry.items,
        {
          status: 'cancelled',
          errorCode: 'CANCELLED',
          errorMessage: 'Cancelled before it finished; what it did not render was refunded.',
        },
        true,
      );
      return;
    }
    if (worker.closing || entry.pause) {
      // Segments it reached stay queued for when it runs again.
      await store.projectRenders.setSegmentStates(
        (await Promise.all(rendering.map((id) => store.projects.getSegment(id))))
          .filter((s) => s?.state === 'rendering')
          .map((s) => s!.id),
        'queued',
      );
      if (worker.closing) {
        await store.projectRenders.requeue(row.id, instanceId);
      } else if (await store.projectRenders.pause(row.id, instanceId)) {
        const latest = (await store.projectRenders.get(row.id))!;
        emit(latest, row.key_id, row.project_id, []);
        settle(latest);
      }
      return;
    }
    await finishRender(
      row,
      entry.items,
      tally.failures > 0
        ? {
            status: 'failed',
            errorCode: 'ENGINE_FAILED',
            errorMessage: `${tally.failures} segment(s) failed; the last: ${tally.lastError}`,
            errorDetails: JSON.stringify({ segments_failed: tally.failures }),
          }
        : { status: 'done' },
      true,
    );
  };

  return run;
}

/** Renders one item; throws only when the render is aborted. */
async function renderItem(
  ctx: RenderContext,
  entry: Running,
  modelId: ModelId,
  item: RenderItem,
  tally: Tally,
) {
  const { options, emit } = ctx;
  const { store, clock, log } = options;
  const { row } = entry;
  const segment = await store.projects.getSegment(item.id);
  if (!segment) return;
  await store.projectRenders.setSegmentAudio(item.id, { state: 'rendering', error: null });
  emit(row, row.key_id, row.project_id, [{ id: item.id, state: 'rendering' }]);
  const { cast, narrator, customVoices } = await castOf(store, row.project_id);
  if (!narrator) throw new AppError('PROJECT_CONFLICT', 'The project has no narrator.');
  try {
    const result = await renderOne(
      options,
      segment,
      { projectId: row.project_id, modelId: modelId },
      cast,
      narrator,
      entry.controller.signal,
      customVoices,
    );
    item.done = true;
    entry.charsThisRun += item.characters;
    // Edited while it rendered: the audio is of the old words, so the edit's state stands.
    const now = await store.projects.getSegment(item.id);
    if (!now || now.text !== segment.text || now.speaker !== segment.speaker || now.quotes !== segment.quotes)
      return;
    await store.projectRenders.setSegmentAudio(item.id, renderedAudio(result, isoTime(clock.now())));
    emit(row, row.key_id, row.project_id, [{ id: item.id, state: 'done' }]);
  } catch (error) {
    if (entry.controller.signal.aborted) throw error;
    tally.failures++;
    const failure = segmentFailure(error);
    tally.lastError = failure.error;
    if (!isAppError(error))
      log.warn(`project render ${row.id}: segment ${item.id}: ${(error as Error)?.stack ?? String(error)}`);
    await store.projectRenders.setSegmentAudio(item.id, { state: 'failed', ...failure });
    emit(row, row.key_id, row.project_id, [{ id: item.id, state: 'failed' }]);
  }
}
