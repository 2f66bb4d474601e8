/**
 * The job runner: claims accepted requests from the database in order, renders them with the
 * engine (bounded concurrency; request-rendering.ts), and records SUCCESS or FAILURE with the
 * refund in one transaction (request-outcomes.ts). The queue is the `requests` table, so it
 * survives a crash. Each claim is a lease, renewed while the request renders: on SQLite (one
 * process) the rows left `processing` are queued again at start; on a database several
 * instances share, another instance takes over a request whose lease ran out (its instance
 * died), and start-up touches nothing of the others. The engine writes to a temporary name and
 * renames, so a half-written file is never taken for a finished one.
 */

import type { ModelId } from '../../shared/options';
import type { Engine, LexiconRule, NeuralVoice } from '../engine';
import type { LanguageCode } from '../../shared/voices';
import { AppError } from '../../shared/errors';
import type { RequestRow, Store } from '../store';
import { isoTime, type Clock } from '../platform/clock';
import type { Log } from '../platform/log';
import type { JobEvents } from './events';
import { createLeasedWorker, newLeasedRun, type LeasedRun } from './leased-worker';
import type { ResultFiles } from './result-files';
import { errorText } from './store-retry';
import { CANCELLED, createOutcomeRecorder, outcomeOfError, type Outcome } from './request-outcomes';
import { createRecovery } from './request-recovery';
import { createRequestClaims } from './request-claims';
import { createAudioListeners } from './request-audio';
import {
  renderClaimedRequest,
  type AudioListener,
  type RenderingState,
  type RequestRenderingContext,
} from './request-rendering';

/**
 * A request whose render was cut off by this many crashes of the process (kill -9, power loss,
 * out of memory) is given up as FAILURE, so one that crashes the app cannot crash it forever.
 * A graceful shutdown (quit, SIGTERM) requeues without counting. 5, not fewer: the fault suite
 * kills the server 20 times in a minute and a half, and an innocent request at the head of the
 * queue can be cut off by several of those in a row.
 */
export const MAX_RUN_ATTEMPTS = 5;

export interface JobRunner {
  /** Requeues interrupted work and starts taking jobs. */
  start(): Promise<void>;
  /** Looks for new work now (call after accepting requests). */
  kick(): void;
  /**
   * Cancels a queued or running request: it finishes as FAILURE with error_code CANCELLED and
   * its credits are refunded (its callback, if any, is delivered as for any failure).
   * False when the request had already finished, or runs on another instance.
   */
  cancel(requestId: string): Promise<boolean>;
  /** True when this instance renders the request now. */
  isRunning(requestId: string): boolean;
  /** 0–1 for a running request, undefined otherwise. */
  progress(requestId: string): number | undefined;
  /**
   * Hears the audio of an OpenAI request (source `openai`) as it is rendered, from its first
   * sample: the PCM after the volume stage, the samples its file encodes. Undefined when that
   * is no longer possible (its audio has started flowing, or it has finished): read the file.
   * Call the returned function to stop listening.
   */
  listen(requestId: string, listener: AudioListener): Promise<(() => void) | undefined>;
  /** Number of renders in flight. */
  readonly running: number;
  /** Ids of the requests this instance renders now. */
  runningIds(): string[];
  /**
   * Claims this request before any other when it is free (call after accepting a request
   * whose caller waits on this instance's connection for its audio).
   */
  prefer(requestId: string): void;
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
  files: ResultFiles;
  /** This instance's id: its leases carry it. */
  instanceId: string;
  /**
   * How long a claim holds without renewal, ms (default 30 000); renewed every third of it
   * while rendering. Another instance takes over a request whose lease ran out.
   */
  leaseMs?: number;
  /**
   * On a shared database, how often to look for work and for leases that ran out, ms
   * (default 2000): the safety net under the notifications that wake an idle instance.
   */
  pollMs?: number;
  events: JobEvents;
  clock: Clock;
  log: Log;
  /**
   * Shared render slots: renders in flight at most, besides the first render of a key holding
   * none (up to as many again, one per key: fair-ranking.ts); default twice the engine's pool so
   * no worker waits.
   */
  concurrency?: number;
  /** Called when a request reached SUCCESS or FAILURE (its callback is now due). */
  onFinished(row: RequestRow): void;
  /**
   * The neural voice that speaks a voice code with a model now (the voice library); without
   * it, or when it answers undefined, eSpeak speaks.
   */
  neuralVoice?: ((voiceCode: string, modelId: ModelId) => Promise<NeuralVoice | undefined>) | undefined;
  /**
   * The Kokoro voice or mix a request named (RequestRow.kokoro_voice) as an installed Kokoro
   * pack speaks it; undefined when none holds it (its voice code speaks then).
   */
  kokoroVoice?: ((kokoroVoice: string) => Promise<NeuralVoice | undefined>) | undefined;
  /**
   * One speaker of an installed pack (VoiceLibrary.packVoice), for a custom voice's pack base;
   * undefined when not installed (the custom voice's voice_code speaks then).
   */
  packVoice?: ((packId: string, speaker: string | undefined) => Promise<NeuralVoice | undefined>) | undefined;
  /** The pronunciation lexicon's entries of a language (LexiconStore.entriesFor; never rejects). */
  lexicon?: ((language: LanguageCode) => Promise<readonly LexiconRule[]>) | undefined;
  /**
   * First wait before trying the store again after it failed (reading the queue, recording an
   * outcome), ms, doubling up to 30 s (default 1000).
   */
  storeRetryMs?: number;
}

