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

import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, isAppError } from '../../shared/errors';
import { projectNotFound } from './project-rows';
import type { ModelId } from '../../shared/options';
import { costMilli } from '../../shared/pricing';
import { PROJECT_LIMITS, type ProjectRenderRecord, type SegmentState } from '../../shared/projects';
import { cleanText } from '../../shared/text';
import { findVoice } from '../../shared/voices';
import type { Engine } from '../engine';
import { isoTime, type Clock } from '../platform/clock';
import type { Log } from '../platform/log';
import type {
  CharacterRow,
  ProjectRenderRow,
  RenderFinish,
  RenderItem,
  Repos,
  SegmentRow,
  Store,
} from '../store';
import {
  chargeCredits,
  createLeasedWorker,
  errorText,
  lockKeyToCharge,
  type JobEvents,
  type LeasedRun,
  newLeasedRun,
  refundCredits,
  SPARE_RUNS,
} from '../jobs';
import type { ProjectService } from './project-service';
import {
  audioPathOf,
  hasAudio,
  prepareSegment,
  renderSegment,
  timingsPathOf,
  segmentInput,
  type CastVoice,
  effectiveVoice,
  type VoiceLookups,
} from './segment-render';
import type { CustomVoice } from '../../shared/custom-voices';
import { fromCustomVoiceRow, keyAccess, maySpeakWith } from '../voices';
import { redactPaths } from '../platform/redact-paths';
import { storedDetails, storedErrorDetails } from '../platform/error-details';

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
const FINISHED = new Set(['done', 'failed', 'cancelled']);

interface Running extends LeasedRun {
  row: ProjectRenderRow;
  items: RenderItem[];
  pause: boolean;
  cancel: boolean;
  /** Throughput of this run: when it started and the characters rendered since. */
  startedAt: number;
  charsThisRun: number;
}

const newRenderId = () => randomBytes(16).toString('hex');

/** A segment's billable characters: the code points of its cleaned text, as a request's. */
const billableCharacters = (text: string) => Array.from(cleanText(text)).length;

/** What a failed segment keeps of its error: the English message, the code and the particulars. */
function segmentFailure(error: unknown): { error: string; error_code: string; error_details: string | null } {
  return isAppError(error)
    ? { error: error.message, error_code: error.code, error_details: storedErrorDetails(error) }
    : { error: String(error), error_code: 'INTERNAL', error_details: null };
}

