/**
 * Sample-level DSP benchmark: the volume limiter (`createVolumeProcessor`) and the loudness meter
 * (`createLoudnessMeter`) of this checkout against those of another revision, side by side in one
 * run, so that a change to their hot loops (such as splitting them into functions) is shown not
 * to slow them. Prints figures, never fails on time.
 *   npm run bench:dsp [-- --base <git revision>] [--runs 9] [--seconds 120]
 * The other revision's two source files are taken with `git show` into a temporary directory and
 * imported from there (default base: 10e9d09, the last revision before issue 41 split them).
 * Runs alternate between the two, after a warm-up of each; the figure is the median CPU time
 * (user + sys of this process) per run, and the ratio this/base (1.00: as fast; below: faster).
 * Each pair of runs must also give the same output, sample for sample and figure for figure.
 */

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as dspNow from '../electron/core/engine/audio/dsp';
import * as loudnessNow from '../electron/core/engine/export/loudness';
import { speechLike } from '../test/fixtures/speech-like';
import { fmt, median } from './lib';

const { values: args } = parseArgs({
  options: {
    base: { type: 'string', default: '10e9d09' },
    runs: { type: 'string', default: '9' },
    seconds: { type: 'string', default: '120' },
  },
});
const RUNS = Number(args.runs);
const SECONDS = Number(args.seconds);
const RATE = 22050;
/** The engine's chunk size, about 186 ms at 22050 Hz. */
const CHUNK = 4096;

const root = join(import.meta.dirname, '..');
const FILES = [
  'electron/core/engine/audio/dsp.ts',
  'electron/core/engine/audio/peak-scan.ts',
  'electron/core/engine/export/loudness.ts',
];

/** The base revision's DSP modules, imported from a copy of their files. */
async function loadBase(
  revision: string,
): Promise<{ dsp: typeof dspNow; loudness: typeof loudnessNow; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'dsp-bench-'));
  for (const file of FILES) {
    const text = execFileSync('git', ['show', `${revision}:${file}`], { cwd: root, encoding: 'utf8' });
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  const dsp = (await import(pathToFileURL(join(dir, FILES[0]!)).href)) as typeof dspNow;
  const loudness = (await import(pathToFileURL(join(dir, FILES[2]!)).href)) as typeof loudnessNow;
  return { dsp, loudness, dir };
}

/** CPU time (user + sys) of `fn`, ms, and what it returned. */
function cpuRun<T>(fn: () => T): { ms: number; value: T } {
  const start = process.cpuUsage();
  const value = fn();
  const used = process.cpuUsage(start);
  return { ms: (used.user + used.system) / 1000, value };
}

function limit(dsp: typeof dspNow, gain: number, pcm: Int16Array): Int16Array {
  const processor = dsp.createVolumeProcessor({ gain, sampleRate: RATE });
  const out = new Int16Array(pcm.length);
  let o = 0;
  for (let i = 0; i < pcm.length; i += CHUNK) {
    const part = processor.process(pcm.subarray(i, i + CHUNK));
    out.set(part, o);
    o += part.length;
  }
  out.set(processor.flush(), o);
  return out;
}

function measure(
  loudness: typeof loudnessNow,
  options: loudnessNow.LoudnessMeterOptions,
  pcm: Int16Array,
): string {
  const meter = loudness.createLoudnessMeter(RATE, options);
  for (let i = 0; i < pcm.length; i += CHUNK) meter.add(pcm.subarray(i, i + CHUNK));
  return JSON.stringify(meter.result());
}

function sameSamples(a: Int16Array, b: Int16Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

interface Case<T> {
  name: string;
  now: () => T;
  base: () => T;
  same: (a: T, b: T) => boolean;
}

function compare<T>(c: Case<T>): void {
  c.now();
  c.base();
  const now: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const b = cpuRun(c.base);
    const n = cpuRun(c.now);
    if (!c.same(n.value, b.value)) throw new Error(`${c.name}: output differs from the base revision's`);
    base.push(b.ms);
    now.push(n.ms);
  }
  const [mb, mn] = [median(base), median(now)];
  console.log(
    `${c.name.padEnd(34)} base ${fmt(mb, 1).padStart(7)} ms  this ${fmt(mn, 1).padStart(7)} ms  this/base ${fmt(mn / mb, 2)}`,
  );
}

const baseModules = await loadBase(args.base);
try {
  const pcm = speechLike(SECONDS, RATE, 41);
  console.log(
    `DSP: ${SECONDS} s of speech-like audio at ${RATE} Hz in chunks of ${CHUNK}; base ${args.base}; ` +
      `median CPU time of ${RUNS} alternating runs`,
  );
  for (const gain of [1, 0.8, 1.5]) {
    compare({
      name: `volume limiter, gain ${gain}`,
      now: () => limit(dspNow, gain, pcm),
      base: () => limit(baseModules.dsp, gain, pcm),
      same: sameSamples,
    });
  }
  const meters: [string, loudnessNow.LoudnessMeterOptions][] = [
    ['loudness meter, whole', {}],
    ['loudness meter, no true peak', { truePeak: false }],
    ['loudness meter, LUFS only', { only: 'lufs' }],
    ['loudness meter, RMS only', { only: 'rms' }],
  ];
  for (const [name, options] of meters) {
    compare({
      name,
      now: () => measure(loudnessNow, options, pcm),
      base: () => measure(baseModules.loudness, options, pcm),
      same: (a, b) => a === b,
    });
  }
} finally {
  rmSync(baseModules.dir, { recursive: true, force: true });
}
