/**
 * The job runner: claims accepted requests from the database in order, renders them with the
 * engine (bounded concurrency), and records SUCCESS or FAILURE with the refund in one
 * transaction. The queue is the `requests` table, so it survives a crash. Each claim is a
 * lease, renewed while the request renders: on SQLite (one process) the rows left
 * `processing` are queued again at start; on a database several instances share, another
 * instance takes over a request whose lease ran out (its instance died), and start-up touches
 * nothing of the others. The engine writes to a temporary name and renames, so a half-written
 * file is never taken for a finished one.
 */

import type { ModelId } from '../../shared/options';
import { ssmlVoices, type Engine, type LexiconRule, type NeuralVoice } from '../engine';
import { findVoice, type LanguageCode } from '../../shared/voices';
import { spokenVoiceCode } from '../../shared/voice-mapping';
import { AppError, isAppError } from '../../shared/errors';
import type { RequestRow, Store } from '../store';
import { isoTime, type Clock } from '../platform/clock';
import type { Log } from '../platform/log';
import type { JobEvents } from './events';
import { refundCredits } from './credits';
import { claimOrder, rankFairly, startable } from './fair-ranking';
import { createLeasedWorker, newLeasedRun, type LeasedRun } from './leased-worker';
import { renderRequestOf } from './render-request';
import type { ResultFiles } from './result-files';
import { customVoiceRender, ssmlCustomVoices } from './custom-voice-render';
import { chapterPlanOf, writeRequestChapters } from './request-chapters';
import { createStoreRetry, errorText } from './store-retry';
import { redactPaths } from '../platform/redact-paths';
import { storedErrorDetails } from '../platform/error-details';

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

/** Receives a render's audio in order: mono 16-bit PCM at `sampleRate` Hz. */
export type AudioListener = (pcm: Int16Array, sampleRate: number) => void;

/** How a render ended, as recorded on its row. */
interface Outcome {
  status: 'SUCCESS' | 'FAILURE';
  errorCode?: string;
  errorMessage?: string;
  /** JSON of a failure's particulars (platform/error-details.ts). */
  errorDetails?: string | null;
  durationMs?: number;
  audioBytes?: number;
  cueCount?: number;
  engine?: string;
  warnings?: string[];
}

