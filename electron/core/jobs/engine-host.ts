/**
 * Runs the engine in its own worker thread. The engine's pool already synthesises in
 * workers, but joining, DSP and MP3 encoding run on the thread that calls `render()`; in
 * the server that is the HTTP event loop, and a long MP3 would stall every request for
 * hundreds of milliseconds. Behind this host the main thread only sends messages.
 * Implements the same `Engine` contract; progress and abort cross as messages.
 */

import type { Worker } from 'node:worker_threads';
import { AppError, type ErrorCode } from '../../shared/errors';
import type { Engine, RenderRequest, RenderResult } from '../engine/engine';
import { startWorker } from '../engine/pool';
import type { HostReply, HostRequest } from './engine-host-protocol';

type WithoutSeq<T> = T extends unknown ? Omit<T, 'seq'> : never;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: ((fraction: number) => void) | undefined;
}

/** Starts the host worker and its engine; resolves once the engine is ready. */
export async function createEngineHost(options: { poolSize?: number } = {}): Promise<Engine> {
  const url = new URL(
    import.meta.url.endsWith('.ts') ? './engine-host-worker.ts' : './engine-host-worker.js',
    import.meta.url,
  );
  const worker: Worker = startWorker(url);
  const pending = new Map<number, Pending>();
  let seq = 0;
  let closed = false;
  let failure: AppError | undefined;

  const send = (message: HostRequest) => worker.postMessage(message);
  const call = <T>(message: WithoutSeq<HostRequest>, onProgress?: (f: number) => void) =>
    new Promise<T>((resolve, reject) => {
      if (failure) return reject(failure);
      const id = ++seq;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress });
      send({ ...message, seq: id } as HostRequest);
    });

  const failAll = (error: AppError) => {
    failure = error;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };

  let ready!: (poolSize: number) => void;
  let notReady!: (error: Error) => void;
  const started = new Promise<number>((resolve, reject) => {
    ready = resolve;
    notReady = reject;
  });

  worker.on('message', (reply: HostReply) => {
    switch (reply.type) {
      case 'ready':
        ready(reply.poolSize);
        return;
      case 'startFailed':
        notReady(new AppError(reply.code as ErrorCode, reply.message));
        return;
      case 'progress':
        pending.get(reply.seq)?.onProgress?.(reply.fraction);
        return;
      case 'done': {
        const p = pending.get(reply.seq);
        pending.delete(reply.seq);
        p?.resolve(reply.value);
        return;
      }
      case 'failed': {
        const p = pending.get(reply.seq);
        pending.delete(reply.seq);
        p?.reject(new AppError(reply.code as ErrorCode, reply.message));
        return;
      }
    }
  });
  worker.on('error', (error) => {
    notReady(error);
    failAll(
      new AppError('ENGINE_FAILED', `The engine thread failed: ${error.message}`, undefined, {
        cause: error,
      }),
    );
  });
  worker.on('exit', (code) => {
    const error = closed
      ? new AppError('SHUTTING_DOWN', 'The engine is shutting down.')
      : new AppError('ENGINE_FAILED', `The engine thread exited (code ${code}).`);
    notReady(error);
    failAll(error);
  });

  send({ type: 'init', seq: 0, ...(options.poolSize ? { poolSize: options.poolSize } : {}) });
  const poolSize = await started;

  return {
    poolSize,
    render(request: RenderRequest): Promise<RenderResult> {
      const { onProgress, signal, ...plain } = request;
      if (signal?.aborted)
        return Promise.reject(
          signal.reason instanceof Error ? signal.reason : new AppError('SHUTTING_DOWN', 'Aborted.'),
        );
      const promise = call<RenderResult>({ type: 'render', request: plain }, onProgress);
      if (signal) {
        const id = seq;
        const onAbort = () => send({ type: 'abort', seq: id });
        signal.addEventListener('abort', onAbort, { once: true });
        void promise.finally(() => signal.removeEventListener('abort', onAbort)).catch(() => undefined);
      }
      return promise;
    },
    async audition(options) {
      return call<Uint8Array>({ type: 'audition', options });
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await call<void>({ type: 'close' });
      } finally {
        await worker.terminate();
      }
    },
  };
}
