/**
 * Exporting a book: a text with chapters (text/chapters.ts) rendered chapter by chapter through the
 * engine, mastered with a preset (mastering.ts) and encoded once per output file:
 * - `mp3`: one MP3 with an ID3v2.3 tag (title, author, cover, CHAP/CTOC chapters);
 * - `m4b`: one AAC audiobook in MP4 with chapters and the same metadata (m4b.ts);
 * - `folder`: one file per chapter (MP3 with its tags, or WAV) in a folder.
 * Each chapter's audio is its room tone head, its speech, and its tail, so the chapters' start
 * times are the sums of the durations before them, to the sample. Beside the export goes a
 * loudness report, `<name>.loudness.json`: each file's measurements and the preset's checks.
 *
 * Memory is bounded whatever the book's length: each chapter is rendered to a temporary WAV,
 * resampled to the output rate into a temporary raw file, and every pass of the mastering reads
 * those files in blocks. The temporary folder is removed at the end, success or not.
 */

import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { AppError, isAppError } from '../../../shared/errors';
import { DEFAULT_BITRATE } from '../../../shared/options';
import { cleanText } from '../../../shared/text';
import { StagedFile } from '../../platform/staged-file';
import type { AudioSink } from '../audio/audio-sink';
import { createEncoderSink } from '../audio/encoder-sink';
import { createWavSink } from '../audio/wav';
import { MAX_ID3_CHAPTERS } from '../../../shared/book-exports';
import { exportRenderShare, type BookFormat, type MasteringPresetName } from '../../../shared/book-formats';
import type {
  BookEncodeRequest,
  BookExportRequest,
  BookExportResult,
  ChapterWav,
  ChapterWavsExportRequest,
  Engine,
  ExportedFile,
} from '../engine';
import { parseChapters, type Chapter, type ChapterTiming } from '../text/chapters';
import { BLOCK_SAMPLES, readSamples, wavHeaderOf, wavsToRaw } from './chapter-audio';
import { fileNameOf } from './file-names';
import { checkLimits, masterFile, PRESETS, type PcmSource } from './mastering';
import { buildId3Tag } from './mp3-chapters';
import { resampleChapters } from './parallel-resampling';

/** Genre written into the files' tags. */
const GENRE = 'Audiobook';

/** A chapter rendered and resampled: its speech in a raw s16 file at the output rate. */
interface PreparedChapter {
  chapter: Pick<Chapter, 'title'>;
  rawPath: string;
  /** Samples of speech in `rawPath`. */
  speech: number;
}

/**
 * Shares of the progress bar: rendering the chapters (each: the engine, then resampling to the
 * output rate), then mastering and encoding each file, and the last hundredth for closing the
 * files (an M4B's chapters, the report). exportRenderShare (shared: the Export page names the
 * phase from it) says how much is rendering.
 */
interface ProgressShares {
  render: number;
  master: number;
}

function progressShares(preset: MasteringPresetName, rendered = false): ProgressShares {
  const render = rendered ? RESAMPLE_SHARE : exportRenderShare(preset);
  return { render, master: 0.99 - render };
}

/**
 * For chapters rendered already (`exportChapterWavs`), the share of the progress that is bringing
 * them to the output rate: the first step there (bench/export.bench.ts shows the split).
 */
const RESAMPLE_SHARE = 0.2;

/** Of a chapter's share, the engine's part; resampling its audio is the rest. */
const RENDER_OF_CHAPTER = 0.9;

/**
 * The PCM of a file made of `chapters`: for each, `head` samples of silence, its speech, `tail` of
 * silence. Each pass stops with the signal's reason once it is aborted.
 */
function filePcm(
  chapters: readonly PreparedChapter[],
  head: number,
  tail: number,
  signal: AbortSignal | undefined,
): PcmSource {
  return async function* () {
    for (const { rawPath, speech } of chapters) {
      if (head > 0) yield new Int16Array(head);
      const handle = await open(rawPath, 'r');
      try {
        for (let at = 0; at < speech; at += BLOCK_SAMPLES) {
          signal?.throwIfAborted();
          yield await readSamples(handle, at * 2, Math.min(BLOCK_SAMPLES, speech - at));
        }
      } finally {
        await handle.close();
      }
      if (tail > 0) yield new Int16Array(tail);
    }
  };
}

