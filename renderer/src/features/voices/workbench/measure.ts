/**
 * One measured audition: the streamed WAV fetched from the audition's address (the same GET an
 * audio element uses), timed in the client from the request's start to its first byte of audio
 * and to its end. The server does not report timings of its own for auditions; it says how much
 * of the audition its sentence cache answered (X-Sentence-Cache), and `bypassCache` asks it to
 * synthesise every sentence instead.
 */

import { completeWav, ERRORS, WorkbenchError, type WavInfo } from './logic';
import type { ErrorDetails } from '../../../../../electron/shared/api';
import type { ErrorCode } from '../../../../../electron/shared/errors';
import { ApiError } from '../../../lib/api-client';
import {
  SENTENCE_CACHE_BYPASS,
  SENTENCE_CACHE_HEADER,
  type SentenceCacheUse,
} from '../../../../../electron/shared/sentence-cache';

export interface Measured {
  /** The whole WAV, its header sizes set to what arrived. */
  bytes: Uint8Array;
  info: WavInfo;
  /** Request start → first byte of the body (the server sends its status with the first audio), ms. */
  firstAudioMs: number;
  /** Request start → last byte, ms. */
  totalMs: number;
  /** totalMs / the audio's length: below 1 is faster than real time. */
  rtf: number;
  /**
   * How much of the audio the server's sentence cache answered (`hit`: the times are of reading
   * stored audio, not of the voice); null when the answer does not say.
   */
  cache: SentenceCacheUse | null;
}

const CACHE_USES: readonly SentenceCacheUse[] = ['hit', 'partial', 'miss', 'bypass'];

/** The answer's X-Sentence-Cache, when it is one the server sends. */
function cacheUseOf(response: Response): SentenceCacheUse | null {
  const value = response.headers.get(SENTENCE_CACHE_HEADER);
  return CACHE_USES.find((use) => use === value) ?? null;
}

/** The API's error in a failed answer (worded from its code and details), or the HTTP status. */
async function failure(response: Response): Promise<Error> {
  try {
    const body = (await response.json()) as Partial<Record<'error_code' | 'error_message', unknown>> & {
      error_details?: ErrorDetails;
    };
    if (typeof body.error_code === 'string' && typeof body.error_message === 'string')
      return new ApiError(
        body.error_code as ErrorCode,
        body.error_message,
        response.status,
        body.error_details,
      );
  } catch {
    // Not JSON: the status says enough.
  }
  return new WorkbenchError(ERRORS.httpStatus, { status: String(response.status) });
}

export async function measureAudition(
  url: string,
  {
    signal,
    headers,
    now = () => performance.now(),
    bypassCache = false,
  }: {
    signal?: AbortSignal | undefined;
    /** Extra headers (tests send the session cookie the browser sends by itself). */
    headers?: Record<string, string> | undefined;
    now?: () => number;
    /** Have every sentence synthesised, none read from the sentence cache. */
    bypassCache?: boolean | undefined;
  } = {},
): Promise<Measured> {
  const sent = { ...headers, ...(bypassCache ? { [SENTENCE_CACHE_HEADER]: SENTENCE_CACHE_BYPASS } : {}) };
  const started = now();
  const response = await fetch(url, { signal, cache: 'no-store', headers: sent });
  if (!response.ok || !response.body) throw await failure(response);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let firstAudioMs: number | undefined;
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.length === 0) continue;
    firstAudioMs ??= now() - started;
    chunks.push(value);
    length += value.length;
  }
  const totalMs = now() - started;
  const all = new Uint8Array(length);
  let offset = 0;
  for (const c of chunks) {
    all.set(c, offset);
    offset += c.length;
  }
  const { bytes, info } = completeWav(all);
  if (info.duration <= 0) throw new WorkbenchError(ERRORS.noAudio);
  return {
    bytes,
    info,
    firstAudioMs: firstAudioMs ?? totalMs,
    totalMs,
    rtf: totalMs / 1000 / info.duration,
    cache: cacheUseOf(response),
  };
}
