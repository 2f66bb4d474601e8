/**
 * MP3 encoding benchmark: prints figures, never fails on time.
 *   npx tsx bench/encode.bench.ts [--quick]
 * Encodes about 60 s of real engine speech at 128 and 32 kbps with our encoder (LAME in
 * WASM, through the streaming file sink, fed in the engine's chunk size) and with native
 * `lame` on the same PCM from a raw file, 5 runs each after one warm-up, and prints median
 * wall and CPU times, the real-time factor and the ratio ours/native (goal: ≤ 1.2×).
 * The ratio uses CPU time against `lame --noreplaygain` (the same work: our encoder does no
 * ReplayGain analysis), because wall time on a shared machine mostly measures the others.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Bitrate } from '../electron/shared/options';
import { ESPEAK_SAMPLE_RATE } from '../electron/core/engine/espeak/protocol';
import { createMp3Sink, encodeMp3 } from '../electron/core/engine/audio/mp3';
import { ENGINE_AMPLITUDE } from '../electron/core/engine/espeak/prosody';
import { fmt, hasCommand, median, sampleText } from './lib';

/** Median wall and CPU time of one way of encoding, ms. */
export interface EncodeTiming {
  wallMs: number;
  cpuMs: number;
}

export interface EncodeBenchRow {
  bitrate: Bitrate;
  /** Seconds of audio encoded per run. */
  audioSeconds: number;
  /** Our streaming file sink, fed in the engine's chunk size. */
  ours: EncodeTiming;
  /** Our in-memory encoder, whole buffer. */
  oursInMemory: EncodeTiming;
  /** Native lame as the brief's command line runs it (ReplayGain analysis on, its default). */
  native?: EncodeTiming;
  /** Native lame with --noreplaygain: the same work as ours. */
  nativeSameWork?: EncodeTiming;
  /** ours.cpuMs / nativeSameWork.cpuMs: the figure compared with the 1.2× goal. */
  ratio?: number;
  /** The same ratio between the fastest runs (least disturbed by other processes). */
  bestRatio?: number;
  oursBytes: number;
  nativeBytes?: number;
}

export interface EncodeBenchOptions {
  /** Timed runs per figure (median); default 5. */
  runs?: number;
  /** Seconds of speech to encode; default 60. */
  seconds?: number;
  /** Print a table to stdout; default true. */
  print?: boolean;
}

/** How native lame reads our raw PCM: 22050 Hz, 16-bit signed little-endian, mono. */
const LAME_RAW_INPUT = '-r -s 22.05 --bitwidth 16 -m m --signed --little-endian';

/** eSpeak hands out audio in chunks of this many samples; the pipeline writes similar sizes. */
const ENGINE_CHUNK = 2206;

type Espeak = {
  set_voice(name: string): number;
  set_volume(volume: number): void;
  synthesize(text: string, callback: (samples: Int16Array) => number): void;
};

/** About `seconds` of real English speech at the pipeline's engine amplitude. */
async function speech(seconds: number): Promise<Int16Array> {
  const { default: load } = (await import('@echogarden/espeak-ng-emscripten')) as unknown as {
    default: () => Promise<{ eSpeakNGWorker: new () => Espeak }>;
  };
  const espeak = new (await load()).eSpeakNGWorker();
  espeak.set_voice('en-us+f3');
  espeak.set_volume(ENGINE_AMPLITUDE);
  const parts: Int16Array[] = [];
  espeak.synthesize(sampleText('en-chapter.txt', 1200), (samples) => {
    parts.push(samples.slice());
    return 0;
  });
  const once = parts.reduce((n, p) => n + p.length, 0);
  const out = new Int16Array(Math.round(seconds * ESPEAK_SAMPLE_RATE));
  // Repeat the passage until the target length is reached.
  for (let offset = 0; offset < out.length;) {
    for (const p of parts) {
      if (offset >= out.length) break;
      const n = Math.min(p.length, out.length - offset);
      out.set(p.subarray(0, n), offset);
      offset += n;
    }
    if (once === 0) break;
  }
  return out;
}

