/**
 * Spoken structure of a book project's export, with the real engine, a real SQLite store and
 * Debian's ffmpeg/ffprobe reading the files back (issue 39): two-chapter projects in English and
 * in Vietnamese, ACX preset (headings and credits on by default), exported as M4B, MP3 and a folder.
 * - 4 chapter marks: the credits first and last, named in the book's language;
 * - each chapter starts with speech (its spoken heading), then a pause (RMS of the decoded audio);
 * - `Book.srt` and `Book.vtt` beside the export, parsed back (the VTT through ffmpeg's WebVTT
 *   reader): each chapter's first cue is its spoken heading (or the credits) and starts at the
 *   chapter mark within 50 ms;
 * - an MP3 and a folder export (the Vietnamese book: the formats do not depend on the language):
 *   "00 - <opening credits>.mp3" … and the book-wide subtitles at its top.
 */

import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../../electron/core/jobs/keys';
import { systemClock } from '../../../electron/core/platform/clock';
import { silentLog } from '../../../electron/core/platform/log';
import { createProjectExports, type ProjectExports } from '../../../electron/core/projects/project-export';
import type { ProjectRenders } from '../../../electron/core/projects/project-renders';
import { parseSrt, type SrtCue } from '../../../electron/shared/srt';
import { startEngine, type EngineFixture } from '../../fixtures/engine';
import { probeAudio, rmsDbfs } from '../../fixtures/ffprobe';
import { openTestStore, type TestStore } from '../../fixtures/test-store';
import { projectRow, segmentRow, startTestRenders } from '../../fixtures/test-project';
import { probeFile } from '../engine/export/ffmpeg';

const run = promisify(execFile);

let fixture: EngineFixture;
let db: TestStore;
let renders: ProjectRenders;
let exports: ProjectExports;

/** ACX's room tone before each chapter's speech, ms (mastering.ts PRESETS.acx.headMs). */
const ACX_HEAD_MS = 750;

interface Book {
  id: string;
  language: 'en' | 'vi';
  title: string;
  author: string;
  narrator: string;
  voice: string;
  chapters: { title: string; heading: string; segments: string[] }[];
  marks: string[];
  opening: string;
  closing: string;
}

const BOOKS: Book[] = [
  {
    id: 'e'.repeat(32),
    language: 'en',
    title: 'The Lighthouse',
    author: 'Anna Keeper',
    narrator: 'John Reed',
    voice: 'en_male_onyx_default',
    chapters: [
      {
        title: 'CHAPTER I',
        heading: 'Chapter One',
        segments: ['The lighthouse stood alone on the rocks, and every night its lamp turned over the sea.'],
      },
      {
        title: 'CHAPTER XII',
        heading: 'Chapter Twelve',
        segments: ['By midnight the wind had risen.', 'The keeper climbed the stairs and lit the lamp.'],
      },
    ],
    marks: ['Opening credits', 'CHAPTER I', 'CHAPTER XII', 'Closing credits'],
    opening: 'The Lighthouse. Written by Anna Keeper. Narrated by John Reed.',
    closing: 'The end. Copyright 2026 Anna Keeper.',
  },
  {
    id: 'f'.repeat(32),
    language: 'vi',
    title: 'Ngọn hải đăng',
    author: 'Nguyễn Văn An',
    narrator: 'Trần Minh',
    voice: 'vi_male_lehoang_mb',
    chapters: [
      {
        title: 'CHƯƠNG 1',
        heading: 'Chương một',
        segments: ['Người gác hải đăng leo cầu thang mỗi buổi tối và thắp đèn trước khi trời tối hẳn.'],
      },
      {
        title: 'Chương 12',
        heading: 'Chương mười hai',
        segments: ['Đến nửa đêm gió nổi lên.', 'Ông nhìn ra biển và mỉm cười.'],
      },
    ],
    marks: ['Phần mở đầu', 'CHƯƠNG 1', 'Chương 12', 'Phần kết'],
    opening: 'Ngọn hải đăng. Tác giả: Nguyễn Văn An. Người đọc: Trần Minh.',
    closing: 'Hết. Bản quyền 2026 Nguyễn Văn An.',
  },
];

const at = '2026-01-01T00:00:00.000Z';

