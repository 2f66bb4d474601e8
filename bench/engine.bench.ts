/**
 * Engine benchmark: prints figures, never fails on time.
 *   npm run bench:engine [-- --quick] [-- --skip-memory] [-- --baseline <commit>]
 * Characters/s and real-time factor for one worker and for the pool (English 20,000 and
 * Vietnamese 5,000 characters), each model profile, native espeak-ng on the same text and
 * voice in the same run, MP3 encoding against native lame, and peak memory for a
 * 1,000,000-character text (in a child process, so its RSS is its own).
 * `--baseline <commit>` also renders the cases with that commit's engine (its source, imported
 * from a worktree: baseline.ts), run for run alternated with this one's, and prints the ratio.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../electron/core/engine/create-engine';
import type { Engine } from '../electron/core/engine/engine';
import { MODEL_IDS, type ModelId } from '../electron/shared/options';
import { checkoutBaseline, importFromBaseline, type BaselineTree } from './baseline';
import { fmt, hasCommand, median, sampleText, timeAlternated, timeCommand } from './lib';

const quick = process.argv.includes('--quick');
const baselineAt = process.argv.indexOf('--baseline');
const baseline: BaselineTree | undefined =
  baselineAt > 0 ? checkoutBaseline(process.argv[baselineAt + 1] ?? 'HEAD~1') : undefined;
const RUNS = quick ? 1 : 3;
const dir = mkdtempSync(join(tmpdir(), 'bench-engine-'));

interface Case {
  label: string;
  text: string;
  voice: string;
  /** Native espeak-ng voice with the same variant and amplitude. */
  native: string;
}

const cases: Case[] = [
  {
    label: 'English 20,000 chars',
    text: sampleText('en-chapter.txt', 20_000),
    voice: 'en_female_nova_default',
    native: 'en-us+f3',
  },
  {
    label: 'Vietnamese 5,000 chars',
    text: sampleText('vi-story.txt', 5_000),
    voice: 'vi_female_thuytrang_mb',
    native: 'vi+f2',
  },
];

async function renderOnce(engine: Engine, c: Case, model: ModelId = 'std-v1.6') {
  return engine.render({
    text: c.text,
    voice_code: c.voice,
    model_id: model,
    audio_type: 'wav',
    bitrate: 128,
    speed_rate: 1,
    pitch_rate: 1,
    volume: 100,
    audioPath: join(dir, 'out.wav'),
  });
}

/** Each engine's median over RUNS renders of the case, the engines' runs alternated. */
async function measure(engines: Engine[], c: Case, model: ModelId = 'std-v1.6') {
  const results: Awaited<ReturnType<typeof renderOnce>>[] = [];
  for (const engine of engines) results.push(await renderOnce(engine, c, model));
  const times = await timeAlternated(RUNS, engines, (engine) => renderOnce(engine, c, model));
  return engines.map((_, i) => {
    const ms = median(times[i]!);
    return { ms, charsPerSec: (c.text.length / ms) * 1000, rtf: results[i]!.durationMs / ms };
  });
}

const rows: string[][] = [['case', 'engine', 'median ms', 'chars/s', '× real time', 'ours/native']];
const cores = availableParallelism();
console.log(`engine benchmark: ${cores} cores, ${RUNS} runs per figure (median), Node ${process.version}`);

if (baseline) console.log(`beside the baseline ${baseline.label}`);
const createBaselineEngine = baseline
  ? (
      await importFromBaseline<{ createEngine: typeof createEngine }>(
        baseline,
        'electron/core/engine/create-engine.ts',
      )
    ).createEngine
  : undefined;
