/**
 * Renders of book projects as a durable queue (table `project_renders`), run as audiobook exports
 * are (jobs/export-jobs.ts, both on jobs/leased-worker.ts): accepted with their charge in one transaction, claimed under a lease
 * renewed every third of its length, one at a time per instance (beside it, the first render of a
 * key with none running: leased-worker.ts SPARE_RUNS); a run that died with its process
 * resumes where it stopped (on SQLite at the next start, on a shared database when its lease runs
 * out), because every rendered segment is recorded as it finishes.
 *
 * A render covers the segments it was given, or else those of its chapters (every included
 * chapter when none is named) whose audio is missing, changed or failed. Each goes queued →
 * rendering → done (or failed), and its audio is made by segment-render.ts. The key is charged up
 * front for them as the API charges (per character, at the speaker's voice price); what was not
 * rendered (a cancel, a failure, a segment removed meanwhile) is refunded when the render ends.
 * Pause keeps the rest queued; resume puts the render back in the queue. Progress is told per
 * chapter, by characters, with an estimate of the time left from this run's measured throughput.
 */

import { AppError } from '../../shared/errors';
import { type ProjectRenderRecord } from '../../shared/projects';
import type { Engine } from '../engine';
import { type Clock } from '../platform/clock';
import type { Log } from '../platform/log';
import type { ProjectRenderRow, SegmentRow, Store } from '../store';
import { createLeasedQueue, type JobEvents } from '../jobs';
import type { ProjectService } from './project-service';
import { createDirectRenders } from './direct-renders';
import { createRenderControls } from './render-controls';
import { createRenderOutcomes, type RenderContext, type Running } from './render-context';
import { itemsOf } from './render-records';
import { createRenderRun } from './render-run';
import { submitRender } from './render-submit';
import { type VoiceLookups } from './segment-render';

export interface ProjectRendersOptions extends VoiceLookups {
  engine: Engine;
  store: Store;
  events: JobEvents;
  /** The data directory's folder of results; segment audio goes to its `projects/<id>/`. */
  filesDir: string;
  instanceId: string;
  clock: Clock;
  log: Log;
  /** Lease of a running render, ms (default 30 000). */
  leaseMs?: number;
  /** How often to look for queued renders and for leases that ran out, ms (default 2000). */
  pollMs?: number;
  /**
   * The project service: a regeneration with another voice adds its character and assigns the
   * segment through it (undoable edits). Without it the rows are written directly.
   */
  service?: Pick<ProjectService, 'addCharacter' | 'editSegment'> | undefined;
}

/** What to render: some chapters, some segments, or (neither) the whole book's included chapters. */
export interface RenderSelection {
  chapterIds?: readonly string[] | undefined;
  /** Rendered whatever their state (asked explicitly). */
  segmentIds?: readonly string[] | undefined;
}

/** Another voice or prosody for one segment's regeneration. */
export interface RegenerateOptions {
  voice_code?: string | undefined;
  speed_rate?: number | undefined;
  pitch_rate?: number | undefined;
  volume?: number | undefined;
}

export interface ProjectRenders {
  /** Where segment audio lives: `<filesDir>/projects/<project id>/`. */
  readonly filesDir: string;
  /**
   * Charges and queues a render. Rejects with AppError PROJECT_NOT_FOUND, INVALID_FIELD (a chapter
   * or segment not in the project), INSUFFICIENT_CREDITS, UNAUTHORIZED (key revoked), SHUTTING_DOWN.
   */
  submit(projectId: string, keyId: string, selection: RenderSelection): Promise<ProjectRenderRow>;
  get(id: string): Promise<ProjectRenderRow | undefined>;
  list(projectId: string): Promise<ProjectRenderRow[]>;
  /** The wire record, with live progress and time left when it runs here. */
  record(row: ProjectRenderRow): ProjectRenderRecord;
  /** Pauses a queued or running render (a running one at its next segment). */
  pause(id: string): Promise<ProjectRenderRow>;
  resume(id: string): Promise<ProjectRenderRow>;
  /** Cancels a render not finished: its unrendered segments go back to their state, refunded. */
  cancel(id: string): Promise<ProjectRenderRow>;
  /** Resolves with the row once the render is done, failed, cancelled or paused. */
  settled(id: string): Promise<ProjectRenderRow>;
  /**
   * Renders one segment now (with another voice or prosody if asked: see `regenerate` in the
   * docs), charges it, and resolves with the segment as it then is.
   */
  regenerate(
    projectId: string,
    segmentId: string,
    keyId: string,
    options?: RegenerateOptions,
  ): Promise<SegmentRow>;
  /**
   * Renders texts outside the book's segments (a chapter's spoken heading, the credits) with the
   * narrator's voice into the project's folder, as a segment by the narrator is rendered (the same
   * audio key, so a text rendered once is reused). The key is charged for those not rendered yet
   * (refunded if they fail). Resolves with each one's WAV and word timings files, in order.
   */
  speakAsNarrator(projectId: string, keyId: string, texts: readonly string[]): Promise<NarratorSpeech[]>;
  kick(): void;
  /** Requeues interrupted renders and starts running them. */
  start(): Promise<void>;
  /** Stops the running renders (queued again for the next start) and takes no new ones. */
  close(): Promise<void>;
}

/** A text spoken by the narrator (`speakAsNarrator`): its audio and word timings. */
export interface NarratorSpeech {
  text: string;
  wavPath: string;
  timingsPath: string;
  durationMs: number;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_POLL_MS = 2000;

export function createProjectRenders(options: ProjectRendersOptions): ProjectRenders {
  const { store, clock, log, instanceId } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const outcomes = createRenderOutcomes(options, (id) => queue.runs.get(id));
  const { emit } = outcomes;
  /** A cancel or pause asked elsewhere is taken at the next segment (see leased-queue.ts). */
  const queue = createLeasedQueue<ProjectRenderRow, Running>({
    noun: 'project render',
    instanceId,
    clock,
    log,
    leaseMs,
    pollMs,
    exclusive: store.exclusive,
    queue: store.projectRenders,
    requeue: {
      running: () => store.projectRenders.requeueRendering(),
      expired: (now) => store.projectRenders.requeueExpired(now),
    },
    newRun: (row) => ({
      items: itemsOf(row),
      pause: false,
      cancel: row.cancel_requested === 1,
      startedAt: clock.now(),
      charsThisRun: 0,
    }),
    renewal: (entry) => ({
      renew: (lease) => store.projectRenders.renewLease(entry.row.id, lease),
      held: (row) => {
        if (row.cancel_requested) entry.cancel = true;
        if (row.pause_requested) entry.pause = true;
      },
    }),
    begun: (entry) => emit(entry.row, entry.row.key_id, entry.row.project_id, []),
    run: (entry) => run(entry),
  });
  const { runs, worker, recover } = queue;

  const mustGet = async (id: string) => {
    const row = await store.projectRenders.get(id);
    if (!row) throw new AppError('PROJECT_NOT_FOUND', `No render "${id}".`, { part: 'render', id });
    return row;
  };

  const ctx: RenderContext = { ...outcomes, options, leaseMs, pollMs, runs, worker, mustGet };
  const run = createRenderRun(ctx);
  return {
    filesDir: options.filesDir,
    submit: (projectId, keyId, selection) => submitRender(ctx, projectId, keyId, selection),
    get: (id) => store.projectRenders.get(id),
    list: (projectId) => store.projectRenders.list(projectId, 100),
    record: outcomes.record,
    ...createRenderControls(ctx),
    ...createDirectRenders(ctx),
    kick: worker.pump,
    start: () => worker.start(recover, true),
    close: queue.close,
  };
}