/** Writes a book's project (ACX, its language's narrator voice) with a key that can pay for it. */
async function createBook(book: Book): Promise<string> {
  const { row } = await createApiKey(db.store, systemClock, { name: book.language, balanceMilli: 1e9 });
  await db.store.projects.insertProject(
    projectRow({
      id: book.id,
      key_id: row.id,
      title: book.title,
      author: book.author,
      language: book.language,
      created_at: at,
    }),
  );
  await db.store.projects.updateProject(
    book.id,
    {
      narrator_name: book.narrator,
      copyright: book.language === 'vi' ? `Bản quyền 2026 ${book.author}` : `Copyright 2026 ${book.author}`,
    },
    at,
  );
  await db.store.projects.putCharacters([
    {
      id: `${book.id}-narrator`,
      project_id: book.id,
      name: 'Narrator',
      voice_code: book.voice,
      speed_rate: 1,
      pitch_rate: 1,
      volume: 100,
      narrator: 1,
      confirmed: 1,
    },
  ]);
  await db.store.projects.putChapters(
    book.chapters.map((c, i) => ({
      id: `${book.id}-c${i}`,
      project_id: book.id,
      position: i,
      title: c.title,
      kind: 'body' as const,
      included: 1,
      exported_text: null,
    })),
  );
  await db.store.projects.putSegments(
    book.chapters.flatMap((c, ci) =>
      c.segments.map((text, si) =>
        segmentRow({
          id: `${book.id}-c${ci}-s${si}`,
          project_id: book.id,
          chapter_id: `${book.id}-c${ci}`,
          position: si,
          text,
        }),
      ),
    ),
  );
  return row.id;
}

const keys = new Map<string, string>();

beforeAll(async () => {
  fixture = await startEngine(2);
  db = await openTestStore();
  renders = await startTestRenders({ engine: fixture.engine, store: db.store, dir: db.dir });
  exports = createProjectExports({
    engine: fixture.engine,
    store: db.store,
    renders,
    filesDir: renders.filesDir,
    clock: systemClock,
    log: silentLog,
  });
  for (const book of BOOKS) keys.set(book.id, await createBook(book));
}, 60_000);
afterAll(async () => {
  await exports?.close();
  await renders?.close();
  await db?.close();
  await fixture?.close();
});

/** The cues of a WebVTT file as ffmpeg's WebVTT reader reads them (converted to SRT). */
async function vttCues(path: string): Promise<SrtCue[]> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', path, '-f', 'srt', '-']);
  return parseSrt(stdout);
}

/** RMS, dBFS, of `samples` from `fromMs` for `lengthMs`. */
function windowRms(samples: Int16Array, rate: number, fromMs: number, lengthMs: number): number {
  const from = Math.round((fromMs / 1000) * rate);
  return rmsDbfs(samples.subarray(from, from + Math.round((lengthMs / 1000) * rate)));
}

/** The first cue at or after a chapter mark (50 ms early allowed). */
const firstCueOf = (cues: readonly SrtCue[], startMs: number) => cues.find((c) => c.startMs >= startMs - 50);

