/**
 * Messages between the engine host (`engine-host.ts`, on the caller's thread) and its thread
 * (`engine-host-worker.ts`). Every request carries a `seq` id that its replies repeat (`abort`
 * names the `seq` of the render, export or streamed audition to abort); errors cross as `{ code, message }`,
 * audio (a whole audition's WAV, or streamed PCM) as transferred ArrayBuffers.
 */

import type { ErrorCode } from '../../../shared/errors';
import type { SentenceCacheStats, SentenceCacheUse } from '../../../shared/sentence-cache';
import type { LanguageCode } from '../../../shared/voices';
import type { SentenceCacheOptions } from '../cache/sentence-cache';
import type { Reading, ReadingOptions } from '../text/reading';
import type {
  AuditionOptions,
  AuditionResult,
  BookExportRequest,
  BookExportResult,
  ChapterWavsExportRequest,
  RenderRequest,
  RenderResult,
} from '../engine';

/** What of a RenderRequest can cross a thread: callbacks and the signal stay behind. */
export type PlainRenderRequest = Omit<RenderRequest, 'onProgress' | 'onAudio' | 'signal'>;
/** The same for a book export. */
export type PlainBookExportRequest = Omit<BookExportRequest, 'onProgress' | 'signal'>;
/** The same for an export of chapters rendered already. */
export type PlainChaptersExportRequest = Omit<ChapterWavsExportRequest, 'onProgress' | 'signal'>;

export type HostRequest =
  /** `idleReleaseMs`, `sentenceCache`: as in EngineOptions. */
  | {
      type: 'init';
      seq: number;
      poolSize?: number;
      idleReleaseMs?: number;
      sentenceCache?: SentenceCacheOptions;
    }
  /** `streamAudio`: send the audio back as it is written (`audio` replies), for RenderRequest.onAudio. */
  | { type: 'render'; seq: number; request: PlainRenderRequest; streamAudio: boolean }
  | { type: 'exportBook'; seq: number; request: PlainBookExportRequest }
  | { type: 'exportChapters'; seq: number; request: PlainChaptersExportRequest }
  | { type: 'abort'; seq: number; reason: { code: ErrorCode; message: string } }
  | { type: 'audition'; seq: number; options: AuditionOptions }
  /** The audition's audio comes back as `audio` replies as it is synthesised, then `auditionStreamed`. */
  | { type: 'streamAudition'; seq: number; options: AuditionOptions }
  | { type: 'read'; seq: number; text: string; language: LanguageCode; options: ReadingOptions }
  | { type: 'cacheStats'; seq: number }
  | { type: 'clearCache'; seq: number }
  | { type: 'close'; seq: number };

export type HostReply =
  | { type: 'ready'; seq: number; poolSize: number }
  | { type: 'progress'; seq: number; fraction: number }
  | { type: 'audio'; seq: number; pcm: ArrayBuffer; sampleRate: number }
  /** A streamed audition's AuditionStreamRequest.onCache, before its first `audio`. */
  | { type: 'auditionCache'; seq: number; cache: SentenceCacheUse }
  | { type: 'rendered'; seq: number; result: RenderResult }
  | { type: 'exported'; seq: number; result: BookExportResult }
  | { type: 'chaptersExported'; seq: number; result: BookExportResult }
  | { type: 'auditioned'; seq: number; wav: ArrayBuffer }
  | { type: 'auditionStreamed'; seq: number; result: AuditionResult }
  | { type: 'read'; seq: number; reading: Reading }
  /** Answers `cacheStats` and `clearCache`. */
  | { type: 'cacheStats'; seq: number; stats: SentenceCacheStats }
  | { type: 'closed'; seq: number }
  | { type: 'failed'; seq: number; error: { code: ErrorCode; message: string } };
