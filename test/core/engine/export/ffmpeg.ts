/**
 * What Debian's ffprobe and ffmpeg say about an exported file: chapters, tags and streams
 * (`ffprobe -show_chapters`), levels (`astats`), integrated loudness (`ebur128`, EBU R 128) and
 * the quiet stretches (`silencedetect`).
 */

import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ProbedFile {
  format: { duration: string; bit_rate?: string; tags?: Record<string, string> };
  streams: Array<{
    codec_type: string;
    codec_name: string;
    sample_rate?: string;
    bit_rate?: string;
    disposition?: { attached_pic?: number };
  }>;
  chapters: Array<{ start_time: string; end_time: string; tags?: { title?: string } }>;
}

export async function probeFile(path: string): Promise<ProbedFile> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_format',
    '-show_streams',
    '-show_chapters',
    '-of',
    'json',
    path,
  ]);
  return JSON.parse(stdout) as ProbedFile;
}

/** ffmpeg's log of the audio of `path` through `filter`. */
async function filterLog(path: string, filter: string): Promise<string> {
  const { stderr } = await run(
    'ffmpeg',
    ['-nostats', '-hide_banner', '-i', path, '-map', '0:a', '-af', filter, '-f', 'null', '-'],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return stderr;
}

function numberAfter(log: string, label: RegExp): number {
  const match = label.exec(log);
  if (!match) throw new Error(`no ${label.source} in ffmpeg's output:\n${log.slice(-2000)}`);
  return match[1] === '-inf' ? Number.NEGATIVE_INFINITY : Number(match[1]);
}

/** astats over the whole file (dBFS). */
export async function astats(path: string): Promise<{ rmsDbfs: number; peakDbfs: number }> {
  const log = await filterLog(path, 'astats=measure_perchannel=none');
  return {
    rmsDbfs: numberAfter(log, /RMS level dB: (-?[\d.]+|-inf)/),
    peakDbfs: numberAfter(log, /Peak level dB: (-?[\d.]+|-inf)/),
  };
}

/** Integrated loudness, LUFS (ebur128's summary, to 0.1 LU). */
export async function integratedLufs(path: string): Promise<number> {
  const log = await filterLog(path, 'ebur128');
  return numberAfter(log.slice(log.lastIndexOf('Summary:')), /I:\s+(-?[\d.]+) LUFS/);
}

/** Stretches quieter than `db` dB lasting at least `minSeconds` (s; the last may run to the end). */
export async function silences(
  path: string,
  db: number,
  minSeconds: number,
): Promise<Array<{ start: number; end: number | undefined }>> {
  const log = await filterLog(path, `silencedetect=n=${db}dB:d=${minSeconds}`);
  const out: Array<{ start: number; end: number | undefined }> = [];
  for (const match of log.matchAll(/silence_(start|end): (-?[\d.]+)/g)) {
    if (match[1] === 'start') out.push({ start: Number(match[2]), end: undefined });
    else out[out.length - 1]!.end = Number(match[2]);
  }
  return out;
}

/** A plain `color` picture of `size`×`size` pixels written to `path` (JPEG or PNG by its extension), and its bytes. */
export function writeCover(path: string, color: string, size: number): Uint8Array {
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `color=c=${color}:s=${size}x${size}`,
    '-frames:v',
    '1',
    path,
  ]);
  return new Uint8Array(readFileSync(path));
}
