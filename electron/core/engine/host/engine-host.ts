/**
 * Runs the engine in its own worker thread. The engine's pool already synthesises in
 * workers, but joining, DSP and MP3 encoding run on the thread that calls `render()` (and a
 * book export's mastering and AAC or MP3 encoding on the one that calls `exportBook()`); in
 * the server that is the HTTP event loop, and a long MP3 would stall every request for
 * hundreds of milliseconds. Behind this host the main thread only sends messages.
 * Implements the same `Engine` contract; progress and abort cross as messages.
 */

import type { Worker } from 'node:worker_threads';
import { AppError, assertNever, toWireError } from '../../../shared/errors';
import type { SentenceCacheStats, SentenceCacheUse } from '../../../shared/sentence-cache';
import type { AuditionResult, BookExportResult, Engine, RenderRequest, RenderResult } from '../engine';
import type { EngineOptions } from '../create-engine';
import { abortError } from '../render/synthesis-window';
import { scriptBeside } from '../../platform/script-url';
import { startWorker } from '../threads/worker-thread';
import type { HostReply, HostRequest } from './protocol';
import type { Reading } from '../text/reading';

/** What each kind of call resolves to, and the reply that carries it. */
interface Answers {
  init: number;
  render: RenderResult;
  exportBook: BookExportResult;
  exportChapters: BookExportResult;
  audition: Uint8Array;
  streamAudition: AuditionResult;
  read: Reading;
  cacheStats: SentenceCacheStats;
  clearCache: SentenceCacheStats;
  close: void;
}
type CallKind = keyof Answers;
type CallRequest<K extends CallKind> = Omit<Extract<HostRequest, { type: K }>, 'seq'>;

interface Pending {
  kind: CallKind;
  resolve(value: Answers[CallKind]): void;
  reject(error: Error): void;
  onProgress?: ((fraction: number) => void) | undefined;
  onAudio?: ((pcm: Int16Array, sampleRate: number) => void) | undefined;
  onCache?: ((use: SentenceCacheUse) => void) | undefined;
}

/** Starts the host worker and its engine; resolves once the engine is ready. */
export async function createEngineHost(
  options: Pick<EngineOptions, 'poolSize' | 'idleReleaseMs' | 'sentenceCache'> = {},
): Promise<Engine> {
  const worker: Worker = startWorker(scriptBeside('engine-host-worker', import.meta.url));
  let closed = false;
  const { call, abortable } = openHostChannel(worker, () => closed);

  const poolSize = await call<'init'>({
    type: 'init',
    ...(options.poolSize ? { poolSize: options.poolSize } : {}),
    ...(options.idleReleaseMs !== undefined ? { idleReleaseMs: options.idleReleaseMs } : {}),
    ...(options.sentenceCache ? { sentenceCache: options.sentenceCache } : {}),
  });

  return {
    poolSize,
    render(request: RenderRequest): Promise<RenderResult> {
      const { onProgress, onAudio, signal, ...plain } = request;
      if (signal?.aborted) return Promise.reject(abortError(signal));
      return abortable(
        call<'render'>(
          { type: 'render', request: plain, streamAudio: onAudio !== undefined },
          onProgress,
          onAudio,
        ),
        signal,
      );
    },
    exportBook(request) {
      const { onProgress, signal, ...plain } = request;
      if (signal?.aborted) return Promise.reject(abortError(signal));
      return abortable(call<'exportBook'>({ type: 'exportBook', request: plain }, onProgress), signal);
    },
    exportChapters(request) {
      const { onProgress, signal, ...plain } = request;
      if (signal?.aborted) return Promise.reject(abortError(signal));
      return abortable(
        call<'exportChapters'>({ type: 'exportChapters', request: plain }, onProgress),
        signal,
      );
    },
    audition(options) {
      return call<'audition'>({ type: 'audition', options });
    },
    streamAudition(request) {
      const { onAudio, onCache, signal, ...options } = request;
      if (signal?.aborted) return Promise.reject(abortError(signal));
      return abortable(
        call<'streamAudition'>({ type: 'streamAudition', options }, undefined, onAudio, onCache),
        signal,
      );
    },
    read(text, language, options = {}) {
      return call<'read'>({ type: 'read', text, language, options });
    },
    sentenceCacheStats() {
      return call<'cacheStats'>({ type: 'cacheStats' });
    },
    clearSentenceCache() {
      return call<'clearCache'>({ type: 'clearCache' });
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await call<'close'>({ type: 'close' });
      } finally {
        await worker.terminate();
      }
    },
  };
}

