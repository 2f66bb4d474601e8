/**
 * A pool of eSpeak worker threads, one engine instance each. Tasks (synthesis, and phonemes
 * for the neural voices) are scheduled fairly: each owner (one render) has its own queue and
 * owners take turns, so one huge text does not starve short ones. A worker that crashes or
 * hangs is replaced; its task fails with ENGINE_FAILED / ENGINE_TIMEOUT.
 *
 * The pool sizes itself to the work: it starts with no worker, starts one when the first task
 * arrives, and another (up to `size`) while tasks keep waiting for a busy one, so a sentence
 * costs one worker and a book gets them all. A worker idle for `idleMs` is terminated with its
 * eSpeak instance, voices and dictionaries (~55 MB each); the next task starts one again
 * (~0.3–0.7 s: loading the WASM engine and warming it up).
 */

import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { AppError } from '../../../shared/errors';
import type { EngineSettings, PhonemeClause, WorkerReady, WorkerRequest, WorkerResponse } from './protocol';
import { startWorker } from '../threads/worker-thread';
import { espeakWorkerScript, takeEarlyWorker } from './early-worker';

export interface SynthesisOutput {
  pcm: Int16Array;
  sampleRate: number;
  words: Extract<WorkerResponse, { type: 'result' }>['words'];
  sentenceMs: number[];
  /**
   * Phonemes the voice does not know, left out of what it spoke (one entry per occurrence; a
   * neural voice's `phoneme_id_map` or vocabulary lacks them); absent or empty: none.
   */
  dropped?: string[] | undefined;
  /**
   * Hands `pcm`'s memory back for reuse (a read from the sentence cache has it): call once
   * nothing holds `pcm` or a view of it any more; after it, `pcm` may change. Not calling it
   * only leaves the memory to the garbage collector.
   */
  release?: (() => void) | undefined;
}

export interface WorkerPool {
  /** Worker threads at most (the pool starts them as the work needs them). */
  readonly size: number;
  /** Worker threads alive now, starting or ready: 0 until the first task, at most `size`. */
  readonly workers: number;
  /** Synthesises one piece of engine text. `owner` groups tasks for fair scheduling. */
  synthesize(text: string, settings: EngineSettings, owner?: string): Promise<SynthesisOutput>;
  /**
   * eSpeak's phonemes for one piece of engine text, per clause and word, with each clause's
   * place in `text` and its closing punctuation (see `PhonemeClause`). `espeakVoice` is a voice
   * name or a language code eSpeak knows ("en-us", "en-gb", "fr-fr", "cmn"); an unknown one
   * fails with UNKNOWN_VOICE. Scheduled with the owner's synthesis tasks.
   */
  phonemize(text: string, espeakVoice: string, owner?: string): Promise<PhonemeClause[]>;
  /**
   * Drops the owner's queued tasks (they reject with SHUTTING_DOWN); a task already
   * running finishes. Returns how many were dropped.
   */
  cancel(owner: string): number;
  /**
   * Resolves at `owner`'s next fair turn, for work that needs no worker but takes the machine's
   * time and must not run ahead of other owners' (a sentence answered from the cache, which the
   * render then trims, times and encodes): at once while no other owner's task waits and other
   * owners' tasks leave a worker free; else when the round-robin reaches it as a worker frees
   * up, as it would a task. Rejects with SHUTTING_DOWN when the owner is cancelled or the pool
   * closes.
   */
  turn(owner: string): Promise<void>;
  /** Terminates the workers; queued and running tasks reject with SHUTTING_DOWN. */
  close(): Promise<void>;
}

export interface PoolOptions {
  /** Worker threads at most; default: the machine's available parallelism. */
  size?: number | undefined;
  /** A task running longer than this is treated as a hung worker, ms. Default 60 000. */
  taskTimeoutMs?: number | undefined;
  /** Worker script; default: the eSpeak worker beside this module. */
  workerUrl?: URL | undefined;
  /**
   * A worker without a task for this long is terminated, ms; the next task starts one again.
   * Default 60 000; 0 keeps started workers until close().
   */
  idleMs?: number | undefined;
}

