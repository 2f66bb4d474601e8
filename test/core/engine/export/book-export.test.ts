/**
 * Book export through the real engine, read back by ffprobe and measured by ffmpeg: chapters and
 * tags of an M4B and an MP3, the ACX and podcast presets' levels, room tone and format, and a
 * folder of WAV files.
 */

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../../electron/shared/errors';
import { DEFAULT_SYNTHESIS } from '../../../../electron/shared/options';
import type { BookExportRequest, BookExportResult } from '../../../../electron/core/engine/engine';
import { exportBook } from '../../../../electron/core/engine/export/book-export';
import { parseChapters } from '../../../../electron/core/engine/text/chapters';
import { PRESETS } from '../../../../electron/core/engine/export/mastering';
import type { CoverImage } from '../../../../electron/shared/book-exports';
import { measureLoudness } from '../../../fixtures/audio-analysis';
import { startEngine, type EngineFixture } from '../../../fixtures/engine';
import { probeAudio } from '../../../fixtures/ffprobe';
import { astats, integratedLufs, probeFile, silences, type ProbedFile, writeCover } from './ffmpeg';

const BOOK = `# The Beginning

It was a bright cold day in April.

# The Middle

Nothing happened for a while.

## Ωmega, the End

And then it was over.
`;
const TITLES = ['The Beginning', 'The Middle', 'Ωmega, the End'];
const VOICE = 'en_female_emily_us';
/** How far a chapter time read back may be from the rendered chapters' durations, ms. */
const TOLERANCE_MS = 50;

let fixture: EngineFixture;
let cover: CoverImage;
/** Each chapter's speech rendered on its own, ms. */
let speechMs: number[];

function request(
  overrides: Partial<BookExportRequest> & Pick<BookExportRequest, 'preset' | 'format' | 'outPath'>,
) {
  return exportBook(fixture.engine, {
    ...DEFAULT_SYNTHESIS,
    voice_code: VOICE,
    text: BOOK,
    title: 'A Short Book',
    author: 'Ann Author',
    cover,
    ...overrides,
  });
}

/** Chapter times as the preset lays them out: head, speech, tail, one after another, in ms. */
function expectedChapters(preset: keyof typeof PRESETS): Array<{ start: number; end: number }> {
  const { headMs, tailMs } = PRESETS[preset];
  let at = 0;
  return speechMs.map((ms) => {
    const start = at;
    at += headMs + ms + tailMs;
    return { start, end: at };
  });
}

function expectChapters(probed: ProbedFile, preset: keyof typeof PRESETS): void {
  expect(probed.chapters.map((c) => c.tags?.title)).toEqual(TITLES);
  const expected = expectedChapters(preset);
  probed.chapters.forEach((c, i) => {
    expect(Math.abs(Number(c.start_time) * 1000 - expected[i]!.start)).toBeLessThan(TOLERANCE_MS);
    expect(Math.abs(Number(c.end_time) * 1000 - expected[i]!.end)).toBeLessThan(TOLERANCE_MS);
  });
}

function expectTagsAndCover(probed: ProbedFile): void {
  expect(probed.format.tags?.title).toBe('A Short Book');
  expect(probed.format.tags?.artist).toBe('Ann Author');
  const pictures = probed.streams.filter((s) => s.disposition?.attached_pic === 1);
  expect(pictures.map((s) => s.codec_name)).toEqual(['mjpeg']);
}

beforeAll(async () => {
  fixture = await startEngine();
  const coverPath = join(fixture.dir, 'cover.jpg');
  writeCover(coverPath, 'navy', 96);
  cover = { data: new Uint8Array(readFileSync(coverPath)), mimeType: 'image/jpeg' };
  speechMs = [];
  for (const chapter of parseChapters(BOOK)) {
    speechMs.push(
      (await fixture.renderWav({ ...DEFAULT_SYNTHESIS, voice_code: VOICE, text: chapter.text })).durationMs,
    );
  }
});
afterAll(() => fixture.close());

