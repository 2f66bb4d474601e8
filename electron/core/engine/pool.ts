/**
 * A pool of eSpeak worker threads, one long-lived engine instance each. Tasks (synthesis, and
 * phonemes for the neural voices) are scheduled fairly: each owner (one render) has its own
 * queue and owners take turns, so one huge text does not starve short ones. A worker that
 * crashes or hangs is replaced; its task fails with ENGINE_FAILED / ENGINE_TIMEOUT.
 */

import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { AppError } from '../../shared/errors';
import type {
  EngineSettings,
  PhonemeClause,
  WorkerReady,
  WorkerRequest,
  WorkerResponse,
} from './espeak/protocol';
import { ESPEAK_WORKER_URL } from './espeak/worker-url';
import { startWorker } from './worker-thread';

export interface SynthesisOutput {
  pcm: Int16Array;
  sampleRate: number;
  words: Extract<WorkerResponse, { type: 'result' }>['words'];
  sentenceMs: number[];
}

export interface WorkerPool {
  /** Number of worker threads. */
  readonly size: number;
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
  /** Terminates the workers; queued and running tasks reject with SHUTTING_DOWN. */
  close(): Promise<void>;
}

export interface PoolOptions {
  /** Worker threads; default: the machine's available parallelism. */
  size?: number;
  /** A task running longer than this is treated as a hung worker, ms. Default 60 000. */
  taskTimeoutMs?: number;
  /** Worker script; default: the eSpeak worker beside this module. */
  workerUrl?: URL;
}

/** `Omit` applied to each member of a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A request before the pool numbers it. */
type TaskRequest = DistributiveOmit<WorkerRequest, 'seq'>;
/** A worker's answer other than an error. */
type TaskResponse = Exclude<WorkerResponse, { type: 'error' }>;

interface Task {
  request: TaskRequest;
  /** Settles the task with the worker's answer (rejects when it is not the kind asked for). */
  settle(response: TaskResponse): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task: (Task & { seq: number; timer: NodeJS.Timeout }) | undefined;
}

/** Starts the workers and resolves once every one has loaded its engine. */
export async function createWorkerPool(options: PoolOptions = {}): Promise<WorkerPool> {
  const size = Math.max(1, options.size ?? availableParallelism());
  const taskTimeoutMs = options.taskTimeoutMs ?? 60_000;
  const workerUrl = options.workerUrl ?? ESPEAK_WORKER_URL;

  const queues = new Map<string, Task[]>();
  const slots: Slot[] = [];
  let seq = 0;
  let closed = false;
  // A worker that cannot start would be replaced forever: the pool gives up instead.
  let startupError: AppError | undefined;

  function nextTask(): Task | undefined {
    // Round-robin over owners: take from the first owner, then move it to the back.
    for (const [owner, queue] of queues) {
      const task = queue.shift();
      queues.delete(owner);
      if (queue.length > 0) queues.set(owner, queue);
      if (task) return task;
    }
    return undefined;
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (!slot.ready || slot.task) continue;
      const task = nextTask();
      if (!task) return;
      const taskSeq = ++seq;
      const timer = setTimeout(() => {
        fail(
          slot,
          new AppError(
            'ENGINE_TIMEOUT',
            `Synthesis of one part took longer than ${taskTimeoutMs} ms; the worker was replaced. Submit the request again.`,
          ),
        );
      }, taskTimeoutMs);
      slot.task = { ...task, seq: taskSeq, timer };
      slot.worker.postMessage({ ...task.request, seq: taskSeq } satisfies WorkerRequest);
    }
  }

  function fail(slot: Slot, error: AppError): void {
    const task = slot.task;
    slot.task = undefined;
    if (task) {
      clearTimeout(task.timer);
      task.reject(error);
    }
    const index = slots.indexOf(slot);
    void slot.worker.terminate();
    if (index >= 0 && !closed && !startupError) {
      slots[index] = spawn();
    }
  }

  function spawn(): Slot {
    const worker = startWorker(workerUrl);
    const slot: Slot = { worker, ready: false, task: undefined };
    worker.on('message', (message: WorkerResponse | WorkerReady) => {
      if (message.type === 'ready') {
        slot.ready = true;
        dispatch();
        return;
      }
      if (message.type === 'failed') {
        startupError ??= new AppError('ENGINE_FAILED', `engine failed to start: ${message.message}`);
        fail(slot, startupError);
        return;
      }
      const task = slot.task;
      if (!task || task.seq !== message.seq) return;
      clearTimeout(task.timer);
      slot.task = undefined;
      if (message.type === 'error') task.reject(new AppError(message.error.code, message.error.message));
      else task.settle(message);
      dispatch();
    });
    worker.on('error', (error) => {
      if (!slot.ready)
        startupError ??= new AppError('ENGINE_FAILED', `engine worker failed to start: ${error.message}`);
      if (!closed)
        fail(
          slot,
          new AppError(
            'ENGINE_FAILED',
            `The synthesis worker crashed (${error.message}); it was replaced. Submit the request again.`,
          ),
        );
    });
    worker.on('exit', (code) => {
      if (!closed && slots.includes(slot))
        fail(
          slot,
          new AppError(
            'ENGINE_FAILED',
            `The synthesis worker stopped unexpectedly (exit code ${code}); it was replaced. Submit the request again.`,
          ),
        );
    });
    return slot;
  }

  for (let i = 0; i < size; i++) slots.push(spawn());
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (slots.every((s) => s.ready)) {
        clearInterval(check);
        resolve();
      } else if (startupError) {
        clearInterval(check);
        closed = true;
        for (const s of slots) void s.worker.terminate();
        reject(startupError);
      }
    }, 5);
  });

  /** Queues a request for `owner`; `accept` turns the worker's answer into the result, or undefined for a wrong kind. */
  function enqueue<T>(
    owner: string,
    request: TaskRequest,
    accept: (response: TaskResponse) => T | undefined,
  ): Promise<T> {
    if (closed) return Promise.reject(new AppError('SHUTTING_DOWN', 'the engine is shutting down'));
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
      const queue = queues.get(owner) ?? [];
      queue.push({ request, settle, reject });
      queues.set(owner, queue);
      dispatch();
    });
  }

  return {
    size,
    synthesize(text, settings, owner = 'default') {
      return enqueue(owner, { type: 'synthesize', text, settings }, (response) =>
        response.type === 'result'
          ? {
              pcm: new Int16Array(response.pcm),
              sampleRate: response.sampleRate,
              words: response.words,
              sentenceMs: response.sentenceMs,
            }
          : undefined,
      );
    },
    phonemize(text, espeakVoice, owner = 'default') {
      return enqueue(owner, { type: 'phonemize', text, voice: espeakVoice }, (response) =>
        response.type === 'phonemes' ? response.clauses : undefined,
      );
    },
    cancel(owner) {
      const queue = queues.get(owner) ?? [];
      queues.delete(owner);
      const error = new AppError('SHUTTING_DOWN', 'the render was cancelled');
      for (const task of queue) task.reject(error);
      return queue.length;
    },
    async close() {
      if (closed) return;
      closed = true;
      const error = new AppError('SHUTTING_DOWN', 'the engine is shutting down');
      for (const queue of queues.values()) for (const task of queue) task.reject(error);
      queues.clear();
      for (const slot of slots) {
        if (slot.task) {
          clearTimeout(slot.task.timer);
          slot.task.reject(error);
          slot.task = undefined;
        }
      }
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