/** `Omit` applied to each member of a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A request before the pool numbers it. */
type TaskRequest = DistributiveOmit<WorkerRequest, 'seq'>;
/** A worker's answer other than an error. */
type TaskResponse = Exclude<WorkerResponse, { type: 'error' }>;

interface Task {
  /** The render it belongs to (see `cancel`, `turn`). */
  owner: string;
  request: TaskRequest;
  /** Settles the task with the worker's answer (rejects when it is not the kind asked for). */
  settle(response: TaskResponse): void;
  reject(error: Error): void;
}

/** A place in an owner's queue that needs no worker (`turn()`): released instead of run. */
interface Turn {
  release(): void;
  reject(error: Error): void;
}

type Queued = Task | Turn;

const isTask = (queued: Queued): queued is Task => 'request' in queued;

interface Slot {
  worker: Worker;
  ready: boolean;
  task: (Task & { seq: number; timer: NodeJS.Timeout }) | undefined;
  /** Runs out when the worker has been without a task for `idleMs`. */
  idleTimer: NodeJS.Timeout | undefined;
}

/**
 * Tasks waiting (all workers busy) before the pool starts one more worker. One waiting task is
 * not enough: starting a worker takes longer than a busy one needs for a sentence, so a text of
 * two sentences is spoken by one worker; a render's window (three tasks per worker) is.
 */
const GROW_BACKLOG = 2;

/**
 * A pool with no worker yet (see the module comment); workers start with the first task. A
 * worker that fails to start fails the tasks waiting for it with ENGINE_FAILED; the next task
 * tries again.
 */
export async function createWorkerPool(options: PoolOptions = {}): Promise<WorkerPool> {
  const pool = new EspeakWorkerPool(options);
  return {
    size: pool.size,
    get workers() {
      return pool.workers;
    },
    synthesize: (text, settings, owner) => pool.synthesize(text, settings, owner),
    phonemize: (text, espeakVoice, owner) => pool.phonemize(text, espeakVoice, owner),
    cancel: (owner) => pool.cancel(owner),
    turn: (owner) => pool.turn(owner),
    close: () => pool.close(),
  };
}

/** The pool's owners' queues and its worker slots (createWorkerPool hands out its methods). */
class EspeakWorkerPool {
  readonly size: number;
  private readonly taskTimeoutMs: number;
  private readonly idleMs: number;
  private readonly workerUrl: URL;
  private readonly queues = new Map<string, Queued[]>();
  private readonly slots: Slot[] = [];
  private seq = 0;
  private closed = false;

  constructor(options: PoolOptions) {
    this.size = Math.max(1, options.size ?? availableParallelism());
    this.taskTimeoutMs = options.taskTimeoutMs ?? 60_000;
    this.idleMs = options.idleMs ?? 60_000;
    this.workerUrl = options.workerUrl ?? espeakWorkerScript();
  }

  get workers(): number {
    return this.slots.length;
  }

  synthesize(text: string, settings: EngineSettings, owner = 'default'): Promise<SynthesisOutput> {
    return this.enqueue(owner, { type: 'synthesize', text, settings }, (response) =>
      response.type === 'result'
        ? {
            pcm: new Int16Array(response.pcm),
            sampleRate: response.sampleRate,
            words: response.words,
            sentenceMs: response.sentenceMs,
          }
        : undefined,
    );
  }

  phonemize(text: string, espeakVoice: string, owner = 'default'): Promise<PhonemeClause[]> {
    return this.enqueue(owner, { type: 'phonemize', text, voice: espeakVoice }, (response) =>
      response.type === 'phonemes' ? response.clauses : undefined,
    );
  }

  cancel(owner: string): number {
    const queue = this.queues.get(owner) ?? [];
    this.queues.delete(owner);
    const error = new AppError('SHUTTING_DOWN', 'the render was cancelled');
    for (const queued of queue) queued.reject(error);
    // The owner's tasks no longer hold back other owners' turns.
    this.releaseTurns();
    return queue.filter(isTask).length;
  }