/** `<out without extension>.loudness.json` (for a folder, beside it). */
function reportPathOf(outPath: string, format: BookFormat): string {
  const full = resolve(outPath);
  const base = format === 'folder' ? full : full.slice(0, full.length - extname(full).length);
  return `${base}.loudness.json`;
}

/** Throws INVALID_FIELD when an MP3 would have more chapters than its ID3 tag can list. */
function checkChapterCount(format: BookFormat, chapters: number): void {
  if (format === 'mp3' && chapters > MAX_ID3_CHAPTERS) {
    throw new AppError(
      'INVALID_FIELD',
      `an MP3 can list at most ${MAX_ID3_CHAPTERS} chapters and this book has ${chapters}: export to m4b or a folder`,
      { field: 'format' },
    );
  }
}

/**
 * Exports `request.text` as a book (see the module comment) with `engine`. Rejects with
 * AppError: NOTHING_TO_SPEAK (no chapter has anything to say), INVALID_FIELD (more chapters than
 * an MP3 can list), the engine's errors, OUTPUT_FAILED; files of a failed export are removed.
 */
export async function exportBook(engine: Engine, request: BookExportRequest): Promise<BookExportResult> {
  const chapters = parseChapters(cleanText(request.text), {
    untitled: (n) => (n === 1 && request.title ? request.title : `Chapter ${n}`),
  });
  if (chapters.length === 0) {
    throw new AppError(
      'NOTHING_TO_SPEAK',
      'the book has nothing to speak (only punctuation, symbols or emoji)',
    );
  }
  checkChapterCount(request.format, chapters.length);
  const share = progressShares(PRESETS[request.preset].name);
  return inTempFolder(request.signal, async (temp) => {
    // 1. Render each chapter, and bring it to the output rate.
    const rendered = await renderChapters(engine, chapters, temp, request, share);
    // 2–5. Timings, files, mastering and encoding, the report.
    return encodeBook(rendered.prepared, rendered.sampleRate, temp, request, rendered.engine, share);
  });
}

/**
 * Runs `work` with a new temporary folder, which is removed at the end, success or not. Errors
 * other than AppErrors (and than an abort) reject as OUTPUT_FAILED.
 */