export function createProjectRenders(options: ProjectRendersOptions): ProjectRenders {
  const { engine, store, events, clock, log, instanceId } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  /** The renders running here, by id: one, and beside it the first of a key with none (SPARE_RUNS). */
  const runs = new Map<string, Running>();
  const waiters = new Map<string, ((row: ProjectRenderRow) => void)[]>();

  const itemsOf = (row: ProjectRenderRow): RenderItem[] =>
    row.segment_ids ? (JSON.parse(row.segment_ids) as RenderItem[]) : [];

  const record = (row: ProjectRenderRow): ProjectRenderRecord => {
    const live = runs.get(row.id);
    const items = live ? live.items : itemsOf(row);
    const chapterIds = JSON.parse(row.chapter_ids) as string[];
    const perChapter = new Map<string, { total: number; done: number }>(
      chapterIds.map((c) => [c, { total: 0, done: 0 }]),
    );
    let total = 0;
    let done = 0;
    let spent = 0;
    for (const item of items) {
      const c = perChapter.get(item.chapter_id) ?? { total: 0, done: 0 };
      perChapter.set(item.chapter_id, c);
      c.total += item.characters;
      total += item.characters;
      if (item.done) {
        c.done += item.characters;
        done += item.characters;
        spent += item.cost_milli;
      }
    }
    let eta: number | null = null;
    if (live && live.charsThisRun > 0) {
      const seconds = (clock.now() - live.startedAt) / 1000;
      if (seconds > 0) eta = Math.round(((total - done) / (live.charsThisRun / seconds)) * 10) / 10;
    } else if (row.status === 'done') eta = 0;
    return {
      id: row.id,
      project_id: row.project_id,
      status: row.status,
      chapter_ids: chapterIds,
      segments_total: row.segments_total,
      segments_done: items.filter((i) => i.done).length,
      progress: total > 0 ? done / total : FINISHED.has(row.status) ? 1 : 0,
      chapters: [...perChapter].map(([chapter_id, c]) => ({
        chapter_id,
        progress: c.total > 0 ? c.done / c.total : 1,
      })),
      eta_seconds: eta,
      cost: (FINISHED.has(row.status) ? spent : row.cost_milli) / 1000,
      error_code: row.error_code,
      error_message: row.error_message === null ? null : redactPaths(row.error_message),
      ...storedDetails(row.error_details),
      created_at: row.created_at,
      finished_at: row.finished_at,
    };
  };

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

  /** Keeps the lease; a cancel or pause asked elsewhere is taken at the next segment. */
  const renew = (entry: Running) =>
    worker.keepLease(entry, {
      renew: (lease) => store.projectRenders.renewLease(entry.row.id, lease),
      wanted: () => runs.get(entry.row.id) === entry,
      held: (row) => {
        if (row.cancel_requested) entry.cancel = true;
        if (row.pause_requested) entry.pause = true;
      },
      failed: (error) =>
        log.warn(`project render ${entry.row.id}: could not renew its lease: ${errorText(error)}`),
    });

  /**
   * The custom voice `code` names as defined now, when the project's key may speak with it (its
   * own or the studio's): another key's voice, even one made under a code the cast named once,
   * does not exist for the project.
   */
  const customVoiceOf = async (projectKeyId: string | undefined, code: string) => {
    const found = await store.customVoices.get(code);
    return found && projectKeyId !== undefined && maySpeakWith(found.owner_key_id, keyAccess(projectKeyId))
      ? fromCustomVoiceRow(found)
      : undefined;
  };

  const castOf = async (projectId: string) => {
    const rows = await store.projects.characters(projectId);
    const keyId = (await store.projects.getProject(projectId))?.key_id;
    const cast = new Map<string, CharacterRow>(rows.map((c) => [c.id, c]));
    const narrator = rows.find((c) => c.narrator === 1) ?? rows[0];
    // The custom voices the cast names, as defined now (a project renders with today's voices).
    const customVoices = new Map<string, CustomVoice>();
    for (const code of new Set(rows.map((c) => c.voice_code))) {
      if (findVoice(code)) continue;
      const found = await customVoiceOf(keyId, code);
      if (found) customVoices.set(code, found);
    }
    return { cast, narrator, customVoices };
  };

  /** Renders one segment row with the project's cast; writes its audio columns. */
  const renderOne = async (
    segment: SegmentRow,
    context: { projectId: string; modelId: ModelId },
    cast: Map<string, CharacterRow>,
    narrator: CastVoice,
    signal: AbortSignal | undefined,
    customVoices: ReadonlyMap<string, CustomVoice>,
  ) => {
    const prepared = await prepareSegment(
      segmentInput({ segment, cast, narrator, model_id: context.modelId, customVoices }),
      options,
    );
    await mkdir(join(options.filesDir, 'projects', context.projectId), { recursive: true });
    return renderSegment(engine, prepared, {
      filesDir: options.filesDir,
      projectId: context.projectId,
      text: segment.text,
      signal,
    });
  };

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
    let failures = 0;
    let lastError = '';
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
    /** Renders one item; throws only when the render is aborted. */
    const renderItem = async (item: (typeof entry.items)[number]) => {
      const segment = await store.projects.getSegment(item.id);
      if (!segment) return;
      await store.projectRenders.setSegmentAudio(item.id, { state: 'rendering', error: null });
      emit(row, row.key_id, row.project_id, [{ id: item.id, state: 'rendering' }]);
      const { cast, narrator, customVoices } = await castOf(row.project_id);
      if (!narrator) throw new AppError('PROJECT_CONFLICT', 'The project has no narrator.');
      try {
        const result = await renderOne(
          segment,
          { projectId: row.project_id, modelId: project.model_id },
          cast,
          narrator,
          entry.controller.signal,
          customVoices,
        );
        item.done = true;
        entry.charsThisRun += item.characters;
        // Edited while it rendered: the audio is of the old words, so the edit's state stands.
        const now = await store.projects.getSegment(item.id);
        if (
          !now ||
          now.text !== segment.text ||
          now.speaker !== segment.speaker ||
          now.quotes !== segment.quotes
        )
          return;
        await store.projectRenders.setSegmentAudio(item.id, {
          state: 'done',
          audio_key: result.audioKey,
          duration_ms: result.durationMs,
          error: null,
          checks: result.checks.length > 0 ? JSON.stringify(result.checks) : null,
          rendered_at: isoTime(clock.now()),
        });
        emit(row, row.key_id, row.project_id, [{ id: item.id, state: 'done' }]);
      } catch (error) {
        if (entry.controller.signal.aborted) throw error;
        failures++;
        const failure = segmentFailure(error);
        lastError = failure.error;
        if (!isAppError(error))
          log.warn(
            `project render ${row.id}: segment ${item.id}: ${(error as Error)?.stack ?? String(error)}`,
          );
        await store.projectRenders.setSegmentAudio(item.id, { state: 'failed', ...failure });
        emit(row, row.key_id, row.project_id, [{ id: item.id, state: 'failed' }]);
      }
    };
    try {
      // As many segments at once as the engine has workers: each is short, so one at a time
      // would leave all but one of them idle.
      const pending = entry.items.filter((i) => !i.done);
      let next = 0;
      const lane = async () => {
        while (next < pending.length) {
          if (entry.cancel || entry.pause || worker.closing || entry.leaseLost) return;
          await renderItem(pending[next++]!);
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
      failures > 0
        ? {
            status: 'failed',
            errorCode: 'ENGINE_FAILED',
            errorMessage: `${failures} segment(s) failed; the last: ${lastError}`,
            errorDetails: JSON.stringify({ segments_failed: failures }),
          }
        : { status: 'done' },
      true,
    );
  };

  const begin = (row: ProjectRenderRow) => {
    const entry: Running = {
      ...newLeasedRun(),
      row,
      items: itemsOf(row),
      pause: false,
      cancel: row.cancel_requested === 1,
      startedAt: clock.now(),
      charsThisRun: 0,
    };
    runs.set(row.id, entry);
    renew(entry);
    emit(row, row.key_id, row.project_id, []);
    worker.track(entry, () => run(entry), {
      failed: (error) =>
        log.warn(`project render ${row.id}: ${errorText(error)}; it runs again after the next start`),
      ended: () => runs.delete(row.id),
    });
  };

  const recover = async () => {
    const n = store.exclusive
      ? await store.projectRenders.requeueRendering()
      : await store.projectRenders.requeueExpired(clock.now());
    if (n > 0) log.info(`requeued ${n} interrupted project render(s)`);
  };

  /**
   * One render at a time (its segments run in parallel lanes), and beside it the first render of
   * a key with none running (a key's whole book does not hold another key's up): a look while
   * they run waits for one to end.
   */
  const worker = createLeasedWorker({
    instanceId,
    clock,
    leaseMs,
    pollMs,
    full: () => runs.size > SPARE_RUNS,
    claim: () =>
      worker.claimFairly(store.projectRenders, () => [...runs.values()].map((r) => r.row.key_id), begin),
    claimFailed: (error) =>
      log.warn(`project renders: could not take the next render: ${errorText(error)}; trying again`),
    onPoll: async () => {
      if (!store.exclusive) await recover();
    },
    pollFailed: (error) =>
      log.warn(`project renders: could not look for renders to take over: ${errorText(error)}`),
  });
  const { pump } = worker;

  const mustGet = async (id: string) => {
    const row = await store.projectRenders.get(id);
    if (!row) throw new AppError('PROJECT_NOT_FOUND', `No render "${id}".`, { part: 'render', id });
    return row;
  };

  /** Charges `cost` to the key in `tx` (with its ledger entry) after checking the balance. */
  const charge = async (tx: Repos, keyId: string, jobId: string, cost: number, at: string) => {
    const key = await lockKeyToCharge(tx, keyId);
    await chargeCredits(tx, key, jobId, cost, 'render', at, { skipFree: true });
  };

  const priceOf = (
    segment: SegmentRow,
    cast: Map<string, CharacterRow>,
    narrator: CharacterRow,
    modelId: ModelId,
    customVoices: ReadonlyMap<string, CustomVoice>,
  ) => {
    const speaker = (segment.speaker ? cast.get(segment.speaker) : undefined) ?? narrator;
    // A custom voice is priced as its voice_code.
    const voice = findVoice(effectiveVoice(speaker, customVoices).voice_code);
    if (!voice)
      throw new AppError('UNKNOWN_VOICE', `Unknown voice_code "${speaker.voice_code}".`, {
        voice_code: speaker.voice_code,
      });
    const characters = billableCharacters(segment.text);
    return { characters, cost: costMilli(characters, voice, modelId) };
  };

  return {
    filesDir: options.filesDir,
    async submit(projectId, keyId, selection) {
      if (worker.closing) throw new AppError('SHUTTING_DOWN', 'The server is shutting down.');
      const project = await store.projects.getProject(projectId);
      if (!project) throw projectNotFound(projectId);
      const chapters = await store.projects.chapters(projectId);
      const chapterIds = new Set(chapters.map((c) => c.id));
      for (const id of selection.chapterIds ?? []) {
        if (!chapterIds.has(id))
          throw new AppError('INVALID_FIELD', `No chapter "${id}" in this project.`, {
            field: 'chapter_ids',
          });
      }
      const all = await store.projects.segments(projectId);
      const order = new Map(chapters.map((c) => [c.id, c.position]));
      all.sort((a, b) => order.get(a.chapter_id)! - order.get(b.chapter_id)! || a.position - b.position);
      const byId = new Map(all.map((s) => [s.id, s]));
      for (const id of selection.segmentIds ?? []) {
        if (!byId.has(id))
          throw new AppError('INVALID_FIELD', `No segment "${id}" in this project.`, {
            field: 'segment_ids',
          });
      }
      let chosen: SegmentRow[];
      let renderChapters: string[];
      if (selection.segmentIds && selection.segmentIds.length > 0) {
        const wanted = new Set(selection.segmentIds);
        chosen = all.filter((s) => wanted.has(s.id) && s.state !== 'queued' && s.state !== 'rendering');
        renderChapters = [...new Set(chosen.map((s) => s.chapter_id))];
      } else {
        renderChapters =
          selection.chapterIds && selection.chapterIds.length > 0
            ? chapters.filter((c) => selection.chapterIds!.includes(c.id)).map((c) => c.id)
            : chapters.filter((c) => c.included === 1).map((c) => c.id);
        const inChapters = new Set(renderChapters);
        chosen = all.filter(
          (s) =>
            inChapters.has(s.chapter_id) &&
            (s.state === 'not_rendered' || s.state === 'changed' || s.state === 'failed'),
        );
      }
      const { cast, narrator, customVoices } = await castOf(projectId);
      if (!narrator) throw new AppError('PROJECT_CONFLICT', 'The project has no narrator.');
      const items: RenderItem[] = chosen.map((s) => {
        const { characters, cost } = priceOf(s, cast, narrator, project.model_id, customVoices);
        return { id: s.id, chapter_id: s.chapter_id, characters, cost_milli: cost, done: false };
      });
      const cost = items.reduce((n, i) => n + i.cost_milli, 0);
      const id = newRenderId();
      const now = isoTime(clock.now());
      await store.transaction(async (tx) => {
        await charge(tx, keyId, id, cost, now);
        await tx.projectRenders.insert({
          id,
          project_id: projectId,
          key_id: keyId,
          chapter_ids: JSON.stringify(renderChapters),
          segment_ids: JSON.stringify(items),
          segments_total: items.length,
          characters_total: items.reduce((n, i) => n + i.characters, 0),
          cost_milli: cost,
          created_at: now,
        });
        await tx.projectRenders.setSegmentStates(
          items.map((i) => i.id),
          'queued',
        );
      });
      let row = (await store.projectRenders.get(id))!;
      if (items.length === 0) {
        await finishRender(row, items, { status: 'done' }, false);
        row = (await store.projectRenders.get(id))!;
      } else {
        emit(
          row,
          keyId,
          projectId,
          items.map((i) => ({ id: i.id, state: 'queued' as const })),
        );
        pump();
      }
      return row;
    },
    get: (id) => store.projectRenders.get(id),
    list: (projectId) => store.projectRenders.list(projectId, 100),
    record,
    async pause(id) {
      const row = await mustGet(id);
      const live = runs.get(id);
      if (live) {
        live.pause = true;
        await live.done;
      } else if (row.status === 'queued') {
        if (!(await store.projectRenders.pauseQueued(id))) return this.pause(id);
        emit(await mustGet(id), row.key_id, row.project_id, []);
      } else if (row.status === 'rendering') {
        // Claimed here a moment ago (begun once that claim settles), or running on another instance.
        await worker.claimSettled();
        if (runs.has(id)) return this.pause(id);
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
      pump();
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
        return this.cancel(id);
      }
      // Running on another instance: its owner sees the request when it renews its lease.
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
    async regenerate(projectId, segmentId, keyId, overrides = {}) {
      if (worker.closing) throw new AppError('SHUTTING_DOWN', 'The server is shutting down.');
      const project = await store.projects.getProject(projectId);
      const segment = await store.projects.getSegment(segmentId);
      if (!project || !segment || segment.project_id !== projectId) {
        throw new AppError('PROJECT_NOT_FOUND', `No segment "${segmentId}" in project "${projectId}".`, {
          part: 'segment',
          id: segmentId,
        });
      }
      let { cast, narrator, customVoices } = await castOf(projectId);
      if (!narrator) throw new AppError('PROJECT_CONFLICT', 'The project has no narrator.');
      const speaker = (segment.speaker ? cast.get(segment.speaker) : undefined) ?? narrator;
      let target = segment;
      const wanted = {
        voice_code: overrides.voice_code ?? speaker.voice_code,
        speed_rate: overrides.speed_rate ?? speaker.speed_rate,
        pitch_rate: overrides.pitch_rate ?? speaker.pitch_rate,
        volume: overrides.volume ?? speaker.volume,
      };
      const wantedCustom =
        customVoices.get(wanted.voice_code) ??
        (findVoice(wanted.voice_code) ? undefined : await customVoiceOf(project.key_id, wanted.voice_code));
      if (!findVoice(wanted.voice_code) && !wantedCustom)
        throw new AppError('UNKNOWN_VOICE', `Unknown voice_code "${wanted.voice_code}".`, {
          field: 'voice_code',
          voice_code: wanted.voice_code,
        });
      const differs = (c: CastVoice) =>
        c.voice_code !== wanted.voice_code ||
        c.speed_rate !== wanted.speed_rate ||
        c.pitch_rate !== wanted.pitch_rate ||
        c.volume !== wanted.volume;
      if (differs(speaker)) {
        // Another voice for this segment: a character with exactly that voice speaks it (reused
        // when the cast has one, else added as "<speaker> (voice)"), so the choice is kept.
        const existing = [...cast.values()].find((c) => !differs(c) && c.narrator === 0);
        const name = `${speaker.name} (${wantedCustom?.name ?? findVoice(wanted.voice_code)!.name})`;
        if (options.service) {
          const characterId =
            existing?.id ?? (await options.service.addCharacter(keyId, projectId, { name, ...wanted })).id;
          await options.service.editSegment(keyId, projectId, segmentId, { speaker: characterId });
          target = (await store.projects.getSegment(segmentId))!;
        } else {
          const character = existing ?? {
            id: randomBytes(16).toString('hex'),
            project_id: projectId,
            name,
            ...wanted,
            narrator: 0,
            confirmed: 1,
          };
          if (!existing) await store.projects.putCharacters([character]);
          target = { ...segment, speaker: character.id };
          await store.projects.putSegments([target]);
        }
        ({ cast, narrator, customVoices } = await castOf(projectId));
      }
      const { cost } = priceOf(target, cast, narrator!, project.model_id, customVoices);
      const jobId = newRenderId();
      const at = isoTime(clock.now());
      await store.transaction((tx) => charge(tx, keyId, jobId, cost, at));
      await store.projectRenders.setSegmentAudio(segmentId, { state: 'rendering', error: null });
      emit(undefined, keyId, projectId, [{ id: segmentId, state: 'rendering' }]);
      try {
        const result = await renderOne(
          target,
          { projectId, modelId: project.model_id },
          cast,
          narrator!,
          undefined,
          customVoices,
        );
        await store.projectRenders.setSegmentAudio(segmentId, {
          state: 'done',
          audio_key: result.audioKey,
          duration_ms: result.durationMs,
          error: null,
          checks: result.checks.length > 0 ? JSON.stringify(result.checks) : null,
          rendered_at: isoTime(clock.now()),
        });
        emit(undefined, keyId, projectId, [{ id: segmentId, state: 'done' }]);
      } catch (error) {
        await store.transaction(async (tx) => {
          await tx.projectRenders.setSegmentAudio(segmentId, { state: 'failed', ...segmentFailure(error) });
          await refundCredits(tx, { id: jobId, key_id: keyId }, cost, isoTime(clock.now()));
        });
        emit(undefined, keyId, projectId, [{ id: segmentId, state: 'failed' }]);
        throw error;
      }
      return (await store.projects.getSegment(segmentId))!;
    },
    async speakAsNarrator(projectId, keyId, texts) {
      const project = await store.projects.getProject(projectId);
      if (!project) throw projectNotFound(projectId);
      const { cast, narrator, customVoices } = await castOf(projectId);
      if (!narrator) throw new AppError('PROJECT_CONFLICT', 'The project has no narrator.');
      const rows = texts.map(
        (text): SegmentRow =>
          ({ text, speaker: null, quotes: null, emphasis: null }) as unknown as SegmentRow,
      );
      const prepared = await Promise.all(
        rows.map((segment) =>
          prepareSegment(
            segmentInput({ segment, cast, narrator, model_id: project.model_id, customVoices }),
            options,
          ),
        ),
      );
      const fresh = await Promise.all(
        prepared.map(async (p) => !(await hasAudio(options.filesDir, projectId, p.audioKey))),
      );
      const cost = rows
        .filter((_, i) => fresh[i])
        .reduce((n, row) => n + priceOf(row, cast, narrator, project.model_id, customVoices).cost, 0);
      const jobId = newRenderId();
      await store.transaction((tx) => charge(tx, keyId, jobId, cost, isoTime(clock.now())));
      await mkdir(join(options.filesDir, 'projects', projectId), { recursive: true });
      try {
        const spoken: NarratorSpeech[] = [];
        for (const [i, p] of prepared.entries()) {
          const result = await renderSegment(engine, p, {
            filesDir: options.filesDir,
            projectId,
            text: texts[i]!,
          });
          spoken.push({
            text: texts[i]!,
            wavPath: audioPathOf(options.filesDir, projectId, p.audioKey),
            timingsPath: timingsPathOf(options.filesDir, projectId, p.audioKey),
            durationMs: result.durationMs,
          });
        }
        return spoken;
      } catch (error) {
        await store.transaction((tx) =>
          refundCredits(tx, { id: jobId, key_id: keyId }, cost, isoTime(clock.now())),
        );
        throw error;
      }
    },
    kick: pump,
    start: () => worker.start(recover, true),
    close: () => worker.close(() => runs.values()),
  };
}