  turn(owner: string): Promise<void> {
    if (this.closed) return Promise.reject(new AppError('SHUTTING_DOWN', 'the engine is shutting down'));
    return new Promise<void>((resolve, reject) => {
      const queue = this.queues.get(owner) ?? [];
      // First of its owner's: a turn is asked for once a sentence is read from the cache,
      // after the render's later sentences went in as tasks; behind them it held the render
      // up (its audio is needed first), and small requests answered partly from the cache
      // took 3× longer in the load suite.
      queue.unshift({ release: resolve, reject });
      this.queues.set(owner, queue);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const error = new AppError('SHUTTING_DOWN', 'the engine is shutting down');
    for (const queue of this.queues.values()) for (const task of queue) task.reject(error);
    this.queues.clear();
    const all = this.slots.splice(0);
    for (const slot of all) {
      clearTimeout(slot.idleTimer);
      if (slot.task) {
        clearTimeout(slot.task.timer);
        slot.task.reject(error);
        slot.task = undefined;
      }
    }
    await Promise.all(all.map((s) => s.worker.terminate()));
  }

  private nextTask(): Task | undefined {
    // Round-robin over owners: take from the first owner, then move it to the back. A turn
    // taken this way is released and counts as the owner's go.
    for (const [owner, queue] of this.queues) {
      const next = queue.shift();
      this.queues.delete(owner);
      if (queue.length > 0) this.queues.set(owner, queue);
      if (!next) continue;
      if (isTask(next)) return next;
      next.release();
    }
    return undefined;
  }

  /** Tasks waiting for a worker (turns need none). */
  private waiting(): number {
    let count = 0;
    for (const queue of this.queues.values()) for (const queued of queue) if (isTask(queued)) count++;
    return count;
  }

  /**
   * Whether other owners' work takes the machine from `owner`'s turns: a task of theirs waits
   * for a worker, or their tasks run on every worker. An owner's own tasks never hold back its
   * turns: a render answered from the cache with a few changed sentences synthesises those
   * while it writes the others, and there is nobody to be fair to.
   */
  private othersOccupy(owner: string): boolean {
    let running = 0;
    for (const slot of this.slots) if (slot.task && slot.task.owner !== owner) running++;
    if (running >= this.size) return true;
    for (const [other, queue] of this.queues) if (other !== owner && queue.some(isTask)) return true;
    return false;
  }

  /**
   * Releases the turns of every owner whose turns others' work does not hold back
   * (`othersOccupy`); the others wait for the round-robin (`nextTask`), which reaches them as
   * workers free up, in turn with the other owners' tasks.
   */
  private releaseTurns(): void {
    for (const [owner, queue] of this.queues) {
      const tasks = queue.filter(isTask);
      if (tasks.length === queue.length || this.othersOccupy(owner)) continue;
      for (const queued of queue) if (!isTask(queued)) queued.release();
      if (tasks.length > 0) this.queues.set(owner, tasks);
      else this.queues.delete(owner);
    }
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.task) continue;
      const task = this.nextTask();
      if (!task) break;
      clearTimeout(slot.idleTimer);
      slot.idleTimer = undefined;
      const taskSeq = ++this.seq;
      const timer = setTimeout(() => {
        this.fail(
          slot,
          new AppError(
            'ENGINE_TIMEOUT',
            `Synthesis of one part took longer than ${this.taskTimeoutMs} ms; the worker was replaced. Submit the request again.`,
          ),
        );
      }, this.taskTimeoutMs);
      slot.task = { ...task, seq: taskSeq, timer };
      slot.worker.postMessage({ ...task.request, seq: taskSeq } satisfies WorkerRequest);
    }
    this.releaseTurns();
    for (const slot of this.slots) if (slot.ready && !slot.task) this.idle(slot);
    this.grow();
  }

  /** Starts a worker for waiting tasks: the first one at once, more while a backlog remains (one starting at a time). */
  private grow(): void {
    if (this.closed || this.slots.length >= this.size) return;
    const backlog = this.waiting();
    if (backlog === 0 || this.slots.some((s) => !s.ready)) return;
    if (this.slots.length === 0 || backlog >= GROW_BACKLOG) this.slots.push(this.spawn());
  }

