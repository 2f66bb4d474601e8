/**
 * Book export speed: mastering and encoding a book to M4B (AAC) and MP3, against Debian's ffmpeg
 * on the same audio as a yardstick. Prints figures, never fails on time.
 *   npm run bench:export [-- --minutes 30 --runs 3]
 *
 * The book: real engine speech (eSpeak NG reading assets/samples/en-chapter.txt, about 3 minutes,
 * repeated), brought to 24 kHz mono as the neural voices speak, cut into chapters of about five
 * minutes, each a WAV file, as a book project's chapters are. Ours: `exportChapterWavs` with the
 * ACX preset (resampled to 44.1 kHz, level search, limiter, room tone, measured, encoded, chapters
 * and tags written), the whole of a project export after its render. ffmpeg: the same WAVs joined
 * in one file, `loudnorm` (one pass, EBU R 128), resampled to 44.1 kHz, `-c:a aac -b:a 128k` /
 * `-c:a libmp3lame -b:a 192k`: less work than ours (no second look at the level, no report, no
 * chapters) but the same kind. Medians of `--runs` runs after a warm-up; wall time and CPU time
 * (every thread) and times real time from each. On a busy shared machine the wall time measures
 * the others as well: CPU time is the fair comparison, and wall time what a user waits.
 *
 * Then where the time of ours goes, from one run of each step on its own: bringing the chapters to
 * 44.1 kHz (resampling, the chapters on every core at once as the export does it), the mastering's passes (DSP: level search, limiter, room tone, meter),
 * the encoder (AAC: every part at once; MP3: LAME), and the MP4 join and chapter boxes (muxing).
 */

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESPEAK_SAMPLE_RATE } from '../electron/core/engine/espeak/protocol';
import { ENGINE_AMPLITUDE } from '../electron/core/engine/espeak/prosody';
import { createEncoderSink } from '../electron/core/engine/audio/encoder-sink';
import { createResampler } from '../electron/core/engine/audio/resampler';
import { createWavSink } from '../electron/core/engine/audio/wav';
import { exportChapterWavs } from '../electron/core/engine/export/book-export';
import { createM4bSink } from '../electron/core/engine/export/m4b';
import { resampleChapters } from '../electron/core/engine/export/parallel-resampling';
import { masterFile, PRESETS, type PcmSource } from '../electron/core/engine/export/mastering';
import { timeChild, timeInProcess, type EncodeTiming } from './encode.bench';
import { fmt, hasCommand, median, sampleText } from './lib';

/** The voices' rate: the book's chapters are WAVs at this rate. */
const VOICE_RATE = 24000;
/** Length of a chapter, s. */
const CHAPTER_SECONDS = 300;
const PRESET = PRESETS.acx;
const OUTPUT_RATE = PRESET.sampleRate!;

type Espeak = {
  set_voice(name: string): number;
  set_volume(volume: number): void;
  synthesize(text: string, callback: (samples: Int16Array) => number): void;
};

type Timing = EncodeTiming;