const one = await createEngine({ poolSize: 1 });
const pool = await createEngine({ poolSize: cores });
const baselineOne = await createBaselineEngine?.({ poolSize: 1 });
const baselinePool = await createBaselineEngine?.({ poolSize: cores });
for (const c of cases) {
  const [single, singleBefore] = await measure(baselineOne ? [one, baselineOne] : [one], c);
  const [all, allBefore] = await measure(baselinePool ? [pool, baselinePool] : [pool], c);
  let native: number | undefined;
  if (hasCommand('espeak-ng')) {
    const file = join(dir, 'native.txt');
    writeFileSync(file, c.text);
    const args = ['-v', c.native, '-a', '60', '-s', '175', '-w', join(dir, 'native.wav'), '-f', file];
    timeCommand('espeak-ng', args);
    native = median(Array.from({ length: RUNS }, () => timeCommand('espeak-ng', args)));
    const nativeAudioS = (statSync(join(dir, 'native.wav')).size - 44) / 2 / 22050;
    rows.push([
      c.label,
      'native espeak-ng (1 process)',
      fmt(native),
      fmt((c.text.length / native) * 1000),
      fmt((nativeAudioS * 1000) / native),
      '1.00',
    ]);
  }
  const ratio = (ms: number) => (native ? fmt(native / ms, 2) : 'n/a');
  rows.push([
    c.label,
    'ours, 1 worker',
    fmt(single!.ms),
    fmt(single!.charsPerSec),
    fmt(single!.rtf),
    ratio(single!.ms),
  ]);
  rows.push([
    c.label,
    `ours, pool of ${cores}`,
    fmt(all!.ms),
    fmt(all!.charsPerSec),
    fmt(all!.rtf),
    ratio(all!.ms),
  ]);
  for (const [label, now, before] of [
    ['1 worker', single!, singleBefore],
    [`pool of ${cores}`, all!, allBefore],
  ] as const) {
    if (!before) continue;
    rows.push([
      c.label,
      `baseline, ${label} (this build: ×${fmt(before.ms / now.ms, 2)} its speed)`,
      fmt(before.ms),
      fmt(before.charsPerSec),
      fmt(before.rtf),
      ratio(before.ms),
    ]);
  }
}
await one.close();
await baselineOne?.close();
await baselinePool?.close();

const modelRows: string[][] = [['model_id', 'median ms', 'chars/s', '× real time', 'vs std-v1.6']];
const english = cases[0]!;
// The warm-up render of each model also gives its audio duration (the same for every round).
const audioMs = new Map<ModelId, number>();
for (const m of MODEL_IDS) audioMs.set(m, (await renderOnce(pool, english, m)).durationMs);
// Interleave the models across rounds so machine noise hits them alike.
const samples = await timeAlternated(Math.max(5, RUNS), MODEL_IDS, (m) => renderOnce(pool, english, m));
const byModel = new Map<ModelId, number>(MODEL_IDS.map((m, i) => [m, median(samples[i]!)]));
for (const m of MODEL_IDS) {
  const ms = byModel.get(m)!;
  const audio = audioMs.get(m)!;
  modelRows.push([
    m,
    fmt(ms),
    fmt((english.text.length / ms) * 1000),
    fmt(audio / ms),
    `${fmt(byModel.get('std-v1.6')! / ms, 2)}×`,
  ]);
}
await pool.close();

function table(data: string[][]): string {
  const widths = data[0]!.map((_, i) => Math.max(...data.map((r) => r[i]!.length)));
  return data
    .map(
      (r, j) =>
        `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |${j === 0 ? `\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|` : ''}`,
    )
    .join('\n');
}

console.log('\nSynthesis to WAV (speech only, no encoding):');
console.log(table(rows));
console.log('\nModel profiles (English 20,000 chars, pool):');
console.log(table(modelRows));

try {
  const { runEncodeBench } = await import('./encode.bench');
  console.log('\nMP3 encoding:');
  await runEncodeBench();
} catch (error) {
  console.log(`\nMP3 encoding: skipped (${(error as Error).message})`);
}

if (process.argv.includes('--skip-memory')) {
  console.log('\nPeak memory: skipped (--skip-memory)');
} else {
  console.log(
    '\nPeak memory, 1,000,000 characters to MP3 128 kbps (child process, pool of',
    cores,
    'workers):',
  );
  const chars = quick ? 200_000 : 1_000_000;
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', new URL('./memory-child.ts', import.meta.url).pathname, String(chars), dir],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  console.log(out.trim());
}
rmSync(dir, { recursive: true, force: true });
baseline?.remove();
