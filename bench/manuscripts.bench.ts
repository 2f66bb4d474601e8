/**
 * Reading a ~500,000-character book (40 chapters, Vietnamese and English, emphasis, a footnote
 * a chapter) in every manuscript format but PDF: median read time of 5 reads in this process
 * (the reader alone: wall clock, and the process's CPU time, which a busy machine inflates less)
 * and the peak RSS of a process that only reads that file (one child process per format, so one
 * format's memory does not count for the next); then the median of 5 reads as the app reads
 * (readManuscript: a child process per read, under the reader's limits) and the difference, the
 * child's cost per read. Run from the sources, the child starts with tsx's loader; the built app's
 * child is plain JavaScript: the last line times it (the CLI built into a temporary folder) on the
 * smallest read, an empty text file's refusal, against the sources' child. The files are written
 * first by the test fixtures' writers.
 *
 *   npm run bench:manuscripts [-- --characters 5000000]
 */

import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { detectManuscriptFormat, readManuscript } from '../electron/core/manuscripts';
import { readFormat } from '../electron/core/manuscripts/read-format';
import { readInChild, type ReaderLimits } from '../electron/core/manuscripts/reader-process';
import { buildCli, ROOT } from '../electron/launch/build';
import { MANUSCRIPT_LIMITS } from '../electron/shared/manuscript';
import type { Manuscript } from '../electron/shared/manuscript';
import {
  largeBook,
  manuscriptTempDir,
  writeDocx,
  writeEpub2,
  writeEpub3,
  writeHtml,
  writeManuscriptFile,
  writeMarkdown,
  writeOdt,
  writePlainText,
} from '../test/fixtures/manuscripts';

const RUNS = 5;

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function child(path: string): Promise<void> {
  const bytes = new Uint8Array(readFileSync(path));
  const format = detectManuscriptFormat(path, bytes.subarray(0, 8192))!;
  const times: number[] = [];
  const cpu: number[] = [];
  let summary = '';
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    const book = await readFormat(format, bytes, path, {});
    times.push(performance.now() - start);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
    summary = describe(book);
  }
  const peakMb = process.resourceUsage().maxRSS / 1024;
  const inChild: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const book = await readManuscript({ fileName: path, bytes });
    inChild.push(performance.now() - start);
    if (describe(book) !== summary) throw new Error(`the child read ${describe(book)}, not ${summary}`);
  }
  process.stdout.write(
    JSON.stringify({ median: median(times), cpu: median(cpu), peakMb, summary, child: median(inChild) }),
  );
}

function describe(book: Manuscript): string {
  const characters = book.chapters.reduce(
    (n, c) => n + c.paragraphs.reduce((m, p) => m + [...p.text].length, 0),
    0,
  );
  return `${book.chapters.length} chapters, ${book.chapters.reduce((n, c) => n + c.paragraphs.length, 0)} paragraphs, ${characters} characters`;
}

async function main(): Promise<void> {
  const arg = process.argv.indexOf('--characters');
  const characters = arg > 0 ? Number(process.argv[arg + 1]) : 500_000;
  const book = largeBook(characters);
  const dir = manuscriptTempDir();
  try {
    const files: [string, string][] = [
      ['DOCX', writeManuscriptFile(dir, 'book.docx', await writeDocx(book))],
      ['EPUB 3', writeManuscriptFile(dir, 'book3.epub', writeEpub3(book))],
      ['EPUB 2', writeManuscriptFile(dir, 'book2.epub', writeEpub2(book))],
      ['ODT', writeManuscriptFile(dir, 'book.odt', writeOdt(book))],
      ['HTML', writeManuscriptFile(dir, 'book.html', writeHtml(book))],
      ['Markdown', writeManuscriptFile(dir, 'book.md', writeMarkdown(book))],
      ['Plain text', writeManuscriptFile(dir, 'book.txt', writePlainText(book))],
    ];
    console.log(
      `Manuscript reading, ~${characters.toLocaleString('en-US')} characters, median of ${RUNS} reads (Node ${process.version})`,
    );
    console.log(
      '| format | file | median read (in process) | its CPU time | peak RSS | median read (child process) | child cost | read |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const [format, path] of files) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', path], {
        encoding: 'utf8',
      });
      const result = JSON.parse(out) as {
        median: number;
        cpu: number;
        peakMb: number;
        summary: string;
        child: number;
      };
      const size = readFileSync(path).length / 1024;
      console.log(
        `| ${format} | ${size >= 1024 ? `${(size / 1024).toFixed(1)} MB` : `${size.toFixed(0)} KB`} | ${result.median.toFixed(0)} ms | ${result.cpu.toFixed(0)} ms | ${result.peakMb.toFixed(0)} MB | ${result.child.toFixed(0)} ms | ${result.child >= result.median ? '+' : ''}${(result.child - result.median).toFixed(0)} ms | ${result.summary} |`,
      );
    }
    const built = await builtChildCost(dir);
    console.log(
      `Child process per read, nothing to read (median of ${RUNS}): ${built.sources.toFixed(0)} ms from the sources (tsx), ${built.built.toFixed(0)} ms built (JavaScript, as the app runs it).`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Median time of a child read of a blank text (refused: no text) from the sources and built. */
async function builtChildCost(dir: string): Promise<{ sources: number; built: number }> {
  await buildCli(ROOT, dir);
  const limits: ReaderLimits = {
    timeoutMs: MANUSCRIPT_LIMITS.readerTimeoutMs,
    maxRssBytes: MANUSCRIPT_LIMITS.readerMaxRssBytes,
  };
  const time = async (script: URL | undefined): Promise<number> => {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      const request = {
        fileName: 'blank.txt',
        format: 'text' as const,
        bytes: new Uint8Array([0x20]),
        options: {},
      };
      await readInChild(request, script ? { ...limits, script } : limits).catch(() => undefined);
      times.push(performance.now() - start);
    }
    return median(times);
  };
  return {
    sources: await time(undefined),
    built: await time(pathToFileURL(join(dir, 'dist/cli/manuscript-reader-child.js'))),
  };
}

const childArg = process.argv.indexOf('--child');
await (childArg > 0 ? child(process.argv[childArg + 1]!) : main());