/** Wall and CPU time (this process, all threads) of one in-process run. */
export async function timeInProcess(fn: () => Promise<unknown>): Promise<EncodeTiming> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Wall and CPU time of a shell command line, CPU from bash's `times` (children's user + system). */
export function timeChild(command: string): EncodeTiming {
  const t0 = performance.now();
  const out = execFileSync('bash', ['-c', `${command} 2>/dev/null; times`], { encoding: 'utf8' });
  const wallMs = performance.now() - t0;
  // `times` prints the shell's user/system times, then its children's.
  const seconds = [...out.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  if (seconds.length < 4) throw new Error(`unexpected output of times: ${out}`);
  return { wallMs, cpuMs: (seconds[2]! + seconds[3]!) * 1000 };
}

function medianTiming(timings: EncodeTiming[]): EncodeTiming {
  return { wallMs: median(timings.map((t) => t.wallMs)), cpuMs: median(timings.map((t) => t.cpuMs)) };
}

/** Runs the benchmark; prints a table unless `print` is false. */
export async function runEncodeBench(options: EncodeBenchOptions = {}): Promise<EncodeBenchRow[]> {
  const runs = options.runs ?? 5;
  const seconds = options.seconds ?? 60;
  const dir = mkdtempSync(join(tmpdir(), 'bench-encode-'));
  const log = options.print === false ? () => undefined : (line: string) => console.log(line);
  try {
    const pcm = await speech(seconds);
    const audioSeconds = pcm.length / ESPEAK_SAMPLE_RATE;
    const raw = join(dir, 'in.raw');
    writeFileSync(raw, new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
    const withLame = hasCommand('lame');
    const rows: EncodeBenchRow[] = [];

    for (const bitrate of [128, 32] as const) {
      const out = join(dir, `ours-${bitrate}.mp3`);
      const ours = async () => {
        const sink = await createMp3Sink(out, { sampleRate: ESPEAK_SAMPLE_RATE, bitrate });
        for (let offset = 0; offset < pcm.length; offset += ENGINE_CHUNK) {
          await sink.write(pcm.subarray(offset, offset + ENGINE_CHUNK));
        }
        await sink.finish();
      };
      const inMemory = () => encodeMp3(pcm, { sampleRate: ESPEAK_SAMPLE_RATE, bitrate });
      const nativeOut = join(dir, `native-${bitrate}.mp3`);
      // The brief's command line; --resample keeps native lame at 22050 Hz as ours is (it
      // would pick a lower rate by itself at 8 and 16 kbps).
      const lame = (extra: string) =>
        `lame --quiet ${extra} ${LAME_RAW_INPUT} -b ${bitrate} --cbr --resample 22.05 '${raw}' '${nativeOut}'`;

      const samples: Record<'ours' | 'inMemory' | 'native' | 'nativeSameWork', EncodeTiming[]> = {
        ours: [],
        inMemory: [],
        native: [],
        nativeSameWork: [],
      };
      // Untimed warm-ups (WASM tiers up to optimised code in the background during the first
      // runs), then the contenders alternate so that load from other processes hits them alike.
      for (let i = 0; i < 2; i++) {
        await ours();
        await inMemory();
      }
      for (let run = 0; run < runs; run++) {
        samples.ours.push(await timeInProcess(ours));
        samples.inMemory.push(await timeInProcess(inMemory));
        if (withLame) {
          samples.native.push(timeChild(lame('')));
          samples.nativeSameWork.push(timeChild(lame('--noreplaygain')));
        }
      }
      const row: EncodeBenchRow = {
        bitrate,
        audioSeconds,
        ours: medianTiming(samples.ours),
        oursInMemory: medianTiming(samples.inMemory),
        oursBytes: statSync(out).size,
      };
      if (withLame) {
        row.native = medianTiming(samples.native);
        row.nativeSameWork = medianTiming(samples.nativeSameWork);
        row.ratio = row.ours.cpuMs / row.nativeSameWork.cpuMs;
        const best = (timings: EncodeTiming[]) => Math.min(...timings.map((t) => t.cpuMs));
        row.bestRatio = best(samples.ours) / best(samples.nativeSameWork);
        row.nativeBytes = statSync(nativeOut).size;
      }
      rows.push(row);
    }

    log(
      `MP3 encoding of ${fmt(audioSeconds, 1)} s of engine speech (22050 Hz mono), median of ${runs} runs, wall / CPU:`,
    );
    const cell = (t: EncodeTiming | undefined, seconds: number) =>
      t ? `${fmt(t.wallMs)} / ${fmt(t.cpuMs)} ms, ${fmt(seconds / (t.cpuMs / 1000))}×` : 'n/a (no lame)';
    const header = [
      'bitrate',
      'ours: file sink',
      'ours: in memory',
      'native lame',
      'native --noreplaygain',
      'ours / native (CPU)',
      'best runs',
    ];
    const lines = rows.map((r) => [
      `${r.bitrate} kbps`,
      cell(r.ours, r.audioSeconds),
      cell(r.oursInMemory, r.audioSeconds),
      cell(r.native, r.audioSeconds),
      cell(r.nativeSameWork, r.audioSeconds),
      r.ratio === undefined || !r.native
        ? 'n/a'
        : `${fmt(r.ratio, 2)} (${fmt(r.ours.cpuMs / r.native.cpuMs, 2)} vs default lame)`,
      r.bestRatio === undefined ? 'n/a' : fmt(r.bestRatio, 2),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
    const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
    log(row(header));
    log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    for (const l of lines) log(row(l));
    log('(× = times real time from CPU time; CPU time is the fair figure on a busy machine,');
    log(' wall time includes waiting for a core; native includes process start and reading the raw file)');
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runEncodeBench({ runs: process.argv.includes('--quick') ? 1 : 5 });
}