/** About three minutes of real English speech at 24 kHz. */
async function speech(): Promise<Int16Array> {
  const { default: load } = (await import('@echogarden/espeak-ng-emscripten')) as unknown as {
    default: () => Promise<{ eSpeakNGWorker: new () => Espeak }>;
  };
  const espeak = new (await load()).eSpeakNGWorker();
  espeak.set_voice('en-us+f3');
  espeak.set_volume(ENGINE_AMPLITUDE);
  const resampler = await createResampler(ESPEAK_SAMPLE_RATE, VOICE_RATE);
  const parts: Int16Array[] = [];
  espeak.synthesize(sampleText('en-chapter.txt', 3000), (samples) => {
    parts.push(resampler.process(samples));
    return 0;
  });
  parts.push(resampler.flush());
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The book's chapters as WAV files in `dir` (the speech repeated), and the whole book as one WAV. */
async function writeBook(dir: string, minutes: number): Promise<{ chapters: string[]; whole: string }> {
  const voice = await speech();
  const total = Math.round(minutes * 60 * VOICE_RATE);
  const perChapter = CHAPTER_SECONDS * VOICE_RATE;
  const whole = join(dir, 'book.wav');
  const wholeSink = await createWavSink(whole, VOICE_RATE);
  const chapters: string[] = [];
  let at = 0;
  for (let n = 0; at < total; n++) {
    const path = join(dir, `chapter-${n + 1}.wav`);
    const sink = await createWavSink(path, VOICE_RATE);
    const end = Math.min(total, at + perChapter);
    while (at < end) {
      const from = at % voice.length;
      const block = voice.subarray(from, Math.min(voice.length, from + (end - at)));
      await sink.write(block);
      await wholeSink.write(block);
      at += block.length;
    }
    await sink.finish();
    chapters.push(path);
  }
  await wholeSink.finish();
  return { chapters, whole };
}

const medianOf = (timings: Timing[]): Timing => ({
  wallMs: median(timings.map((t) => t.wallMs)),
  cpuMs: median(timings.map((t) => t.cpuMs)),
});

/** Raw files (`samples[i]` samples in `rawPaths[i]`) read in blocks one after another, as a mastering source. */
function rawSource(rawPaths: readonly string[], samples: readonly number[]): PcmSource {
  return async function* () {
    for (const [i, rawPath] of rawPaths.entries()) {
      const handle = await open(rawPath, 'r');
      try {
        for (let at = 0; at < samples[i]!; at += 65536) {
          const count = Math.min(65536, samples[i]! - at);
          const bytes = new Uint8Array(count * 2);
          await handle.read(bytes, 0, bytes.length, at * 2);
          yield new Int16Array(bytes.buffer);
        }
      } finally {
        await handle.close();
      }
    }
  };
}

/** Where one export's time goes, ms: each step run on its own. */
async function split(
  dir: string,
  chapters: readonly string[],
): Promise<Record<'m4b' | 'mp3', Record<'resample' | 'master' | 'encode' | 'mux', Timing>>> {
  const jobs = chapters.map((wav, i) => ({
    wavPaths: [wav],
    gapSamples: 0,
    rawPath: join(dir, `split-${i}.raw`),
    rate: OUTPUT_RATE,
  }));
  const mastered = join(dir, 'split-mastered.raw');
  let counts: number[] = [];
  // As the export does it: the chapters on every core at once.
  const resample = await timeInProcess(async () => (counts = await resampleChapters(jobs)));
  const samples = counts.reduce((n, c) => n + c, 0);
  // The mastering's DSP, writing to a raw file (what the M4B sink does with it too).
  const out = await open(mastered, 'w');
  const master = await timeInProcess(() =>
    masterFile(
      rawSource(
        jobs.map((job) => job.rawPath),
        counts,
      ),
      OUTPUT_RATE,
      PRESET,
      async (pcm) => {
        await out.write(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
      },
    ),
  );
  await out.close();
  const chapterMs = CHAPTER_SECONDS * 1000;
  const timings = { encodeMs: 0, muxMs: 0 };
  const m4b = await createM4bSink(join(dir, 'split.m4b'), {
    sampleRate: OUTPUT_RATE,
    bitrate: PRESET.aacBitrate,
    chapters: chapters.map((_, i) => ({
      title: `${i + 1}`,
      startMs: i * chapterMs,
      endMs: (i + 1) * chapterMs,
    })),
    tempDir: dir,
    timings,
  });
  const aac = await timeInProcess(async () => {
    for await (const block of rawSource([mastered], [samples])()) await m4b.write(block);
    await m4b.finish();
  });
  // The CPU of the join is small (reading and writing packets): counted with the encoding's.
  const mux = { wallMs: aac.wallMs - timings.encodeMs, cpuMs: 0 };
  const mp3 = await createEncoderSink(join(dir, 'split.mp3'), 'mp3', {
    sampleRate: OUTPUT_RATE,
    bitrate: PRESET.mp3Bitrate,
  });
  const lame = await timeInProcess(async () => {
    for await (const block of rawSource([mastered], [samples])()) await mp3.write(block);
    await mp3.finish();
  });
  return {
    m4b: { resample, master, encode: { wallMs: timings.encodeMs, cpuMs: aac.cpuMs }, mux },
    mp3: { resample, master, encode: lame, mux: { wallMs: 0, cpuMs: 0 } },
  };
}

export async function runExportBench(options: { minutes: number; runs: number }): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-export-'));
  try {
    const { chapters, whole } = await writeBook(dir, options.minutes);
    const audioSeconds = (statSync(whole).size - 44) / 2 / VOICE_RATE;
    const withFfmpeg = hasCommand('ffmpeg');
    console.log(
      `Book: ${fmt(audioSeconds / 60, 1)} min of engine speech at ${VOICE_RATE} Hz mono in ${chapters.length} chapters; ` +
        `preset ${PRESET.name} (${OUTPUT_RATE} Hz, AAC ${PRESET.aacBitrate / 1000}k, MP3 ${PRESET.mp3Bitrate}k); ` +
        `${availableParallelism()} cores; median of ${options.runs} runs after a warm-up.`,
    );
    const ours = (format: 'm4b' | 'mp3') => () =>
      exportChapterWavs({
        chapters: chapters.map((wav, i) => ({ title: `Chapter ${i + 1}`, wavPaths: [wav] })),
        preset: PRESET.name,
        format,
        title: 'Bench',
        outPath: join(dir, `ours.${format}`),
      });
    const ffmpeg = (format: 'm4b' | 'mp3') =>
      `ffmpeg -v error -y -i '${whole}' -af loudnorm=I=-20:TP=-3:LRA=11 -ar ${OUTPUT_RATE} ` +
      (format === 'm4b'
        ? `-c:a aac -b:a ${PRESET.aacBitrate / 1000}k -f mp4 '${join(dir, 'ffmpeg.m4b')}'`
        : `-c:a libmp3lame -b:a ${PRESET.mp3Bitrate}k '${join(dir, 'ffmpeg.mp3')}'`);

    const rows: string[][] = [];
    for (const format of ['m4b', 'mp3'] as const) {
      await ours(format)();
      const runs: Record<'ours' | 'ffmpeg', Timing[]> = { ours: [], ffmpeg: [] };
      for (let run = 0; run < options.runs; run++) {
        runs.ours.push(await timeInProcess(ours(format)));
        if (withFfmpeg) runs.ffmpeg.push(timeChild(ffmpeg(format)));
      }
      const o = medianOf(runs.ours);
      const f = withFfmpeg ? medianOf(runs.ffmpeg) : undefined;
      const x = (ms: number) => `${fmt(audioSeconds / (ms / 1000), 1)}×`;
      rows.push([
        format === 'm4b' ? 'M4B (AAC)' : 'MP3',
        `${fmt(o.wallMs / 1000, 1)} s = ${x(o.wallMs)}`,
        `${fmt(o.cpuMs / 1000, 1)} s = ${x(o.cpuMs)}`,
        f ? `${fmt(f.wallMs / 1000, 1)} s = ${x(f.wallMs)}` : 'n/a (no ffmpeg)',
        f ? `${fmt(f.cpuMs / 1000, 1)} s = ${x(f.cpuMs)}` : 'n/a',
        f ? `${fmt(o.wallMs / f.wallMs, 2)} / ${fmt(o.cpuMs / f.cpuMs, 2)}` : 'n/a',
      ]);
    }
    printTable(
      ['format', 'ours, wall', 'ours, CPU', 'ffmpeg, wall', 'ffmpeg, CPU', 'ours / ffmpeg (wall / CPU)'],
      rows,
    );
    console.log('(× = times real time; goal: ours ≥ 30× real time, wall time, for both formats)');

    const parts = await split(dir, chapters);
    const splitRows = (['m4b', 'mp3'] as const).map((format) => {
      const p = parts[format];
      const steps = [p.resample, p.master, p.encode, p.mux];
      const wall = steps.reduce((n, t) => n + t.wallMs, 0);
      const cell = (t: Timing) =>
        `${fmt(t.wallMs / 1000, 2)} s (${fmt((100 * t.wallMs) / wall)} %) / ${fmt(t.cpuMs / 1000, 2)} s`;
      return [format === 'm4b' ? 'M4B (AAC)' : 'MP3', ...steps.map(cell)];
    });
    console.log('\nWhere the time goes (each step on its own, one run; wall (share) / CPU):');
    printTable(
      [
        'format',
        'resampling to 44.1 kHz',
        'mastering DSP (all passes)',
        'encoding',
        'muxing (MP4, chapters)',
      ],
      splitRows,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function printTable(header: string[], lines: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(row(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const l of lines) console.log(row(l));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string, fallback: number) => {
    const at = process.argv.indexOf(`--${name}`);
    return at > 0 ? Number(process.argv[at + 1]) : fallback;
  };
  await runExportBench({ minutes: arg('minutes', 30), runs: arg('runs', 3) });
}
