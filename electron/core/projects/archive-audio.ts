/**
 * What a project archive's audio may be: each `audio/<key>.wav` the WAV a project render writes
 * (RIFF/WAVE, PCM, 16-bit, mono, 8–48 kHz) as long as its segments say (their `duration_ms`), with
 * nothing after its samples; each `audio/<key>.json` the word timings beside it (a JSON list). The
 * caps are known from project.json before an entry is read (ARCHIVE_AUDIO), and the checks run on
 * each entry's first bytes (a WAV's header, a timings file whole) before anything is written, so
 * a wrong file is refused without a byte of the archive on disk.
 */

import { parseWavHeader } from '../engine';

export const ARCHIVE_AUDIO = {
  /** Sample rates a project's WAV may have, Hz (the voices speak at 16, 22.05 or 24 kHz). */
  minSampleRate: 8_000,
  maxSampleRate: 48_000,
  /** Bytes of a WAV's header looked through for its `data` chunk. */
  headerBytes: 64 * 1024,
  /** Bytes a WAV may have per ms of its segment (48 kHz, mono, 16-bit), past its header. */
  wavBytesPerMs: 96,
  /** How far a WAV's length may be from its segment's `duration_ms`, ms (the render rounds to 1). */
  durationToleranceMs: 5,
  /** Bytes of word timings per character of the segment's text, and besides. */
  timingsBytesPerCharacter: 256,
  timingsBaseBytes: 4096,
} as const;

/** The most bytes a segment's WAV of `durationMs` may have. */
export const wavCap = (durationMs: number) =>
  ARCHIVE_AUDIO.headerBytes + ARCHIVE_AUDIO.wavBytesPerMs * durationMs;

/** The most bytes the word timings of a text of `characters` may have. */
export const timingsCap = (characters: number) =>
  ARCHIVE_AUDIO.timingsBaseBytes + ARCHIVE_AUDIO.timingsBytesPerCharacter * characters;

/** Why a WAV's first bytes are not a segment's audio of `durationsMs` (`entryBytes` in all), or null when they are. */
export function wavProblem(
  head: Uint8Array,
  entryBytes: number,
  durationsMs: readonly number[],
): string | null {
  let header;
  try {
    header = parseWavHeader(head);
  } catch (error) {
    return (error as Error).message;
  }
  const { format, channels, bitsPerSample, sampleRate } = header;
  if (format !== 1 || channels !== 1 || bitsPerSample !== 16) {
    return `it is not 16-bit mono PCM (format ${format}, ${channels} channels, ${bitsPerSample} bits)`;
  }
  if (sampleRate < ARCHIVE_AUDIO.minSampleRate || sampleRate > ARCHIVE_AUDIO.maxSampleRate) {
    return `its sample rate ${sampleRate} Hz is not ${ARCHIVE_AUDIO.minSampleRate}–${ARCHIVE_AUDIO.maxSampleRate} Hz`;
  }
  const end = header.dataOffset + header.dataBytes;
  if (end !== entryBytes && end + (header.dataBytes & 1) !== entryBytes) {
    return `its samples end at byte ${end}, the file at ${entryBytes}`;
  }
  const ms = Math.round(header.durationMs);
  const off = durationsMs.find((d) => Math.abs(d - ms) > ARCHIVE_AUDIO.durationToleranceMs);
  return off === undefined ? null : `it lasts ${ms} ms where its segment says ${off} ms`;
}

/** Why a timings entry's bytes are not word timings (a JSON list), or null when they are. */
export function timingsProblem(bytes: Uint8Array): string | null {
  try {
    return Array.isArray(JSON.parse(Buffer.from(bytes).toString('utf8'))) ? null : 'it is not a list';
  } catch {
    return 'it is not JSON';
  }
}