interface Running extends LeasedRun, RenderingState {
  keyId: string;
  /** Set by cancel(): the abort that follows is the owner's, not a failure or a shutdown. */
  cancelled: boolean;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_POLL_MS = 2000;

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { engine, store, files, events, clock, log, instanceId } = options;
  const concurrency = Math.max(1, options.concurrency ?? engine.poolSize * 2);
  const running = new Map<string, Running>();
  let paused = false;
  const outcomes = createOutcomeRecorder({
    ...options,
    closing: () => worker.closing,
    pump: () => pump(),
  });
  const { finish } = outcomes;

  const audio = createAudioListeners({
    running: (id) => running.get(id),
    status: async (id) => (await store.requests.get(id))?.status,
    settled: () => claims.settled(),
  });
  const claims = createRequestClaims({
    store,
    clock,
    concurrency,
    inFlight: () => [...running.values()].map((r) => r.keyId),
    mayClaim: () => !worker.closing && !paused,
    lease: () => lease(),
    begin: (row) => begin(row),
  });

  const worker = createLeasedWorker({
    instanceId,
    clock,
    leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
    pollMs: options.pollMs ?? DEFAULT_POLL_MS,
    mayClaim: () => !paused,
    claim: claims.claimWhatFits,
    looked: outcomes.looked,
    claimFailed: (error) => {
      // The queue stays in the database; it is read again after a wait.
      log.warn(`runner: could not take the next request from the queue: ${errorText(error)}; trying again`);
      outcomes.retryLater();
    },
    onPoll: () => recovery.onPoll(),
    pollFailed: (error) => log.warn(`runner: could not look for requests to take over: ${errorText(error)}`),
  });
  const { lease } = worker;
  const recovery = createRecovery({ ...options, lease, finish, maxRunAttempts: MAX_RUN_ATTEMPTS });
  /** Looks for work and claims what fits; never rejects (a store failure retries later). */
  const pump = worker.pump;

  /** Keeps the lease of a render; a lease found gone stops the render (another instance has it). */
  const renew = (row: RequestRow, entry: Running) =>
    worker.keepLease(entry, {
      renew: (lease) => store.requests.renewLease(row.id, lease),
      // Kept while rendering, and while an outcome waits to be recorded (until a stop,
      // after which another instance may take the request over).
      wanted: () => running.has(row.id) || (!worker.closing && outcomes.isPending(row.id)),
      lost: () =>
        log.warn(`request ${row.id}: its lease ran out and another instance took it over; this render stops`),
      failed: (error) => log.warn(`request ${row.id}: could not renew its lease: ${errorText(error)}`),
    });

  /** Starts rendering a request this instance has just claimed. */
  const begin = (row: RequestRow) => {
    claims.started(row.key_id);
    const entry: Running = {
      ...newLeasedRun(),
      keyId: row.key_id,
      progress: 0,
      lastEmit: 0,
      cancelled: false,
      audioStarted: false,
    };
    running.set(row.id, entry);
    renew(row, entry);
    events.emit('request', { keyId: row.key_id, request_id: row.id, status: 'processing', progress: 0 });
    worker.track(entry, () => render(row, entry), {
      // render() records its own outcomes (see finish); what reaches here is the store
      // failing to requeue a render a shutdown interrupted. The row stays `processing`, and
      // the next start requeues it.
      failed: (error) =>
        log.warn(`request ${row.id}: ${errorText(error)}; it runs again after the next start`),
      keepLease: () => outcomes.isPending(row.id),
      ended: () => running.delete(row.id),
    });
  };

  const rendering: RequestRenderingContext = {
    engine,
    files,
    events,
    clock,
    log,
    lookups: options,
    listenersOf: audio.of,
  };

  const render = async (row: RequestRow, entry: Running): Promise<void> => {
    let outcome: Outcome | 'requeue' | undefined;
    try {
      outcome = await renderClaimedRequest(rendering, row, entry);
    } catch (error) {
      outcome = outcomeOfError(row, error, { ...entry, closing: worker.closing }, log);
    }
    // Interrupted by shutdown, not failed: it stays queued for the next start.
    if (outcome === 'requeue') await store.requests.requeue(row.id, instanceId);
    else if (outcome) await finish(row, outcome);
  };

  /** Stops a render running here (once; a second cancel changes nothing). False when none is. */
  const abortHere = (requestId: string): boolean => {
    const entry = running.get(requestId);
    if (!entry) return false;
    if (!entry.cancelled) {
      entry.cancelled = true;
      entry.controller.abort(new AppError('CANCELLED', CANCELLED.errorMessage));
    }
    return true;
  };

  return {
    start: () => worker.start(recovery.atStart, !store.exclusive),
    kick: pump,
    async cancel(requestId) {
      if (abortHere(requestId)) return true;
      const row = await store.requests.get(requestId);
      // Queued: claim it as the runner would, then finish it without rendering.
      if (row?.status === 'new' && (await store.requests.claim([row.id], isoTime(clock.now()), lease()))) {
        await finish(row, CANCELLED);
        return true;
      }
      // Claimed here a moment ago (the row says processing before the render is under way), or
      // meanwhile: the claim starts the render, and the render is stopped.
      await claims.settled();
      return abortHere(requestId);
    },
    isRunning: (id) => running.has(id),
    runningIds: () => [...running.keys()],
    prefer(requestId) {
      claims.prefer(requestId);
      pump();
    },
    progress: (id) => running.get(id)?.progress,
    listen: audio.listen,
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
      outcomes.stopRetrying();
      await worker.close(() => running.values(), graceMs);
      // A last try; what is still not recorded is rendered again after the next start.
      if (outcomes.pending > 0 && !(await outcomes.recordPending())) {
        log.warn(
          `runner: ${outcomes.pending} finished request(s) could not be recorded and stay processing; they run again after the next start`,
        );
      }
    },
  };
}