describe.each(BOOKS)('spoken structure of a $language book', (book) => {
  it('exports an M4B with credits chapters, spoken headings and a pause, and SRT/VTT on its timeline', async () => {
    await mkdir(join(fixture.dir, book.language), { recursive: true });
    const out = join(fixture.dir, book.language, `${book.title}.m4b`);
    const { result } = await exports.exportTo(book.id, keys.get(book.id)!, { format: 'm4b', outPath: out });

    const probed = await probeFile(out);
    expect(probed.chapters.map((c) => c.tags?.title)).toEqual(book.marks);
    const marks = probed.chapters.map((c) => ({
      startMs: Number(c.start_time) * 1000,
      endMs: Number(c.end_time) * 1000,
    }));
    // The marks ffprobe reads are the export's, and the audio lasts until the last one ends.
    marks.forEach((m, i) => expect(Math.abs(m.startMs - result.chapters[i]!.startMs)).toBeLessThan(50));
    expect(Math.abs(Number(probed.format.duration) * 1000 - marks.at(-1)!.endMs)).toBeLessThan(100);

    // Beside the export, with the book's base name.
    const srtPath = join(fixture.dir, book.language, `${book.title}.srt`);
    const vttPath = join(fixture.dir, book.language, `${book.title}.vtt`);
    expect(result.subtitles).toEqual({ srtPath, vttPath });
    const srt = parseSrt(await readFile(srtPath, 'utf8'));
    const vtt = await vttCues(vttPath);
    expect((await readFile(vttPath, 'utf8')).startsWith('WEBVTT\n')).toBe(true);
    expect(vtt.map((c) => [c.startMs, c.endMs, c.text])).toEqual(
      srt.map((c) => [c.startMs, c.endMs, c.text]),
    );

    const flat = (text: string) => text.replace(/\s+/g, ' ');
    const firsts = marks.map((m) => firstCueOf(srt, m.startMs)!);
    marks.forEach((m, i) => expect(Math.abs(firsts[i]!.startMs - m.startMs)).toBeLessThanOrEqual(50));
    expect(flat(firsts[1]!.text)).toBe(book.chapters[0]!.heading);
    expect(flat(firsts[2]!.text)).toBe(book.chapters[1]!.heading);
    expect(book.opening.startsWith(flat(firsts[0]!.text))).toBe(true);
    expect(book.closing.startsWith(flat(firsts[3]!.text))).toBe(true);
    // The credits are said in full; every segment's words are in the subtitles.
    const all = flat(srt.map((c) => c.text).join(' '));
    for (const text of [book.opening, book.closing, ...book.chapters.flatMap((c) => c.segments)])
      expect(all).toContain(text);

    // Each chapter starts with speech after the room tone, then its heading's pause is quiet.
    const audio = await probeAudio(out);
    for (const [i, m] of marks.entries()) {
      const speech = windowRms(audio.samples, audio.sampleRate, m.startMs + ACX_HEAD_MS, 600);
      expect(speech, `chapter ${i} speech`).toBeGreaterThan(-35);
      expect(windowRms(audio.samples, audio.sampleRate, m.startMs + 50, 500)).toBeLessThan(speech - 20);
    }
    for (const i of [1, 2]) {
      const heading = firsts[i]!;
      const pause = windowRms(audio.samples, audio.sampleRate, heading.endMs + 300, 900);
      const speech = windowRms(audio.samples, audio.sampleRate, marks[i]!.startMs + ACX_HEAD_MS, 600);
      expect(pause, `pause after heading ${i}`).toBeLessThan(speech - 20);
    }
  }, 300_000);
});

// The formats' chapter marks and file names do not depend on the language (the M4B test above
// reads each language's marks back); one book, the Vietnamese one (its credits' names are not
// ASCII, as are its folder's file names), writes the MP3 and the folder.
describe.each(BOOKS.filter((b) => b.language === 'vi'))(
  'the $language book as MP3 and as a folder',
  (book) => {
    it('exports an MP3 with the four ID3 chapters and a folder with the credits as file 00', async () => {
      const dir = join(fixture.dir, `${book.language}-mp3`);
      await mkdir(dir, { recursive: true });
      await exports.exportTo(book.id, keys.get(book.id)!, { format: 'mp3', outPath: join(dir, 'Book.mp3') });
      expect((await probeFile(join(dir, 'Book.mp3'))).chapters.map((c) => c.tags?.title)).toEqual(book.marks);
      expect((await readdir(dir)).sort()).toEqual(
        ['Book.loudness.json', 'Book.mp3', 'Book.srt', 'Book.vtt'].sort(),
      );

      const folder = join(fixture.dir, `${book.language}-folder`);
      const { result } = await exports.exportTo(book.id, keys.get(book.id)!, {
        format: 'folder',
        folderFormat: 'mp3',
        outPath: folder,
      });
      const files = book.marks.map((title, i) => `0${i} - ${title}.mp3`);
      expect((await readdir(folder)).sort()).toEqual(
        [...files, `${book.title}.srt`, `${book.title}.vtt`].sort(),
      );
      // The folder's subtitles run on the files played in a row: each file's first cue starts where
      // the files before it end (their lengths as ffprobe reads them, MP3 padding allowed for).
      const srt = parseSrt(await readFile(join(folder, `${book.title}.srt`), 'utf8'));
      let probedMs = 0;
      for (const [i, file] of files.entries()) {
        const startMs = result.chapters[i]!.startMs;
        expect(Math.abs(startMs - probedMs), file).toBeLessThan(60 * (i + 1));
        const first = firstCueOf(srt, startMs)!;
        expect(Math.abs(first.startMs - startMs), file).toBeLessThanOrEqual(50);
        if (i > 0 && i < 3) expect(first.text.replace(/\s+/g, ' ')).toBe(book.chapters[i - 1]!.heading);
        probedMs += Number((await probeFile(join(folder, file))).format.duration) * 1000;
      }
    }, 300_000);
  },
);
