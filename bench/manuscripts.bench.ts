/**
 * Reading a ~500,000-character book (40 chapters, Vietnamese and English, emphasis, a footnote
 * a chapter) in every manuscript format but PDF: median read time of 5 reads (wall clock, and
 * the process's CPU time, which a busy machine inflates less) and the peak RSS
 * of a process that only reads that file (one child process per format, so one format's memory
 * does not count for the next). The files are written first by the test fixtures' writers.
 *
 *   npm run bench:manuscripts [-- --characters 5000000]
 */

import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { readManuscript } from '../electron/core/manuscripts';
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

async function child(path: string): Promise<void> {
  const bytes = new Uint8Array(readFileSync(path));
  const times: number[] = [];
  const cpu: number[] = [];
  let summary = '';
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    const book = await readManuscript({ fileName: path, bytes });
    times.push(performance.now() - start);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
    const characters = book.chapters.reduce(
      (n, c) => n + c.paragraphs.reduce((m, p) => m + [...p.text].length, 0),
      0,
    );
    summary = `${book.chapters.length} chapters, ${book.chapters.reduce((n, c) => n + c.paragraphs.length, 0)} paragraphs, ${characters} characters`;
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const peakMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    JSON.stringify({ median: times[Math.floor(RUNS / 2)], cpu: cpu[Math.floor(RUNS / 2)], peakMb, summary }),
  );
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
    console.log('| format | file | median read | its CPU time | peak RSS | read |');
    console.log('|---|---|---|---|---|---|');
    for (const [format, path] of files) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', path], {
        encoding: 'utf8',
      });
      const result = JSON.parse(out) as { median: number; cpu: number; peakMb: number; summary: string };
      const size = readFileSync(path).length / 1024;
      console.log(
        `| ${format} | ${size >= 1024 ? `${(size / 1024).toFixed(1)} MB` : `${size.toFixed(0)} KB`} | ${result.median.toFixed(0)} ms | ${result.cpu.toFixed(0)} ms | ${result.peakMb.toFixed(0)} MB | ${result.summary} |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const childArg = process.argv.indexOf('--child');
await (childArg > 0 ? child(process.argv[childArg + 1]!) : main());
