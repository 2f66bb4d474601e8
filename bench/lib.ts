/** Small helpers shared by the benchmarks: timing, medians, native tool runs, sample texts. */

import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS } from '../electron/launch/server-node-flags';

/**
 * What `npm run say|serve|keys` runs: the launcher, which runs the compiled CLI
 * (dist/cli/narration-studio.js), rebuilding it first when a source changed.
 */
const CLI_LAUNCHER = join(import.meta.dirname, '..', 'electron', 'launch', 'cli.mjs');
/** The compiled entry itself (package.json "bin"), for timing a bare `node <entry> …`. */
export const CLI_ENTRY = join(import.meta.dirname, '..', 'dist', 'cli', 'narration-studio.js');

/**
 * Runs a CLI command (`keys create …`) to the end; resolves with its stdout. `entry` runs another
 * compiled CLI (another build's, whose database schema may be older) instead of this checkout's.
 */
export function runCli(args: string[], entry?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry ?? CLI_LAUNCHER, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}`)),
    );
  });
}

/**
 * Starts `serve --port 0 <args>` in its own process, with the Node flags `npm run serve` gives it
 * (server-node-flags.ts) unless `nodeFlags` says others; resolves once it listens, with its base URL.
 * `env` is added to this process's environment; `entry` runs another compiled CLI
 * (`…/dist/cli/narration-studio.js` of another build) instead of this checkout's.
 */
export async function startServe(
  args: string[],
  {
    env = {},
    entry = CLI_LAUNCHER,
    nodeFlags = SERVER_NODE_FLAGS,
  }: { env?: NodeJS.ProcessEnv; entry?: string; nodeFlags?: readonly string[] } = {},
): Promise<{ server: ChildProcess; base: string }> {
  const server = spawn(process.execPath, [...nodeFlags, entry, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)\n/.exec(out);
      if (m) resolve(m[1]!);
    });
    server.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  return { server, base };
}

/**
 * Stops a server started with startServe: SIGTERM (it shuts down in order), then SIGKILL when it
 * has not exited within `graceMs`. Resolves once it has exited.
 */
export async function stopServer(server: ChildProcess, graceMs = 10_000): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  if ((await Promise.race([exited, late])) === 'late') {
    server.kill('SIGKILL');
    await exited;
  }
  clearTimeout(timer);
}

let clockTicks: number | undefined;

/** CPU time (user + system, every thread) a process has used so far, s; undefined off Linux. */
export function cpuSeconds(pid: number): number | undefined {
  const path = `/proc/${pid}/stat`;
  if (!existsSync(path)) return undefined;
  try {
    // Fields after the command name (which may hold spaces, in parentheses): utime is the 12th, stime the 13th.
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    clockTicks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return undefined;
  }
}

/** The machine's CPU counters so far (/proc/stat, all cores): busy and total ticks; undefined off Linux. */
export function machineTicks(): { busy: number; total: number } | undefined {
  if (!existsSync('/proc/stat')) return undefined;
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const values = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  const idle = values[3]! + values[4]!; // idle + iowait
  return { busy: total - idle, total };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function timeRuns(runs: number, fn: () => Promise<unknown> | unknown): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times;
}

/**
 * Each variant's times over `runs` runs, the variants alternated run by run (A, B, A, B, …) so
 * that a shared machine's load falls on them alike: `times[i]` are `variants[i]`'s, in ms.
 */
export async function timeAlternated<T>(
  runs: number,
  variants: readonly T[],
  fn: (variant: T) => Promise<unknown> | unknown,
): Promise<number[][]> {
  const times: number[][] = variants.map(() => []);
  for (let r = 0; r < runs; r++)
    for (const [i, variant] of variants.entries()) times[i]!.push(...(await timeRuns(1, () => fn(variant))));
  return times;
}

/** True when a command exists on PATH. */
export function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
}

/** Runs a command and returns its wall time in ms (throws if it fails). */
export function timeCommand(command: string, args: string[]): number {
  const t0 = performance.now();
  execFileSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  return performance.now() - t0;
}

/** A sample text from assets/samples, repeated until it has at least `chars` characters, cut at a paragraph. */
export function sampleText(file: 'en-chapter.txt' | 'vi-story.txt', chars: number): string {
  const base = readFileSync(new URL(`../assets/samples/${file}`, import.meta.url), 'utf8').trim();
  const parts: string[] = [];
  let length = 0;
  for (let i = 1; length < chars; i++) {
    parts.push(base.replace(/^(Chapter|Chương) [^:\n]+/, `$1 ${i}`));
    length += base.length + 2;
  }
  return parts.join('\n\n').slice(0, chars);
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
