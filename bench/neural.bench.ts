/**
 * Neural voice benchmark: prints figures, never fails on time.
 *   npm run bench:neural [-- --quick] [-- --voices-dir <folder>]
 * Real-time factor (compute time / audio time) and first-audio latency of a Piper voice on
 * compute stand-ins with random weights and Piper's layer sizes (bench/piper-standin.ts), for
 * onnxruntime intra-op threads 1 and 2: the model alone (one sentence per run) and the whole
 * pipeline (engine.render of about 30 s of speech to MP3; first audio = the first chunk
 * written). Then the same pipeline figures for real voices in --voices-dir (each
 * `<name>.onnx` with its `<name>.onnx.json`). Medians of 3 runs (1 with --quick).
 */

import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { createEngine } from '../electron/core/engine/create-engine';
import type { Engine, NeuralVoice } from '../electron/core/engine/engine';
import { openPiperModel } from '../electron/core/engine/onnx/piper-model';
import { DEFAULT_SYNTHESIS } from '../electron/shared/options';
import { piperConfig } from '../test/fixtures/onnx/piper-config';
import { fmt, median, sampleText } from './lib';
import { buildPiperStandIn, PIPER_DECODERS } from './piper-standin';

const quick = process.argv.includes('--quick');
const RUNS = quick ? 1 : 3;
const THREADS = [1, 2];
const voicesDirArg = process.argv.indexOf('--voices-dir');
const voicesDir = voicesDirArg > 0 ? process.argv[voicesDirArg + 1] : undefined;
const dir = mkdtempSync(join(tmpdir(), 'bench-neural-'));
/** About 30 s of speech at the stand-ins' pace. */
const TEXT = sampleText('en-chapter.txt', 330);
/** One sentence's ids as Piper lays them out (`^`, phoneme `_` …, `$`): 60 phonemes, ~5 s. */
const SENTENCE_IDS = [1, 0, ...Array.from({ length: 60 }, (_, i) => [20 + ((i * 7) % 60), 0]).flat(), 2];

const rows: string[][] = [['voice', 'what', 'threads', 'audio s', 'median ms', 'RTF', 'first audio ms']];
/** Adds a row of figures, and prints it at once (the table follows at the end). */
function report(row: string[]): void {
  rows.push(row);
  console.log(`  ${row.join(' | ')}`);
}
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
console.log(
  `neural benchmark: ${availableParallelism()} cores, load average ${load()}, ${RUNS} runs per figure (median), Node ${process.version}`,
);

/** The model alone: one sentence per run; its time is also its first-audio latency. */
async function modelAlone(label: string, modelPath: string, sampleRate: number) {
  for (const threads of THREADS) {
    const model = await openPiperModel(modelPath, { intraOpNumThreads: threads });
    try {
      const run = () => model.run({ ids: SENTENCE_IDS, lengthScale: 1, noiseScale: 0.667, noiseW: 0.8 });
      const { audio } = await run(); // warm-up
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        await run();
        times.push(performance.now() - t0);
      }
      const ms = median(times);
      const seconds = audio.length / sampleRate;
      report([
        label,
        'model, one sentence',
        `${threads}`,
        fmt(seconds, 1),
        fmt(ms),
        fmt(ms / 1000 / seconds, 3),
        fmt(ms),
      ]);
    } finally {
      await model.close();
    }
  }
}

/** The whole pipeline: engine.render of TEXT to MP3 with the voice, per thread count. */
async function pipeline(label: string, voice: NeuralVoice) {
  for (const threads of THREADS) {
    const engine: Engine = await createEngine({ poolSize: 2, neuralThreads: threads });
    try {
      const renderOnce = async () => {
        const t0 = performance.now();
        let first = 0;
        const result = await engine.render({
          ...DEFAULT_SYNTHESIS,
          voice_code: 'en_female_emily_us',
          audio_type: 'mp3',
          bitrate: 64,
          text: TEXT,
          audioPath: join(dir, 'out.mp3'),
          neuralVoice: voice,
          onProgress: () => {
            first ||= performance.now() - t0;
          },
        });
        return { ms: performance.now() - t0, first, result };
      };
      const warm = await renderOnce(); // opens the model
      if (!warm.result.engine.startsWith('piper:')) {
        report([
          label,
          'pipeline',
          `${threads}`,
          '',
          '',
          `spoken by ${warm.result.engine}, not the voice`,
          '',
        ]);
        continue;
      }
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await renderOnce());
      const ms = median(runs.map((r) => r.ms));
      const seconds = warm.result.durationMs / 1000;
      report([
        label,
        'pipeline, ~30 s to MP3',
        `${threads}`,
        fmt(seconds, 1),
        fmt(ms),
        fmt(ms / 1000 / seconds, 3),
        fmt(median(runs.map((r) => r.first))),
      ]);
    } finally {
      await engine.close();
    }
  }
}

for (const [name, sizes] of Object.entries(PIPER_DECODERS)) {
  const { bytes, parameters } = buildPiperStandIn(sizes);
  const modelPath = join(dir, `standin-${basename(name.split(' ')[0]!)}.onnx`);
  writeFileSync(modelPath, bytes);
  writeFileSync(`${modelPath}.json`, JSON.stringify(piperConfig({ sampleRate: 22050 })));
  const label = `stand-in ${name}, ${fmt(parameters / 1e6, 1)} M weights`;
  await modelAlone(label, modelPath, 22050);
  await pipeline(label, {
    family: 'piper',
    packId: 'standin',
    modelPath,
    configPath: `${modelPath}.json`,
    speaker: 0,
  });
}

const realVoices = voicesDir
  ? readdirSync(resolve(voicesDir))
      .filter((f) => f.endsWith('.onnx') && existsSync(join(resolve(voicesDir), `${f}.json`)))
      .map((f) => join(resolve(voicesDir), f))
  : [];
for (const modelPath of realVoices) {
  const label = basename(modelPath, '.onnx');
  await pipeline(label, {
    family: 'piper',
    packId: label,
    modelPath,
    configPath: `${modelPath}.json`,
    speaker: 0,
  });
}

const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
console.log(`load average after: ${load()}`);
if (!voicesDir)
  console.log(
    'real voices: none measured (give a folder of <name>.onnx + <name>.onnx.json with --voices-dir)',
  );
else if (realVoices.length === 0)
  console.log(`real voices: none in ${voicesDir} (no <name>.onnx with <name>.onnx.json)`);
rmSync(dir, { recursive: true, force: true });
