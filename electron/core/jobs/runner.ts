/**
 * The job runner: takes accepted requests from the database in order, renders them with the
 * engine (bounded concurrency), and records SUCCESS or FAILURE with the refund in one
 * transaction. The queue is the `requests` table, so it survives a crash: on start, rows
 * left in `processing` are queued again (the engine writes to a temporary name and renames,
 * so a half-written file is never taken for a finished one).
 */

import type { ModelId } from '../../shared/options';
import type { NeuralVoice } from '../engine/engine';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PARTIAL_SUFFIX } from '../platform/staged-file';
import type { Engine } from '../engine/engine';
import { AppError, isAppError } from '../../shared/errors';
import type { RequestRow, Store } from '../store';
import { isoTime, type Clock } from '../platform/clock';
import type { Log } from '../platform/log';
import type { JobEvents } from './events';
import { createStoreRetry, errorText } from './store-retry';

/**
 * A request whose render was cut off by this many crashes of the process (kill -9, power loss,
 * out of memory) is given up as FAILURE, so one that crashes the app cannot crash it forever.
 * A graceful shutdown (quit, SIGTERM) requeues without counting. 5, not fewer: the fault suite
 * kills the server 20 times in a minute and a half, and an innocent request at the head of the
 * queue can be cut off by several of those in a row.
 */
export const MAX_RUN_ATTEMPTS = 5;

export interface JobFiles {
  /** Directory of the finished files. */
  readonly dir: string;
  audioPath(row: Pick<RequestRow, 'id' | 'audio_type'>): string;
  srtPath(row: Pick<RequestRow, 'id'>): string;
}

export function createJobFiles(dir: string): JobFiles {
  return {
    dir,
    audioPath: (row) => join(dir, `${row.id}.${row.audio_type}`),
    srtPath: (row) => join(dir, `${row.id}.srt`),
  };
}

export interface JobRunner {
  /** Requeues interrupted work and starts taking jobs. */
  start(): void;
  /** Looks for new work now (call after accepting requests). */
  kick(): void;
  /**
   * Cancels a queued or running request: it finishes as FAILURE with error_code CANCELLED and
   * its credits are refunded (its callback, if any, is delivered as for any failure).
   * False when the request had already finished.
   */
  cancel(requestId: string): boolean;
  /** 0–1 for a running request, undefined otherwise. */
  progress(requestId: string): number | undefined;
  /**
   * Hears the audio of an OpenAI request (source `openai`) as it is rendered, from its first
   * sample: the PCM after the volume stage, the samples its file encodes. Undefined when that
   * is no longer possible (its audio has started flowing, or it has finished): read the file.
   * Call the returned function to stop listening.
   */
  listen(requestId: string, listener: AudioListener): (() => void) | undefined;
  /** Number of renders in flight. */
  readonly running: number;
  /** Stops starting new renders (those in flight finish); requests keep queueing. */
  pause(): void;
  /** Starts taking jobs again. */
  resume(): void;
  readonly paused: boolean;
  /**
   * Stops taking jobs, waits up to `graceMs` for renders in flight, then aborts the rest;
   * aborted requests go back to the queue and run after the next start.
   */
  close(graceMs?: number): Promise<void>;
}

export interface JobRunnerOptions {
  engine: Engine;
  store: Store;
  files: JobFiles;
  events: JobEvents;
  clock: Clock;
  log: Log;
  /** Renders in flight at most; default twice the engine's pool so no worker waits. */
  concurrency?: number;
  /** Called when a request reached SUCCESS or FAILURE (its callback is now due). */
  onFinished(row: RequestRow): void;
  /**
   * The neural voice that speaks a voice code with a model now (the voice library); without
   * it, or when it answers undefined, eSpeak speaks.
   */
  neuralVoice?: ((voiceCode: string, modelId: ModelId) => Promise<NeuralVoice | undefined>) | undefined;
  /**
   * First wait before trying the store again after it failed (reading the queue, recording an
   * outcome), ms, doubling up to 30 s (default 1000).
   */
  storeRetryMs?: number;
}

/** Receives a render's audio in order: mono 16-bit PCM at `sampleRate` Hz. */
export type AudioListener = (pcm: Int16Array, sampleRate: number) => void;