describe('an ACX MP3', () => {
  let result: BookExportResult;
  let path: string;
  let probed: ProbedFile;
  beforeAll(async () => {
    path = join(fixture.dir, 'book.mp3');
    result = await request({ preset: 'acx', format: 'mp3', outPath: path });
    probed = await probeFile(path);
  });

  it('has ID3 chapters (CHAP/CTOC) at the rendered chapters, with title, author and cover', () => {
    expectChapters(probed, 'acx');
    expectTagsAndCover(probed);
    expect(result.chapters.map((c) => c.title)).toEqual(TITLES);
  });

  it('is 44.1 kHz MP3 at a constant 192 kbps', () => {
    const audio = probed.streams.find((s) => s.codec_type === 'audio')!;
    expect(audio.codec_name).toBe('mp3');
    expect(audio.sample_rate).toBe('44100');
    expect(audio.bit_rate).toBe('192000');
  });

  it('meets ACX levels as ffmpeg measures them: RMS −23 to −18 dBFS, peaks ≤ −3 dBFS, noise floor ≤ −60 dBFS', async () => {
    const stats = await astats(path);
    expect(stats.rmsDbfs).toBeGreaterThanOrEqual(-23);
    expect(stats.rmsDbfs).toBeLessThanOrEqual(-18);
    expect(stats.peakDbfs).toBeLessThanOrEqual(-3);
    // Room tone, not digital silence, in the quietest half second.
    const decoded = await probeAudio(path);
    expect(decoded.errors).toBe('');
    const floor = measureLoudness(decoded.samples, decoded.sampleRate).noiseFloorDbfs;
    expect(floor).not.toBeNull();
    expect(floor!).toBeLessThanOrEqual(-60);
    expect(floor!).toBeGreaterThan(-90);
  });

  it('has 0.5–1 s of room tone at the head and 1–5 s at the tail, and each chapter starts where its room tone does', async () => {
    const quiet = await silences(path, -55, 0.3);
    const first = quiet[0]!;
    expect(first.start).toBe(0);
    expect(first.end!).toBeGreaterThanOrEqual(0.5);
    expect(first.end!).toBeLessThanOrEqual(1);
    const last = quiet[quiet.length - 1]!;
    const duration = Number(probed.format.duration);
    expect(last.end ?? duration).toBeCloseTo(duration, 1);
    expect(duration - last.start).toBeGreaterThanOrEqual(1);
    expect(duration - last.start).toBeLessThanOrEqual(5);
    // Between chapters: the tail and the next head (2.75 s), ending where the next chapter's speech starts.
    const gaps = (await silences(path, -55, 2.5)).filter(
      (s) => s.end !== undefined && s.end < duration - 0.1,
    );
    const { headMs } = PRESETS.acx;
    expect(gaps).toHaveLength(2);
    gaps.forEach((gap, i) => {
      // LAME's encoder delay (about 25 ms at 44.1 kHz) shifts the audio, not the chapter times.
      expect(Math.abs(gap.end! * 1000 - headMs - result.chapters[i + 1]!.startMs)).toBeLessThan(TOLERANCE_MS);
    });
  });

  it('writes a loudness report beside it that passes the ACX checks and agrees with ffmpeg', async () => {
    const report = JSON.parse(readFileSync(join(fixture.dir, 'book.loudness.json'), 'utf8')) as {
      preset: string;
      files: Array<{
        file: string;
        integratedLufs: number;
        rmsDbfs: number;
        passes: boolean;
        chapters: unknown[];
      }>;
    };
    expect(result.reportPath).toBe(join(fixture.dir, 'book.loudness.json'));
    expect(report.preset).toBe('acx');
    expect(report.files.map((f) => [f.file, f.passes])).toEqual([['book.mp3', true]]);
    expect(report.files[0]!.chapters).toHaveLength(3);
    expect(report.files[0]!.rmsDbfs).toBeCloseTo(-20, 0);
    // Measured before the codec; MP3 takes a little off the top end.
    expect(Math.abs(report.files[0]!.integratedLufs - (await integratedLufs(path)))).toBeLessThan(0.5);
  });
});

