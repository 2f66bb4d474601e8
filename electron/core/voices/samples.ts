/**
 * The publisher's sample recordings of a catalogue pack, heard before downloading it: fetched
 * on the first request from the sample host (`rhasspy/piper-samples` on GitHub, or a mirror of
 * it), kept under `voices/samples/<pack id>/speaker_<n>.mp3` and served from there afterwards.
 * Fetched with the pack downloads' client (same URL rules, retries and size checks) into a
 * `.part` file renamed once complete, so a cut download is never served.
 */

import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, isAppError } from '../../shared/errors';
import type { CatalogueEntry } from '../../shared/voice-packs';
import { sampleUrl } from './catalogue';
import { createHttpClient, downloadFile, type HttpOptions } from './download';
import { PART_SUFFIX, samplesDir } from './layout';

/** A sample larger than this is refused (the published ones are 20–120 kB). */
export const DEFAULT_SAMPLE_LIMIT = 4 * 1024 * 1024;

export interface SampleOptions {
  dataDir: string;
  /** Base URL the catalogue's sample paths are relative to. */
  mirror: string;
  http?: HttpOptions;
  /** Bytes a sample may have at most. */
  limit?: number;
}

export interface Sample {
  path: string;
  size: number;
  /** Whether it was already kept (no request made). */
  cached: boolean;
}

/** What keeps concurrent requests for the same sample to one download. */
const inFlight = new Map<string, Promise<Sample>>();

/**
 * The sample of `speaker` (0-based) of `entry`: from the cache, or fetched once. Errors:
 * VOICE_PACK_NOT_FOUND (no sample published for that pack or speaker: none in the catalogue,
 * or the host answered 404), INVALID_FIELD (no such speaker), BODY_TOO_LARGE (over the limit),
 * VOICE_DOWNLOAD_FAILED (the host refused or could not be reached).
 */
export async function voiceSample(
  entry: CatalogueEntry,
  speaker: number,
  options: SampleOptions,
): Promise<Sample> {
  if (!entry.samples)
    throw new AppError('VOICE_PACK_NOT_FOUND', `No sample recordings are published for ${entry.id}.`, {
      id: entry.id,
    });
  if (!Number.isInteger(speaker) || speaker < 0 || speaker >= entry.num_speakers)
    throw new AppError(
      'INVALID_FIELD',
      `Invalid field speaker: ${entry.id} has speakers 0 to ${entry.num_speakers - 1}.`,
      { field: 'speaker' },
    );
  const dir = join(samplesDir(options.dataDir), entry.id);
  const path = join(dir, `speaker_${speaker}.mp3`);
  const kept = await stat(path).catch(() => undefined);
  if (kept?.isFile()) return { path, size: kept.size, cached: true };
  const key = path;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = fetchSample(entry, speaker, path, dir, options).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

async function fetchSample(
  entry: CatalogueEntry,
  speaker: number,
  path: string,
  dir: string,
  options: SampleOptions,
): Promise<Sample> {
  const url = sampleUrl(options.mirror, entry, speaker)!;
  const limit = options.limit ?? DEFAULT_SAMPLE_LIMIT;
  const name = `the sample of ${entry.id} (speaker ${speaker})`;
  const tooLarge = (size: number) =>
    new AppError('BODY_TOO_LARGE', `${name} is larger than ${limit} bytes (${size}); refused.`, {
      id: entry.id,
      limit,
    });
  await mkdir(dir, { recursive: true });
  const part = `${path}${PART_SUFFIX}`;
  const client = createHttpClient(options.http, options.mirror);
  try {
    const { size } = await downloadFile({
      url,
      partPath: part,
      name,
      client,
      ...(options.http ? { http: options.http } : {}),
      onTotal: async (total) => {
        if (total !== undefined && total > limit) throw tooLarge(total);
      },
      onBytes: (done) => {
        if (done > limit) throw tooLarge(done);
      },
    });
    await rename(part, path);
    return { path, size, cached: false };
  } catch (error) {
    await rm(part, { force: true });
    if (isAppError(error) && error.code === 'VOICE_DOWNLOAD_FAILED' && /HTTP 404\b/.test(error.message))
      throw new AppError(
        'VOICE_PACK_NOT_FOUND',
        `No sample is published for ${entry.id} speaker ${speaker} (${url} answered 404).`,
        { id: entry.id, speaker },
      );
    if (isAppError(error) && error.details?.reason === 'offline')
      throw new AppError(
        'VOICE_DOWNLOAD_FAILED',
        `This computer cannot reach ${String(error.details.host)}, where ${name} is published (no internet connection, or the site is blocked); the sample plays once it can be reached.`,
        error.details,
        { cause: error },
      );
    throw error;
  } finally {
    await client.close().catch(() => undefined);
  }
}