interface Running extends LeasedRun {
  keyId: string;
  progress: number;
  lastEmit: number;
  /** Set by cancel(): the abort that follows is the owner's, not a failure or a shutdown. */
  cancelled: boolean;
  /** Set once audio has reached the listeners: a late listener would miss the start. */
  audioStarted: boolean;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_POLL_MS = 2000;
/** Leftover temporary files older than this are swept from a shared data directory, ms. */
const PARTIAL_MAX_AGE_MS = 15 * 60_000;

const CANCELLED_MESSAGE = 'Cancelled before it finished; the credits were refunded.';

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { engine, store, files, events, clock, log, onFinished, instanceId } = options;
  const concurrency = Math.max(1, options.concurrency ?? engine.poolSize * 2);
  /**
   * Renders beyond the shared slots, each the only one of its key: a key arriving while others'
   * renders hold every slot starts at once and takes turns on the engine's workers with them.
   */
  const spareSlots = concurrency;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  /** Requests to claim first (accepted here for a caller waiting on this instance). */
  const preferred = new Set<string>();
  let lastSweep = 0;
  const running = new Map<string, Running>();
  /** Listeners of requests' audio, by request id (registered before or while it renders). */
  const listeners = new Map<string, Set<AudioListener>>();
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
    if (retryTimer || worker.closing) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void recordPending().then((ok) => {
        if (ok) pump();
      });
    }, storeRetry.nextDelay());
  };

  /** Start counter of each key's latest render (for round-robin). */
  const lastServed = new Map<string, number>();
  let starts = 0;

  /**
   * The pump's claim under way, settled once a claimed row is running. The row reads as
   * processing before the claim returns (SQLite answers a write once its sync is done), so
   * `listen` waits for it before deciding the request is rendering elsewhere.
   */
  let claiming: Promise<unknown> | undefined;
  /**
   * Takes the queue's next requests while renders fit: each key's oldest, ranked fairly, the
   * preferred first; with every shared slot taken, a key holding none still starts its first
   * (fair-ranking.ts). Claims lost to other instances in a row: past a few, it waits for the next
   * wake-up.
   */
  const claimWhatFits = async (): Promise<boolean> => {
    let lost = 0;
    while (running.size < concurrency + spareSlots && !worker.closing && !paused && lost < 3) {
      const inFlight = [...running.values()].map((r) => r.keyId);
      const ranked = startable(
        rankFairly(await store.requests.oldestQueuedPerKey(), inFlight, lastServed),
        inFlight,
        concurrency,
        spareSlots,
      );
      if (ranked.length === 0) break;
      const ids = claimOrder(ranked, preferred);
      const claim = (async () => {
        const row = await store.requests.claim(ids, isoTime(clock.now()), lease());
        if (row) {
          preferred.delete(row.id);
          begin(row);
        }
        return row;
      })();
      claiming = claim;
      const row = await claim.finally(() => {
        if (claiming === claim) claiming = undefined;
      });
      if (!row) lost++;
    }
    return false;
  };

  /** On a shared database: takes over dead instances' work and sweeps their leftovers. */
  const onPoll = async () => {
    await recover();
    if (clock.now() - lastSweep > PARTIAL_MAX_AGE_MS) {
      lastSweep = clock.now();
      await files.sweepPartials(PARTIAL_MAX_AGE_MS);
    }
  };

  const worker = createLeasedWorker({
    instanceId,
    clock,
    leaseMs,
    pollMs,
    mayClaim: () => !paused,
    claim: claimWhatFits,
    looked: () => {
      if (unrecorded.size === 0) storeRetry.reset();
    },
    claimFailed: (error) => {
      // The queue stays in the database; it is read again after a wait.
      log.warn(`runner: could not take the next request from the queue: ${errorText(error)}; trying again`);
      retryLater();
    },
    onPoll,
    pollFailed: (error) => log.warn(`runner: could not look for requests to take over: ${errorText(error)}`),
  });
  const { lease } = worker;
  /** Looks for work and claims what fits; never rejects (a store failure retries later). */
  const pump = worker.pump;

  /** Keeps the lease of a render; a lease found gone stops the render (another instance has it). */
  const renew = (row: RequestRow, entry: Running) =>
    worker.keepLease(entry, {
      renew: (lease) => store.requests.renewLease(row.id, lease),
      // Kept while rendering, and while an outcome waits to be recorded (until a stop,
      // after which another instance may take the request over).
      wanted: () => running.has(row.id) || (!worker.closing && unrecorded.has(row.id)),
      lost: () =>
        log.warn(`request ${row.id}: its lease ran out and another instance took it over; this render stops`),
      failed: (error) => log.warn(`request ${row.id}: could not renew its lease: ${errorText(error)}`),
    });

  /** Starts rendering a request this instance has just claimed. */
  const begin = (row: RequestRow) => {
    lastServed.set(row.key_id, starts++);
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
      keepLease: () => unrecorded.has(row.id),
      ended: () => running.delete(row.id),
    });
  };

  /**
   * For SSML input, the neural voices and lexicons of the document's other voices and languages
   * (the document was checked at submit; should it fail now, the render reports its error).
   */
  const ssmlVoicesOf = (row: RequestRow) => {
    const custom = ssmlCustomVoices(row.custom_voice, row.model_id, options, (message) =>
      log.warn(`request ${row.id}: ${message}`),
    );
    return ssmlVoices(
      row.input_text,
      spokenVoiceCode(row),
      {
        neuralVoice: async (code) => options.neuralVoice?.(code, row.model_id),
        lexicon: async (language) => (await options.lexicon?.(language)) ?? [],
        customVoice: custom.customVoice,
      },
      custom.customVoices,
    ).catch(() => ({}));
  };

  /**
   * A request accepted with a custom voice: its snapshot (not today's definition) resolved into
   * the voice code, prosody, lexicon and neural voice it renders with, and a warning when its
   * pack or blend is not installed. Undefined for other requests.
   */
  const customVoiceOf = (row: RequestRow) =>
    customVoiceRender(row.custom_voice, row, options, (message) => log.warn(`request ${row.id}: ${message}`));

  const render = async (row: RequestRow, entry: Running): Promise<void> => {
    const voiceCode = spokenVoiceCode(row);
    try {
      const custom = await customVoiceOf(row);
      // Chosen when the render starts, from what is installed then; a library that cannot be
      // read leaves the request to eSpeak rather than failing it.
      // A Kokoro name or mix: a Kokoro pack holding it, else (also when that pack cannot be
      // read) the voice code that stands in for it.
      const kokoro = row.kokoro_voice === null ? undefined : options.kokoroVoice?.(row.kokoro_voice);
      const neuralVoice = custom
        ? custom.resolved.neuralVoice
        : await (kokoro ?? Promise.resolve(undefined))
            .catch((error: unknown) => {
              log.warn(
                `request ${row.id}: ${row.kokoro_voice} cannot be opened: ${(error as Error).message}`,
              );
              return undefined;
            })
            .then((voice) => voice ?? options.neuralVoice?.(voiceCode, row.model_id))
            .catch((error: unknown) => {
              log.warn(
                `request ${row.id}: voice library unreadable, eSpeak speaks: ${(error as Error).message}`,
              );
              return undefined;
            });
      const language = findVoice(voiceCode)?.language;
      const lexicon = custom ? custom.lexicon : language ? await options.lexicon?.(language) : undefined;
      const ssml = await ssmlVoicesOf(row);
      // A text with chapter lines: its word timings give the chapters' times.
      const chapterPlan = chapterPlanOf(row.input_text);
      const result = await engine.render(
        renderRequestOf(
          row,
          {
            voiceCode,
            neuralVoice,
            lexicon,
            ssml,
            prosody: custom?.resolved,
            timings: Boolean(chapterPlan || row.word_timings),
            signal: entry.controller.signal,
            onAudio: (pcm, sampleRate) => {
              entry.audioStarted = true;
              for (const listener of listeners.get(row.id) ?? []) listener(pcm, sampleRate);
            },
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
          },
          files,
        ),
      );
      if (chapterPlan) {
        await writeRequestChapters(
          chapterPlan,
          files.timingsPath(row),
          files.chaptersPath(row),
          result.durationMs,
          { keepTimings: row.word_timings === 1 },
        );
      }
      if (row.voice_match) {
        log.info(
          `request ${row.id}: voice_code "${row.voice_code}" was spoken by ${voiceCode} (${row.voice_match}), engine ${result.engine}`,
        );
      }
      for (const warning of result.warnings) log.warn(`request ${row.id}: ${warning}`);
      await finish(row, {
        status: 'SUCCESS',
        durationMs: Math.round(result.durationMs),
        audioBytes: result.audioBytes,
        cueCount: result.cueCount,
        engine: result.engine,
        warnings: [...(custom?.warnings ?? []), ...result.warnings],
      });
    } catch (error) {
      if (entry.leaseLost) return;
      if (entry.cancelled) {
        await finish(row, { status: 'FAILURE', errorCode: 'CANCELLED', errorMessage: CANCELLED_MESSAGE });
        return;
      }
      if (
        worker.closing &&
        (entry.controller.signal.aborted || (isAppError(error) && error.code === 'SHUTTING_DOWN'))
      ) {
        // Interrupted by shutdown, not failed: it stays queued for the next start.
        await store.requests.requeue(row.id, instanceId);
        return;
      }
      const appError = isAppError(error)
        ? error
        : new AppError('INTERNAL', 'Synthesis failed unexpectedly.', undefined, { cause: error });
      if (!isAppError(error)) log.warn(`request ${row.id}: ${(error as Error)?.stack ?? String(error)}`);
      // Kept, shown and sent to the callback without paths of this machine (the log has them).
      await finish(row, {
        status: 'FAILURE',
        errorCode: appError.code,
        errorMessage: redactPaths(appError.message),
        errorDetails: storedErrorDetails(appError),
      });
    }
  };

  /**
   * Records a render's outcome (with the refund of a failure) and announces it. Never throws:
   * when the store fails, the outcome waits in `unrecorded` and is recorded by a later try.
   */
  const finish = async (row: RequestRow, outcome: Outcome): Promise<void> => {
    const at = clock.now();
    let stored: RequestRow | undefined;
    try {
      stored = await record(row, outcome, at);
    } catch (error) {
      log.warn(
        `request ${row.id}: could not record ${outcome.status}: ${errorText(error)}; it stays processing and is recorded when the store works again`,
      );
      unrecorded.set(row.id, { row, outcome, at });
      retryLater();
      return;
    }
    if (stored) announce(row, outcome, stored);
    else lostLease(row.id);
  };

  /** The outcome in one transaction; the stored row, or undefined when it was not processing. */
  const record = (row: RequestRow, outcome: Outcome, at: number): Promise<RequestRow | undefined> =>
    store.transaction(async (tx) => {
      const ok = await tx.requests.finish(row.id, instanceId, {
        ...outcome,
        finishedAt: isoTime(at),
        callbackDueAt: at,
      });
      if (!ok) return undefined;
      await tx.keys.addQueued(row.key_id, -1);
      if (outcome.status === 'FAILURE') await refundCredits(tx, row, row.cost_milli, isoTime(at));
      return tx.requests.get(row.id);
    });

  /** An outcome the store refused: the request is no longer this instance's. */
  const lostLease = (id: string) =>
    log.warn(
      `request ${id}: its outcome was not recorded: another instance took it over after its lease ran out`,
    );

  const announce = (row: RequestRow, outcome: Outcome, stored: RequestRow) => {
    events.emit('request', { keyId: row.key_id, request_id: row.id, status: outcome.status, progress: 1 });
    events.emit('finished', { requestId: row.id, keyId: row.key_id });
    onFinished(stored);
  };

  /** Records the outcomes the store failed to take earlier; false while it still fails. */
  const recordPending = async (): Promise<boolean> => {
    for (const [id, pending] of unrecorded) {
      let stored: RequestRow | undefined;
      try {
        stored = await record(pending.row, pending.outcome, pending.at);
      } catch (error) {
        log.warn(
          `runner: ${unrecorded.size} outcome(s) still not recorded (request ${id} first): ${errorText(error)}`,
        );
        retryLater();
        return false;
      }
      unrecorded.delete(id);
      if (stored) announce(pending.row, pending.outcome, stored);
      else lostLease(id);
    }
    return true;
  };

  /**
   * Rows whose render died with its instance go back to the queue: every `processing` row on
   * SQLite (this process is its only user, so they are its own from before a crash), the rows
   * whose lease ran out on a shared database. Repeat offenders are given up.
   */
  const recover = async () => {
    if (store.exclusive) {
      const requeued = await store.requests.requeueProcessing();
      if (requeued > 0) log.info(`requeued ${requeued} interrupted request(s)`);
    } else {
      const requeued = await store.requests.requeueExpired(clock.now());
      if (requeued.length > 0)
        log.info(`took over ${requeued.length} request(s) whose instance stopped renewing its lease`);
    }
    for (const row of await store.requests.exhausted(MAX_RUN_ATTEMPTS)) {
      if (!(await store.requests.claim([row.id], isoTime(clock.now()), lease()))) continue;
      await finish(row, {
        status: 'FAILURE',
        errorCode: 'ENGINE_FAILED',
        errorMessage: `Synthesis was interrupted ${row.run_attempts} times; given up.`,
      });
    }
  };

  /** Stops a render running here (once; a second cancel changes nothing). False when none is. */
  const abortHere = (requestId: string): boolean => {
    const entry = running.get(requestId);
    if (!entry) return false;
    if (!entry.cancelled) {
      entry.cancelled = true;
      entry.controller.abort(new AppError('CANCELLED', CANCELLED_MESSAGE));
    }
    return true;
  };

  return {
    start: () =>
      worker.start(async () => {
        // Half-written files of renders a crash interrupted (those requests run again). On a
        // shared directory only old ones: the others may be live renders of other instances.
        await files.sweepPartials(store.exclusive ? 0 : PARTIAL_MAX_AGE_MS);
        lastSweep = clock.now();
        await recover();
      }, !store.exclusive),
    kick: pump,
    async cancel(requestId) {
      if (abortHere(requestId)) return true;
      const row = await store.requests.get(requestId);
      // Queued: claim it as the runner would, then finish it without rendering.
      if (row?.status === 'new' && (await store.requests.claim([row.id], isoTime(clock.now()), lease()))) {
        await finish(row, { status: 'FAILURE', errorCode: 'CANCELLED', errorMessage: CANCELLED_MESSAGE });
        return true;
      }
      // Claimed here a moment ago (the row says processing before the render is under way), or
      // meanwhile: the claim starts the render, and the render is stopped.
      await claiming?.catch(() => undefined);
      return abortHere(requestId);
    },
    isRunning: (id) => running.has(id),
    runningIds: () => [...running.keys()],
    prefer(requestId) {
      preferred.add(requestId);
      pump();
    },
    progress: (id) => running.get(id)?.progress,
    async listen(requestId, listener) {
      const entry = running.get(requestId);
      if (entry?.audioStarted) return undefined;
      // Registered at once, before any wait: a render that starts meanwhile reaches it from its
      // first sample.
      let set = listeners.get(requestId);
      if (!set) listeners.set(requestId, (set = new Set()));
      set.add(listener);
      const unlisten = () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(requestId) === set) listeners.delete(requestId);
      };
      if (entry) return unlisten;
      const row = await store.requests.get(requestId);
      if (row?.status === 'processing' && !running.has(requestId)) await claiming?.catch(() => undefined);
      // Queued, or claimed here meanwhile: heard. Rendering elsewhere or finished: read the file.
      if (row?.status === 'new' || running.has(requestId)) return unlisten;
      unlisten();
      return undefined;
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
      clearTimeout(retryTimer);
      retryTimer = undefined;
      await worker.close(() => running.values(), graceMs);
      // A last try; what is still not recorded is rendered again after the next start.
      if (unrecorded.size > 0 && !(await recordPending())) {
        log.warn(
          `runner: ${unrecorded.size} finished request(s) could not be recorded and stay processing; they run again after the next start`,
        );
      }
    },
  };
}