/** How a render ended, as recorded on its row. */
interface Outcome {
  status: 'SUCCESS' | 'FAILURE';
  errorCode?: string;
  errorMessage?: string;
  durationMs?: number;
  audioBytes?: number;
  cueCount?: number;
  engine?: string;
}

interface Running {
  keyId: string;
  controller: AbortController;
  done: Promise<void>;
  progress: number;
  lastEmit: number;
  /** Set by cancel(): the abort that follows is the owner's, not a failure or a shutdown. */
  cancelled: boolean;
  /** Set once audio has reached the listeners: a late listener would miss the start. */
  audioStarted: boolean;
}

const CANCELLED_MESSAGE = 'Cancelled before it finished; the credits were refunded.';

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { engine, store, files, events, clock, log, onFinished } = options;
  const concurrency = Math.max(1, options.concurrency ?? engine.poolSize * 2);
  const running = new Map<string, Running>();
  /** Listeners of requests' audio, by request id (registered before or while it renders). */
  const listeners = new Map<string, Set<AudioListener>>();
  let started = false;
  let closing = false;
  let pumping = false;
  let paused = false;
  /**
   * Outcomes the store failed to record, by request id, with the time they happened. Their
   * rows stay `processing` until a later try records them; if the process stops first, the
   * next start requeues them and they render again.
   */
  const unrecorded = new Map<string, { row: RequestRow; outcome: Outcome; at: number }>();
  const storeRetry = createStoreRetry(options.storeRetryMs);
  let retryTimer: NodeJS.Timeout | undefined;

  /** After a store failure: records pending outcomes and looks at the queue again, later. */
  const retryLater = () => {
    if (retryTimer || closing) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (recordPending()) pump();
    }, storeRetry.nextDelay());
  };

  const pump = () => {
    if (!started || closing || pumping || paused) return;
    pumping = true;
    try {
      while (running.size < concurrency) {
        const next = pickFairly(store.requests.oldestQueuedPerKey());
        if (!next) break;
        begin(next);
      }
      if (unrecorded.size === 0) storeRetry.reset();
    } catch (error) {
      // The queue stays in the database; it is read again after a wait.
      log.warn(`runner: could not take the next request from the queue: ${errorText(error)}; trying again`);
      retryLater();
    } finally {
      pumping = false;
    }
  };

  /** Start counter of each key's latest render (for round-robin). */
  const lastServed = new Map<string, number>();
  let starts = 0;

  /**
   * Keys take turns: the next job is the oldest queued request of the key with the fewest
   * renders in flight and, among those, the one served least recently, so one client's
   * flood does not starve another (or the UI).
   */
  const pickFairly = (candidates: RequestRow[]): RequestRow | undefined => {
    if (candidates.length <= 1) return candidates[0];
    const inFlight = new Map<string, number>();
    for (const r of running.values()) inFlight.set(r.keyId, (inFlight.get(r.keyId) ?? 0) + 1);
    const rank = (row: RequestRow) =>
      [inFlight.get(row.key_id) ?? 0, lastServed.get(row.key_id) ?? -1, row.seq] as const;
    let best = candidates[0]!;
    let bestRank = rank(best);
    for (const row of candidates.slice(1)) {
      const r = rank(row);
      if (
        r[0] < bestRank[0] ||
        (r[0] === bestRank[0] && (r[1] < bestRank[1] || (r[1] === bestRank[1] && r[2] < bestRank[2])))
      ) {
        best = row;
        bestRank = r;
      }
    }
    return best;
  };

  const begin = (row: RequestRow) => {
    if (!store.requests.markProcessing(row.id, isoTime(clock.now()))) return;
    lastServed.set(row.key_id, starts++);
    const entry: Running = {
      keyId: row.key_id,
      controller: new AbortController(),
      done: Promise.resolve(),
      progress: 0,
      lastEmit: 0,
      cancelled: false,
      audioStarted: false,
    };
    running.set(row.id, entry);
    events.emit('request', { keyId: row.key_id, request_id: row.id, status: 'processing', progress: 0 });
    entry.done = render(row, entry)
      .catch((error: unknown) => {
        // render() records its own outcomes (see finish); what reaches here is the store
        // failing to requeue a render a shutdown interrupted. The row stays `processing`, and
        // the next start requeues it.
        log.warn(`request ${row.id}: ${errorText(error)}; it runs again after the next start`);
      })
      .finally(() => {
        running.delete(row.id);
        pump();
      });
  };

  const render = async (row: RequestRow, entry: Running): Promise<void> => {
    try {
      // Chosen when the render starts, from what is installed then; a library that cannot be
      // read leaves the request to eSpeak rather than failing it.
      const neuralVoice = await options
        .neuralVoice?.(row.voice_code, row.model_id)
        .catch((error: unknown) => {
          log.warn(`request ${row.id}: voice library unreadable, eSpeak speaks: ${(error as Error).message}`);
          return undefined;
        });
      const result = await engine.render({
        neuralVoice,
        text: row.input_text,
        voice_code: row.voice_code,
        model_id: row.model_id,
        audio_type: row.audio_type,
        bitrate: row.bitrate,
        speed_rate: row.speed_rate,
        pitch_rate: row.pitch_rate,
        volume: row.volume,
        audioPath: files.audioPath(row),
        ...(row.generate_srt ? { srtPath: files.srtPath(row) } : {}),
        signal: entry.controller.signal,
        // Only OpenAI's callers wait on the connection for the audio: others are not streamed.
        ...(row.source === 'openai'
          ? {
              onAudio: (pcm: Int16Array, sampleRate: number) => {
                entry.audioStarted = true;
                for (const listener of listeners.get(row.id) ?? []) listener(pcm, sampleRate);
              },
            }
          : {}),
        onProgress: (fraction) => {
          entry.progress = fraction;
          const now = clock.now();
          // Progress is for people watching: a few updates a second are plenty.
          if (now - entry.lastEmit >= 200) {
            entry.lastEmit = now;
            events.emit('request', {
              keyId: row.key_id,
              request_id: row.id,
              status: 'processing',
              progress: fraction,
            });
          }
        },
      });
      finish(row, {
        status: 'SUCCESS',
        durationMs: Math.round(result.durationMs),
        audioBytes: result.audioBytes,
        cueCount: result.cueCount,
        engine: result.engine,
      });
    } catch (error) {
      if (entry.cancelled) {
        finish(row, { status: 'FAILURE', errorCode: 'CANCELLED', errorMessage: CANCELLED_MESSAGE });
        return;
      }
      if (
        closing &&
        (entry.controller.signal.aborted || (isAppError(error) && error.code === 'SHUTTING_DOWN'))
      ) {
        // Interrupted by shutdown, not failed: it stays queued for the next start.
        store.requests.requeue(row.id);
        return;
      }
      const appError = isAppError(error)
        ? error
        : new AppError('INTERNAL', 'Synthesis failed unexpectedly.', undefined, { cause: error });
      if (!isAppError(error)) log.warn(`request ${row.id}: ${(error as Error)?.stack ?? String(error)}`);
      finish(row, { status: 'FAILURE', errorCode: appError.code, errorMessage: appError.message });
    }
  };

  /**
   * Records a render's outcome (with the refund of a failure) and announces it. Never throws:
   * when the store fails, the outcome waits in `unrecorded` and is recorded by a later try.
   */
  const finish = (row: RequestRow, outcome: Outcome) => {
    const at = clock.now();
    let stored: RequestRow | undefined;
    try {
      stored = record(row, outcome, at);
    } catch (error) {
      log.warn(
        `request ${row.id}: could not record ${outcome.status}: ${errorText(error)}; it stays processing and is recorded when the store works again`,
      );
      unrecorded.set(row.id, { row, outcome, at });
      retryLater();
      return;
    }
    if (stored) announce(row, outcome, stored);
  };

  /** The outcome in one transaction; the stored row, or undefined when it was not processing. */
  const record = (row: RequestRow, outcome: Outcome, at: number): RequestRow | undefined =>
    store.transaction(() => {
      const ok = store.requests.finish(row.id, { ...outcome, finishedAt: isoTime(at), callbackDueAt: at });
      if (!ok) return undefined;
      store.keys.addQueued(row.key_id, -1);
      if (outcome.status === 'FAILURE' && row.cost_milli > 0) {
        const balance = store.keys.addBalance(row.key_id, row.cost_milli);
        store.ledger.insert({
          key_id: row.key_id,
          request_id: row.id,
          kind: 'refund',
          amount_milli: row.cost_milli,
          balance_after_milli: balance,
          created_at: isoTime(at),
        });
      }
      return store.requests.get(row.id);
    });

  const announce = (row: RequestRow, outcome: Outcome, stored: RequestRow) => {
    events.emit('request', { keyId: row.key_id, request_id: row.id, status: outcome.status, progress: 1 });
    events.emit('finished', { requestId: row.id, keyId: row.key_id });
    onFinished(stored);
  };

  /** Records the outcomes the store failed to take earlier; false while it still fails. */
  const recordPending = (): boolean => {
    for (const [id, pending] of unrecorded) {
      let stored: RequestRow | undefined;
      try {
        stored = record(pending.row, pending.outcome, pending.at);
      } catch (error) {
        log.warn(
          `runner: ${unrecorded.size} outcome(s) still not recorded (request ${id} first): ${errorText(error)}`,
        );
        retryLater();
        return false;
      }
      unrecorded.delete(id);
      if (stored) announce(pending.row, pending.outcome, stored);
    }
    return true;
  };

  /** Rows that were processing when the last run died: requeue, or give up on repeat offenders. */
  const recover = () => {
    const requeued = store.requests.requeueProcessing();
    if (requeued > 0) log.info(`requeued ${requeued} interrupted request(s)`);
    for (const row of store.requests.exhausted(MAX_RUN_ATTEMPTS)) {
      store.requests.markProcessing(row.id, isoTime(clock.now()));
      finish(row, {
        status: 'FAILURE',
        errorCode: 'ENGINE_FAILED',
        errorMessage: `Synthesis was interrupted ${row.run_attempts} times; given up.`,
      });
    }
  };

  return {
    start() {
      if (started) return;
      mkdirSync(files.dir, { recursive: true });
      // Half-written files of renders a crash interrupted; those requests run again.
      for (const name of readdirSync(files.dir)) {
        if (name.endsWith(PARTIAL_SUFFIX)) rmSync(join(files.dir, name), { force: true });
      }
      recover();
      started = true;
      pump();
    },
    kick: pump,
    cancel(requestId) {
      const entry = running.get(requestId);
      if (entry) {
        if (entry.cancelled) return true;
        entry.cancelled = true;
        entry.controller.abort(new AppError('CANCELLED', CANCELLED_MESSAGE));
        return true;
      }
      const row = store.requests.get(requestId);
      if (!row || row.status !== 'new') return false;
      // Queued: claim it as the runner would, then finish it without rendering.
      if (!store.requests.markProcessing(row.id, isoTime(clock.now()))) return false;
      finish(row, { status: 'FAILURE', errorCode: 'CANCELLED', errorMessage: CANCELLED_MESSAGE });
      return true;
    },
    progress: (id) => running.get(id)?.progress,
    listen(requestId, listener) {
      const entry = running.get(requestId);
      if (entry ? entry.audioStarted : store.requests.get(requestId)?.status !== 'new') return undefined;
      let set = listeners.get(requestId);
      if (!set) listeners.set(requestId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(requestId) === set) listeners.delete(requestId);
      };
    },
    get running() {
      return running.size;
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      pump();
    },
    get paused() {
      return paused;
    },
    async close(graceMs = 10_000) {
      closing = true;
      clearTimeout(retryTimer);
      retryTimer = undefined;
      const all = () => Promise.all([...running.values()].map((r) => r.done));
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        all().then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), graceMs);
        }),
      ]);
      clearTimeout(timer);
      if (timedOut) {
        for (const r of running.values())
          r.controller.abort(new AppError('SHUTTING_DOWN', 'The server is shutting down.'));
        await all();
      }
      // A last try; what is still not recorded is rendered again after the next start.
      if (unrecorded.size > 0 && !recordPending()) {
        log.warn(
          `runner: ${unrecorded.size} finished request(s) could not be recorded and stay processing; they run again after the next start`,
        );
      }
    },
  };
}