describe('a podcast M4B', () => {
  let path: string;
  let probed: ProbedFile;
  let result: BookExportResult;
  beforeAll(async () => {
    path = join(fixture.dir, 'book.m4b');
    result = await request({ preset: 'podcast', format: 'm4b', outPath: path });
    probed = await probeFile(path);
  });

  it('has chapters (Nero chpl and a QuickTime chapter track) at the rendered chapters, with title, author and cover', () => {
    expectChapters(probed, 'podcast');
    expectTagsAndCover(probed);
  });

  it('has both chapter lists readable on their own: the Nero chpl box and the QuickTime chapter track', async () => {
    const bytes = readFileSync(path);
    for (const hidden of ['chpl', 'tref']) {
      // The other list alone: the hidden box becomes a 'free' box of the same size.
      const copy = Buffer.from(bytes);
      const at = copy.indexOf(hidden, 0, 'latin1');
      expect(at).toBeGreaterThan(0);
      copy.write('free', at, 'latin1');
      const alone = join(fixture.dir, `without-${hidden}.m4b`);
      writeFileSync(alone, copy);
      expectChapters(await probeFile(alone), 'podcast');
    }
  });

  it('starts with the audio, not the AAC priming (cut by an edit list), and lasts as long as its chapters', async () => {
    const audio = probed.streams.find((s) => s.codec_type === 'audio')!;
    expect(audio.codec_name).toBe('aac');
    expect(audio.sample_rate).toBe('44100');
    expect(Math.abs(Number(probed.format.duration) * 1000 - result.durationMs)).toBeLessThan(2);
    const decoded = await probeAudio(path);
    expect(decoded.errors).toBe('');
    // ffmpeg cuts the priming at the start; it leaves the padding of the last AAC frame (< 1024 samples).
    expect(decoded.durationMs - result.durationMs).toBeGreaterThan(-2);
    expect(decoded.durationMs - result.durationMs).toBeLessThan((1024 / 44100) * 1000);
    // The first speech comes right after the head of room tone, to the millisecond.
    const firstLoud = measureLoudness(decoded.samples, decoded.sampleRate).leadInMs;
    expect(Math.abs(firstLoud - result.files[0]!.loudness.leadInMs)).toBeLessThan(2);
  });

  it('is at −16 LUFS (±1 LU) with peaks ≤ −1 dBFS as ffmpeg measures it, and our meter agrees within 0.5 LU', async () => {
    const lufs = await integratedLufs(path);
    expect(lufs).toBeGreaterThanOrEqual(-17);
    expect(lufs).toBeLessThanOrEqual(-15);
    expect((await astats(path)).peakDbfs).toBeLessThanOrEqual(-1);
    const decoded = await probeAudio(path);
    expect(
      Math.abs(measureLoudness(decoded.samples, decoded.sampleRate).integratedLufs! - lufs),
    ).toBeLessThan(0.5);
  });
});

describe('a folder of WAV files, unmastered', () => {
  it('holds one file per chapter, named by number and title, as long as its chapter', async () => {
    const folder = join(fixture.dir, 'chapters');
    const result = await request({ preset: 'none', format: 'folder', folderFormat: 'wav', outPath: folder });
    expect(readdirSync(folder).sort()).toEqual([
      '01 The Beginning.wav',
      '02 The Middle.wav',
      '03 Ωmega, the End.wav',
    ]);
    expect(result.sampleRate).toBe(22050);
    const expected = expectedChapters('none');
    for (const [i, file] of result.files.entries()) {
      const decoded = await probeAudio(file.path);
      expect(decoded.sampleRate).toBe(22050);
      expect(Math.abs(decoded.durationMs - (expected[i]!.end - expected[i]!.start))).toBeLessThan(
        TOLERANCE_MS,
      );
      expect(file.loudness.noiseFloorDbfs).toBeNull();
      expect(file.failures).toEqual([]);
    }
    const report = JSON.parse(readFileSync(`${folder}.loudness.json`, 'utf8')) as {
      files: Array<{ file: string }>;
    };
    expect(report.files.map((f) => f.file)).toEqual(
      readdirSync(folder)
        .sort()
        .map((name) => join('chapters', name)),
    );
  });

  it('refuses a book with nothing to speak and writes nothing', async () => {
    const folder = join(fixture.dir, 'empty');
    const error = await request({
      preset: 'none',
      format: 'folder',
      outPath: folder,
      text: '# 🙂\n\n!!!',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('NOTHING_TO_SPEAK');
    expect(existsSync(folder)).toBe(false);
  });
});