/**
 * The calls to the host worker: each request numbered, its replies (progress, audio, answer or
 * failure) routed to it, and every call still waiting failed when the thread fails or exits.
 */
function openHostChannel(worker: Worker, closing: () => boolean) {
  const pending = new Map<number, Pending>();
  let seq = 0;
  let failure: AppError | undefined;

  const send = (message: HostRequest) => worker.postMessage(message);
  /** Sends a request; resolves with its answer. `seq` of the call is `seq` right after. */
  const call = <K extends CallKind>(
    message: CallRequest<K>,
    onProgress?: (f: number) => void,
    onAudio?: (pcm: Int16Array, sampleRate: number) => void,
    onCache?: (use: SentenceCacheUse) => void,
  ) =>
    new Promise<Answers[K]>((resolve, reject) => {
      if (failure) return reject(failure);
      const id = ++seq;
      pending.set(id, {
        kind: message.type as K,
        resolve: resolve as (value: Answers[CallKind]) => void,
        reject,
        onProgress,
        onAudio,
        onCache,
      });
      send({ ...message, seq: id } as HostRequest);
    });

  /** The pending call a reply answers, removed from the map; undefined for a stale reply. */
  const settle = (reply: HostReply, kind: CallKind): Pending | undefined => {
    const p = pending.get(reply.seq);
    if (!p) return undefined;
    pending.delete(reply.seq);
    if (p.kind !== kind) {
      p.reject(new AppError('INTERNAL', `the engine thread answered ${p.kind} with ${reply.type}`));
      return undefined;
    }
    return p;
  };

  const failAll = (error: AppError) => {
    failure = error;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };

  worker.on('message', (reply: HostReply) => routeReply(reply, pending, settle));
  worker.on('error', (error) => {
    failAll(
      new AppError('ENGINE_FAILED', `The engine thread failed: ${error.message}`, undefined, {
        cause: error,
      }),
    );
  });
  worker.on('exit', (code) => {
    failAll(
      closing()
        ? new AppError('SHUTTING_DOWN', 'The engine is shutting down.')
        : new AppError('ENGINE_FAILED', `The engine thread exited (code ${code}).`),
    );
  });

  /** Sends `abort` for the call just made (its `seq` is the current one) when `signal` aborts. */
  const abortable = <T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> => {
    if (!signal) return promise;
    const id = seq;
    const onAbort = () =>
      send({ type: 'abort', seq: id, reason: toWireError(abortError(signal), 'CANCELLED') });
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.finally(() => signal.removeEventListener('abort', onAbort)).catch(() => undefined);
    return promise;
  };
  return { call, abortable };
}

/** Hands a reply of the host worker to the call it answers. */
function routeReply(
  reply: HostReply,
  pending: Map<number, Pending>,
  settle: (reply: HostReply, kind: CallKind) => Pending | undefined,
): void {
  switch (reply.type) {
    case 'ready':
      settle(reply, 'init')?.resolve(reply.poolSize);
      return;
    case 'progress':
      pending.get(reply.seq)?.onProgress?.(reply.fraction);
      return;
    case 'audio':
      pending.get(reply.seq)?.onAudio?.(new Int16Array(reply.pcm), reply.sampleRate);
      return;
    case 'auditionCache':
      pending.get(reply.seq)?.onCache?.(reply.cache);
      return;
    case 'rendered':
      settle(reply, 'render')?.resolve(reply.result);
      return;
    case 'exported':
      settle(reply, 'exportBook')?.resolve(reply.result);
      return;
    case 'chaptersExported':
      settle(reply, 'exportChapters')?.resolve(reply.result);
      return;
    case 'auditioned':
      settle(reply, 'audition')?.resolve(new Uint8Array(reply.wav));
      return;
    case 'auditionStreamed':
      settle(reply, 'streamAudition')?.resolve(reply.result);
      return;
    case 'read':
      settle(reply, 'read')?.resolve(reply.reading);
      return;
    case 'cacheStats': {
      // Both cache calls answer with the stats: settle whichever this one was.
      const kind = pending.get(reply.seq)?.kind === 'clearCache' ? 'clearCache' : 'cacheStats';
      settle(reply, kind)?.resolve(reply.stats);
      return;
    }
    case 'closed':
      settle(reply, 'close')?.resolve(undefined);
      return;
    case 'failed': {
      const p = pending.get(reply.seq);
      pending.delete(reply.seq);
      p?.reject(new AppError(reply.error.code, reply.error.message));
      return;
    }
    default:
      assertNever(reply);
  }
}
