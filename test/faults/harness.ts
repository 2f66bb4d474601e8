/**
 * Shared harness of the fault suite (`npm run test:faults`): each scenario module exports a
 * `Scenario`; run.ts runs them in order and prints every check and figure.
 */

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliRunner } from '../core/server/process';

export interface FaultContext {
  /** Size multiplier from `--scale` (1 = the sizes; CI runs smaller). */
  readonly scale: number;
  /** Seed from `--seed`, for scenarios with random choices (reproducible). */
  readonly seed: number;
  /** Records one check; `detail` explains a failure (and is printed either way when given). */
  check(name: string, ok: boolean, detail?: string): void;
  /** Records a measured figure for the report (docs/RELIABILITY.md quotes these). */
  figure(name: string, value: string | number): void;
  /** A progress line. */
  log(message: string): void;
  /** How the scenarios start `serve`: the CLI compiled once for the run. */
  readonly cli: CliRunner;
}

export interface Scenario {
  /** Short id used by `--only`. */
  name: string;
  /** One line: what the scenario proves. */
  title: string;
  run(ctx: FaultContext): Promise<void>;
}

/**
 * CPU seconds (user + system) this process has used, plus those of its children that have
 * exited (the `serve` processes, ffmpeg): /proc/self/stat's cutime and cstime, in clock ticks
 * (100 a second on Linux). CI's two cores are the limit, so the suites report CPU beside wall.
 */
export function cpuSeconds(): number {
  const own = process.cpuUsage();
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name (in parentheses, which may hold spaces): cutime and cstime are the 16th and 17th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const children = (Number(fields[13]) + Number(fields[14])) / 100;
  return (own.user + own.system) / 1e6 + children;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `probe` until it returns a value other than undefined, or throws after `timeoutMs`. */
export async function waitUntil<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** The q-quantile (0–1) of numbers, nearest-rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** `serve` options of a scenario's server: any port, its own data and settings folders, its key. */
export function serveArgs(dir: string, key: string, poolSize: number, ...extra: string[]): string[] {
  return [
    '--port',
    '0',
    '--data-dir',
    dir,
    '--settings-dir',
    join(dir, 'config'),
    '--api-key',
    key,
    '--pool-size',
    String(poolSize),
    ...extra,
  ];
}

/** Runs ffmpeg decoding `paths` (each input to a null output); its exit code and error output. */
function decode(paths: string[]): Promise<{ code: number | null; stderr: string }> {
  const args = ['-v', 'error', '-nostdin'];
  for (const path of paths) args.push('-i', path);
  paths.forEach((_, i) => args.push('-map', `${i}:a`, '-f', 'null', '-'));
  return new Promise((resolve) => {
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (error) => resolve({ code: -1, stderr: error.message }));
    child.on('exit', (c) => resolve({ code: c, stderr: err }));
  });
}

/** Files per ffmpeg run: starting ffmpeg costs ≈ 85 ms of CPU, decoding a short file far less. */
const DECODE_BATCH = 25;

/**
 * Decodes every file with ffmpeg and returns the failures (a file that does not open, or any
 * error printed while decoding). Files go DECODE_BATCH to a run, two runs at a time; a run that
 * fails is repeated one file at a time, so each failure names its file.
 */
export async function ffmpegFailures(paths: string[]): Promise<string[]> {
  const failures: string[] = [];
  const batches: string[][] = [];
  for (let i = 0; i < paths.length; i += DECODE_BATCH) batches.push(paths.slice(i, i + DECODE_BATCH));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      const whole = await decode(batch);
      if (whole.code === 0 && whole.stderr.trim() === '') continue;
      const before = failures.length;
      for (const path of batch) {
        const { code, stderr } = await decode([path]);
        if (code !== 0 || stderr.trim() !== '')
          failures.push(`${path}: ${code} ${stderr.trim().slice(0, 200)}`);
      }
      if (failures.length === before)
        failures.push(
          `${batch.length} files from ${batch[0]}: ${whole.code} ${whole.stderr.trim().slice(0, 200)}`,
        );
    }
  };
  await Promise.all([worker(), worker()]);
  return failures;
}
