/** Small helpers shared by the benchmarks: timing, medians, native tool runs, sample texts. */

import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

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