async function inTempFolder<T>(
  signal: AbortSignal | undefined,
  work: (temp: string) => Promise<T>,
): Promise<T> {
  const temp = await mkdtemp(join(tmpdir(), 'narration-export-'));
  try {
    return await work(temp);
  } catch (error) {
    if (isAppError(error) || signal?.aborted) throw error;
    throw new AppError('OUTPUT_FAILED', `the export failed: ${(error as Error).message}`, undefined, {
      cause: error,
    });
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** The sample rate of a WAV file, from its header. */
async function wavRateOf(wavPath: string): Promise<number> {
  const handle = await open(wavPath, 'r');
  try {
    return (await wavHeaderOf(handle)).sampleRate;
  } finally {
    await handle.close();
  }
}

/**
 * Step 1 of `exportBook`: each chapter rendered by `engine` to a WAV in `temp`, then resampled to
 * the output rate (the preset's, or the first chapter's) into a raw file there, the WAV removed.
 * Resolves to the chapters, their rate, and what spoke.
 */
async function renderChapters(
  engine: Engine,
  chapters: readonly Chapter[],
  temp: string,
  request: BookExportRequest,
  share: { render: number },
): Promise<{ prepared: PreparedChapter[]; sampleRate: number; engine: string }> {
  const progress = request.onProgress ?? (() => undefined);
  const prepared: PreparedChapter[] = [];
  const engines = new Set<string>();
  let sampleRate = PRESETS[request.preset].sampleRate;
  for (const [i, chapter] of chapters.entries()) {
    request.signal?.throwIfAborted();
    const wavPath = join(temp, `chapter-${i}.wav`);
    const result = await engine.render({
      voice_code: request.voice_code,
      model_id: request.model_id,
      speed_rate: request.speed_rate,
      pitch_rate: request.pitch_rate,
      volume: request.volume,
      neuralVoice: request.neuralVoice,
      lexicon: request.lexicon,
      text: chapter.text,
      audio_type: 'wav',
      bitrate: DEFAULT_BITRATE,
      audioPath: wavPath,
      signal: request.signal,
      onProgress: (f) => progress((share.render * (i + RENDER_OF_CHAPTER * f)) / chapters.length),
    });
    engines.add(result.engine);
    if (sampleRate === undefined) sampleRate = await wavRateOf(wavPath);
    const rawPath = join(temp, `chapter-${i}.raw`);
    // The chapter's speech at the rate of the first chapter's WAV, written to `rawPath`.
    const resampled = await wavsToRaw(
      { wavPaths: [wavPath], gapSamples: 0, rawPath, rate: sampleRate },
      (f) =>
        progress((share.render * (i + RENDER_OF_CHAPTER + (1 - RENDER_OF_CHAPTER) * f)) / chapters.length),
    );
    prepared.push({ chapter, rawPath, speech: resampled });
    await rm(wavPath, { force: true });
  }
  return { prepared, sampleRate: sampleRate!, engine: [...engines].join(', ') };
}

/**
 * Exports chapters whose speech is rendered already, exactly as `exportBook` exports what it
 * renders: each WAV brought to the output rate (the render share of the progress), then the same
 * files, mastering, encoding and report. Rejects with AppError NOTHING_TO_SPEAK (no chapters),
 * INVALID_FIELD (more chapters than an MP3 can list), OUTPUT_FAILED.
 */
export async function exportChapterWavs(request: ChapterWavsExportRequest): Promise<BookExportResult> {
  const chapters = request.chapters.filter((chapter) => chapter.wavPaths.length > 0);
  if (chapters.length === 0) throw new AppError('NOTHING_TO_SPEAK', 'the book has no chapter to export');
  checkChapterCount(request.format, chapters.length);
  const share = progressShares(request.preset, true);
  return inTempFolder(request.signal, async (temp) => {
    // 1. Bring each chapter's WAVs to the output rate.
    const { prepared, sampleRate } = await resampleChapterWavs(chapters, temp, request, share);
    // 2–5. Timings, files, mastering and encoding, the report.
    return encodeBook(prepared, sampleRate, temp, request, request.engine ?? 'espeak', share);
  });
}

/**
 * Step 1 of `exportChapterWavs`: each chapter's WAVs resampled to the output rate (the preset's,
 * or the first WAV's) into one raw file in `temp`, with the request's gap between two; the
 * chapters on every core at once (parallel-resampling.ts).
 */
async function resampleChapterWavs(
  chapters: readonly ChapterWav[],
  temp: string,
  request: ChapterWavsExportRequest,
  share: { render: number },
): Promise<{ prepared: PreparedChapter[]; sampleRate: number }> {
  const progress = request.onProgress ?? (() => undefined);
  const sampleRate = PRESETS[request.preset].sampleRate ?? (await wavRateOf(chapters[0]!.wavPaths[0]!));
  const gapSamples = Math.round(((request.gapMs ?? 0) / 1000) * sampleRate);
  const jobs = chapters.map((chapter, i) => ({
    wavPaths: chapter.wavPaths,
    gapSamples,
    rawPath: join(temp, `chapter-${i}.raw`),
    rate: sampleRate,
  }));
  const samples = await resampleChapters(jobs, {
    signal: request.signal,
    onFraction: (f) => progress(share.render * f),
  });
  const prepared = chapters.map((chapter, i) => ({
    chapter,
    rawPath: jobs[i]!.rawPath,
    speech: samples[i]!,
  }));
  return { prepared, sampleRate };
}

/**
 * Steps 2–5 of an export, from its chapters' speech at the output rate: where each chapter falls,
 * the files, their mastering and encoding (the rest of the progress), the loudness report. The
 * files written are removed if a later one or the report fails.
 */
async function encodeBook(
  prepared: readonly PreparedChapter[],
  rate: number,
  temp: string,
  request: BookEncodeRequest,
  engine: string,
  share: ProgressShares,
): Promise<BookExportResult> {
  const preset = PRESETS[request.preset];
  const progress = request.onProgress ?? (() => undefined);
  // 2. Where each chapter falls: head, speech and tail, in samples.
  const layout: FileLayout = {
    rate,
    head: Math.round((preset.headMs / 1000) * rate),
    tail: Math.round((preset.tailMs / 1000) * rate),
  };
  const bookChapters = chapterTimings(prepared, layout);

  // 3. The files: one for the book, or one per chapter.
  const planned = await planFiles(prepared, bookChapters, rate, temp, request);
  const outPath = resolve(request.outPath);

  const written: string[] = [];
  try {
    // 4. Master and encode each file.
    const files = await masterFiles(planned, layout, request, written, share);

    // 5. The loudness report beside the export.
    const reportPath = await writeReport(request, rate, outPath, files);
    progress(1);
    const last = bookChapters[bookChapters.length - 1]!;
    return {
      files,
      reportPath,
      chapters: bookChapters,
      durationMs: last.endMs,
      sampleRate: rate,
      engine,
    };
  } catch (error) {
    await Promise.all(written.map((path) => rm(path, { force: true })));
    throw error;
  }
}

/** How a file's chapters are laid out: samples of room tone before and after each one's speech. */
interface FileLayout {
  rate: number;
  head: number;
  tail: number;
}

/** Step 2: where each chapter of `group` falls in its file, ms: head, speech and tail in a row. */
function chapterTimings(
  group: readonly PreparedChapter[],
  { rate, head, tail }: FileLayout,
): ChapterTiming[] {
  let at = 0;
  return group.map(({ chapter, speech }) => {
    const start = at;
    at += head + speech + tail;
    return { title: chapter.title, startMs: (start / rate) * 1000, endMs: (at / rate) * 1000 };
  });
}

/** A file to write: its path, its chapters, and how to open its encoder. */
interface PlannedFile {
  path: string;
  group: PreparedChapter[];
  /** `onEncode`: the fraction encoded, for a sink whose encoding ends after the audio's last write (M4B). */
  createSink: (onEncode: (fraction: number) => void) => Promise<AudioSink>;
  /** The share of the file's time that its sink's encoding takes (reported by `onEncode`). */
  finishShare: number;
}

/**
 * Of an M4B's time, the share its encoders take (they run at once, one per core, the first from
 * the mastering's writing pass on; bench/export.bench.ts shows the split).
 */
const M4B_ENCODE_SHARE = 0.7;

/**
 * Step 3: the files of the export, with their tags: one MP3 or M4B for the book, or one file per
 * chapter in the output folder (created here).
 */
async function planFiles(
  prepared: readonly PreparedChapter[],
  bookChapters: ChapterTiming[],
  rate: number,
  temp: string,
  request: BookEncodeRequest,
): Promise<PlannedFile[]> {
  const preset = PRESETS[request.preset];
  const mp3 = (path: string, tag: Uint8Array) =>
    createEncoderSink(path, 'mp3', { sampleRate: rate, bitrate: preset.mp3Bitrate }, tag);
  const book = { title: request.title, artist: request.author, genre: GENRE, cover: request.cover };
  const planned: PlannedFile[] = [];
  const outPath = resolve(request.outPath);
  if (request.format === 'mp3') {
    planned.push({
      path: outPath,
      group: [...prepared],
      createSink: () => mp3(outPath, buildId3Tag({ ...book, album: request.title, chapters: bookChapters })),
      finishShare: 0,
    });
  } else if (request.format === 'm4b') {
    planned.push({
      path: outPath,
      group: [...prepared],
      finishShare: M4B_ENCODE_SHARE,
      createSink: async (onEncode) =>
        (await import('./m4b')).createM4bSink(outPath, {
          onEncodeProgress: onEncode,
          sampleRate: rate,
          bitrate: preset.aacBitrate,
          title: request.title,
          author: request.author,
          genre: GENRE,
          cover: request.cover,
          chapters: bookChapters,
          tempDir: temp,
        }),
    });
  } else {
    await mkdir(outPath, { recursive: true });
    const extension = request.folderFormat ?? 'mp3';
    const digits = Math.max(2, String(prepared.length).length);
    prepared.forEach((p, i) => {
      const path = join(
        outPath,
        `${String(i + (request.firstFileNumber ?? 1)).padStart(digits, '0')}${request.numberSeparator ?? ' '}${fileNameOf(p.chapter.title)}.${extension}`,
      );
      const tag = {
        ...book,
        title: p.chapter.title,
        album: request.title,
        track: { number: i + 1, count: prepared.length },
      };
      planned.push({
        path,
        group: [p],
        createSink: () => (extension === 'wav' ? createWavSink(path, rate) : mp3(path, buildId3Tag(tag))),
        finishShare: 0,
      });
    });
  }
  return planned;
}

/**
 * Step 4: each planned file mastered and encoded, in order (the mastering share of the progress).
 * Each file's path goes into `written` once it is complete, so that the caller can remove it if a
 * later step fails; a file that fails is aborted by its sink.
 */
async function masterFiles(
  planned: readonly PlannedFile[],
  layout: FileLayout,
  request: BookEncodeRequest,
  written: string[],
  share: ProgressShares,
): Promise<ExportedFile[]> {
  const preset = PRESETS[request.preset];
  const progress = request.onProgress ?? (() => undefined);
  const { rate, head, tail } = layout;
  const files: ExportedFile[] = [];
  for (const [i, file] of planned.entries()) {
    request.signal?.throwIfAborted();
    // The M4B's encoders start while the mastering writes: the bar shows whichever is further.
    let shown = 0;
    const fileProgress = (f: number) => {
      if (f <= shown) return;
      shown = f;
      progress(share.render + (share.master * (i + f)) / planned.length);
    };
    const mastering = 1 - file.finishShare;
    const sink = await file.createSink((f) => fileProgress(mastering + file.finishShare * f));
    try {
      const mastered = await masterFile(
        filePcm(file.group, head, tail, request.signal),
        rate,
        preset,
        (pcm) => sink.write(pcm),
        {
          totalSamples: file.group.reduce((n, p) => n + head + p.speech + tail, 0),
          onFraction: (f) => fileProgress(mastering * f),
        },
      );
      request.signal?.throwIfAborted();
      await sink.finish();
      written.push(file.path);
      files.push({
        path: file.path,
        chapters: chapterTimings(file.group, layout),
        gainDb: mastered.gainDb,
        loudness: mastered.loudness,
        failures: checkLimits(preset.limits, mastered.loudness),
      });
    } catch (error) {
      await sink.abort();
      throw error;
    }
    progress(Math.min(1, share.render + (share.master * (i + 1)) / planned.length));
  }
  return files;
}

/** Step 5: the loudness report written beside the export (staged, so never half written); resolves to its path. */
async function writeReport(
  request: BookEncodeRequest,
  rate: number,
  outPath: string,
  files: readonly ExportedFile[],
): Promise<string> {
  const reportPath = reportPathOf(outPath, request.format);
  const report = await StagedFile.create(reportPath, 'the loudness report');
  try {
    await report.write(
      `${JSON.stringify(reportOf(request, request.preset, rate, outPath, files), null, 2)}\n`,
    );
    await report.commit();
  } catch (error) {
    await report.discard();
    throw error;
  }
  return reportPath;
}

/** Rounds a level for the report (0.01 dB). */
function round(value: number | null): number | null {
  return value === null ? null : Math.round(value * 100) / 100;
}

/** The loudness report: JSON, levels rounded to 0.01 dB, times to 1 ms; file names relative to the report. */
function reportOf(
  request: Pick<BookExportRequest, 'format' | 'title' | 'author'>,
  preset: MasteringPresetName,
  sampleRate: number,
  outPath: string,
  files: readonly ExportedFile[],
) {
  const from = dirname(outPath);
  return {
    preset,
    format: request.format,
    title: request.title ?? null,
    author: request.author ?? null,
    sampleRate,
    measuredOn: 'the mastered audio as it was encoded',
    files: files.map((f) => ({
      file: relative(from, f.path),
      durationMs: Math.round(f.loudness.durationMs),
      gainDb: round(f.gainDb),
      integratedLufs: round(f.loudness.integratedLufs),
      rmsDbfs: round(f.loudness.rmsDbfs),
      peakDbfs: round(f.loudness.peakDbfs),
      truePeakDbtp: round(f.loudness.truePeakDbtp),
      noiseFloorDbfs: round(f.loudness.noiseFloorDbfs),
      headMs: Math.round(f.loudness.leadInMs),
      tailMs: Math.round(f.loudness.tailMs),
      passes: f.failures.length === 0,
      failures: f.failures,
      chapters: f.chapters.map((c) => ({
        title: c.title,
        startMs: Math.round(c.startMs),
        endMs: Math.round(c.endMs),
      })),
    })),
  };
}