  private idle(slot: Slot): void {
    if (this.idleMs <= 0 || slot.idleTimer) return;
    slot.idleTimer = setTimeout(() => {
      slot.idleTimer = undefined;
      if (slot.task || !this.slots.includes(slot)) return;
      this.retire(slot);
    }, this.idleMs);
    // An idle worker must not keep the process alive.
    slot.idleTimer.unref();
  }

  /** Takes a worker out of the pool and terminates it (its exit then replaces nothing). */
  private retire(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    void slot.worker.terminate();
  }

  /** Ends a worker that crashed, hung or could not start, failing its task; waiting work starts another. */
  private fail(slot: Slot, error: AppError): void {
    const task = slot.task;
    slot.task = undefined;
    if (task) {
      clearTimeout(task.timer);
      task.reject(error);
    }
    this.retire(slot);
    this.dispatch();
  }

  /** A worker that could not start: the tasks waiting for it fail too unless another worker is alive. */
  private failStart(slot: Slot, error: AppError): void {
    this.retire(slot);
    if (this.slots.length > 0 || this.closed) return;
    for (const [owner, queue] of this.queues) {
      for (const task of queue.filter(isTask)) task.reject(error);
      this.queues.set(
        owner,
        queue.filter((queued) => !isTask(queued)),
      );
    }
    // With no task left to wait for, every turn is released.
    this.releaseTurns();
  }

  private spawn(): Slot {
    // `say` may have started one already (early-worker.ts).
    const early = takeEarlyWorker(this.workerUrl);
    const worker = early?.worker ?? startWorker(this.workerUrl);
    const slot: Slot = { worker, ready: false, task: undefined, idleTimer: undefined };
    const onMessage = (message: WorkerResponse | WorkerReady) => {
      if (message.type === 'ready') {
        slot.ready = true;
        this.dispatch();
        return;
      }
      if (message.type === 'failed') {
        this.failStart(slot, new AppError('ENGINE_FAILED', `engine failed to start: ${message.message}`));
        return;
      }
      const task = slot.task;
      if (!task || task.seq !== message.seq) return;
      clearTimeout(task.timer);
      slot.task = undefined;
      if (message.type === 'error') task.reject(new AppError(message.error.code, message.error.message));
      else task.settle(message);
      this.dispatch();
    };
    worker.on('message', onMessage);
    // What an early worker said before it was taken (its "ready"), as if it came now.
    for (const message of early?.said ?? []) queueMicrotask(() => onMessage(message as WorkerReady));
    worker.on('error', (error) => {
      if (this.closed || !this.slots.includes(slot)) return;
      if (!slot.ready) {
        this.failStart(
          slot,
          new AppError('ENGINE_FAILED', `engine worker failed to start: ${error.message}`),
        );
        return;
      }
      this.fail(
        slot,
        new AppError(
          'ENGINE_FAILED',
          `The synthesis worker crashed (${error.message}); it was replaced. Submit the request again.`,
        ),
      );
    });
    worker.on('exit', (code) => {
      if (this.closed || !this.slots.includes(slot)) return;
      const error = new AppError(
        'ENGINE_FAILED',
        `The synthesis worker stopped unexpectedly (exit code ${code}); it was replaced. Submit the request again.`,
      );
      if (slot.ready) this.fail(slot, error);
      else this.failStart(slot, error);
    });
    return slot;
  }

  /** Queues a request for `owner`; `accept` turns the worker's answer into the result, or undefined for a wrong kind. */
  private enqueue<T>(
    owner: string,
    request: TaskRequest,
    accept: (response: TaskResponse) => T | undefined,
  ): Promise<T> {
    if (this.closed) return Promise.reject(new AppError('SHUTTING_DOWN', 'the engine is shutting down'));
    return new Promise<T>((resolve, reject) => {
      const settle = (response: TaskResponse): void => {
        const result = accept(response);
        if (result === undefined)
          reject(
            new AppError(
              'ENGINE_FAILED',
              `the engine worker answered a ${request.type} request with ${response.type}`,
            ),
          );
        else resolve(result);
      };
      const queue = this.queues.get(owner) ?? [];
      queue.push({ owner, request, settle, reject });
      this.queues.set(owner, queue);
      this.dispatch();
    });
  }
}
