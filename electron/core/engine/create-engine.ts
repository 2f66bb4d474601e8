/**
 * The synthesis engine: text → chunks → worker pool → trimmed, joined, volume-limited
 * PCM → WAV/MP3 file, with word timings and SRT subtitles, all streamed to disk so
 * memory stays bounded by the number of chunks in flight, whatever the text length.
 * The steps of a render are in `render/`; this wires them to one pool.
 */

import { availableParallelism } from 'node:os';
import { AppError } from '../../shared/errors';
import type { SentenceCacheStats } from '../../shared/sentence-cache';
import { openSentenceCache, type SentenceCacheOptions } from './cache/sentence-cache';
import { auditionWav, streamAudition } from './audition';
import type { Engine } from './engine';
import { createNeuralModels } from './onnx/neural-models';
import { createWorkerPool } from './espeak/worker-pool';
import { renderToFiles, type RenderContext } from './render/render';
import { releaseJapaneseAfterIdle } from './text/languages/ja-kana';
import { readingOf } from './text/reading';

export interface EngineOptions {
  /** Worker threads; default: the machine's available parallelism. */
  poolSize?: number | undefined;
  /** A chunk taking longer than this fails its render (hung worker), ms. */
  taskTimeoutMs?: number | undefined;
  /**
   * Worker script of the pool (default: the eSpeak worker). For fault tests only: the fault
   * suite passes a worker that crashes or hangs on request (test/fixtures/faulty-worker.ts).
   */
  workerUrl?: URL | undefined;
  /**
   * Threads one neural model run may use (onnxruntime's intra-op threads); default 2, or 1 on
   * a one-core machine (bench:neural: 2 threads brought the Piper-medium stand-in's whole
   * pipeline from RTF 0.119 to 0.080 on 2 cores).
   */
  neuralThreads?: number | undefined;
  /**
   * What sits unused this long is released and loaded again on demand, ms: eSpeak workers
   * (~55 MB each, back in ~0.3–0.7 s), the Japanese dictionary (~300 MB, ~1 s; shared by the
   * engines of a thread: the last setting applies), neural model sessions. Default 60 000;
   * 0 keeps everything loaded once until close().
   */
  idleReleaseMs?: number | undefined;
  /**
   * Keep rendered engine calls in this folder, up to this size (see cache/sentence-cache.ts);
   * default: no cache. The composition roots put it in `<data-dir>/cache/sentences/`.
   */
  sentenceCache?: SentenceCacheOptions | undefined;
}

/** The stats of an engine that keeps no sentence cache. */
const NO_CACHE: SentenceCacheStats = {
  enabled: false,
  entries: 0,
  bytes: 0,
  limit_bytes: 0,
  hits: 0,
  misses: 0,
};

/**
 * An engine that loads what it needs as the work comes: no worker, dictionary or model is
 * loaded until a render or audition needs it (the pool starts workers as tasks arrive).
 */
export async function createEngine(options: EngineOptions = {}): Promise<Engine> {
  const pool = await createWorkerPool({
    size: options.poolSize,
    taskTimeoutMs: options.taskTimeoutMs,
    workerUrl: options.workerUrl,
    idleMs: options.idleReleaseMs,
  });
  if (options.idleReleaseMs !== undefined) releaseJapaneseAfterIdle(options.idleReleaseMs);
  const cache =
    options.sentenceCache && options.sentenceCache.maxBytes > 0
      ? await openSentenceCache(options.sentenceCache)
      : undefined;
  const context: RenderContext = {
    cache,
    pool,
    models: createNeuralModels({
      intraOpNumThreads: options.neuralThreads ?? Math.min(2, availableParallelism()),
      idleMs: options.idleReleaseMs,
    }),
  };
  let closed = false;
  const engine: Engine = {
    poolSize: pool.size,
    async render(request) {
      if (closed) throw new AppError('SHUTTING_DOWN', 'the engine is shutting down');
      return renderToFiles(context, request);
    },
    audition: (options) => auditionWav(context, options),
    streamAudition: (request) => streamAudition(context, request),
    async exportBook(request) {
      // Loaded on first use: `say` and a server that never exports do without it.
      const { exportBook } = await import('./export/book-export');
      return exportBook(engine, request);
    },
    async exportChapters(request) {
      const { exportChapterWavs } = await import('./export/book-export');
      return exportChapterWavs(request);
    },
    async read(text, language, options) {
      return readingOf(text, language, options);
    },
    async sentenceCacheStats() {
      if (!cache) return NO_CACHE;
      const { writeFailures: _, ...stats } = cache.stats();
      return stats;
    },
    async clearSentenceCache() {
      return cache ? cache.clear() : NO_CACHE;
    },
    async close() {
      closed = true;
      await context.models.close();
      await pool.close();
      // Entries still being written finish, so the next start finds them.
      await cache?.flush();
    },
  };
  return engine;
}
