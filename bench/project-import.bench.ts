/**
 * Project import benchmark: prints figures, never fails on time.
 *   npm run bench:project-import [-- --chars 500000] [-- --rounds 5] [-- --database postgres]
 * A book of about `--chars` characters (Vietnamese and English prose, emphasis, a footnote a
 * chapter) is written as a real DOCX (the tests' writer), then imported as a project the way
 * POST /api/v1/projects/import and `npm run project -- import` do: read (readManuscript),
 * segmented, attributed, and inserted in one transaction. Prints the median of the rounds for
 * the read, the project creation and the whole import, the detail read (the project view's
 * one call), segments, and the process's peak RSS. `measureProjectImport` is what bench:project
 * calls for its import figure.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApiKey } from '../electron/core/jobs/keys';
import { readManuscript } from '../electron/core/manuscripts';
import { systemClock } from '../electron/core/platform/clock';
import { createProjectService } from '../electron/core/projects/project-service';
import { openStore, type Store } from '../electron/core/store';
import { largeBook, writeDocx } from '../test/fixtures/manuscripts';
import { createTestDatabase, hasPostgres } from '../test/fixtures/postgres';
import { median } from './lib';

const fmt = (value: number) => Math.round(value).toLocaleString('en-US');

export interface ImportFigures {
  characters: number;
  segments: number;
  chapters: number;
  readMs: number;
  createMs: number;
  importMs: number;
  detailMs: number;
  peakRssMb: number;
}

/** Imports a DOCX of about `chars` characters `rounds` times into a fresh store; the medians. */
export async function measureProjectImport(
  chars: number,
  rounds: number,
  openBenchStore: (dir: string) => Promise<{ store: Store; drop(): Promise<void> }>,
): Promise<ImportFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-project-import-'));
  const bytes = await writeDocx(largeBook(chars));
  const reads: number[] = [];
  const creates: number[] = [];
  const details: number[] = [];
  let peak = process.memoryUsage().rss;
  let last = { characters: 0, segments: 0, chapters: 0 };
  const { store, drop } = await openBenchStore(dir);
  try {
    const { row } = await createApiKey(store, systemClock, { name: 'bench' });
    const projects = createProjectService({ store, filesDir: join(dir, 'files') });
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      for (let round = 0; round < rounds; round++) {
        const started = performance.now();
        const manuscript = await readManuscript({ fileName: 'large-book.docx', bytes });
        const read = performance.now();
        const detail = await projects.createFromManuscript(row.id, manuscript);
        const created = performance.now();
        await projects.detail(row.id, detail.project.id);
        details.push(performance.now() - created);
        reads.push(read - started);
        creates.push(created - read);
        last = {
          characters: detail.project.characters,
          segments: detail.project.segment_count,
          chapters: detail.project.chapter_count,
        };
        peak = Math.max(peak, process.memoryUsage().rss);
      }
    } finally {
      clearInterval(sampler);
    }
  } finally {
    await store.close();
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    ...last,
    readMs: median(reads),
    createMs: median(creates),
    importMs: median(reads.map((r, i) => r + creates[i]!)),
    detailMs: median(details),
    peakRssMb: peak / 1024 ** 2,
  };
}

const argValue = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const chars = Number(argValue('chars') ?? 500_000);
  const rounds = Number(argValue('rounds') ?? 5);
  const postgres = argValue('database') === 'postgres';
  if (postgres && !hasPostgres()) throw new Error('--database postgres: no PostgreSQL server binaries here');
  const figures = await measureProjectImport(chars, rounds, async (dir) => {
    if (!postgres) return { store: await openStore({ path: join(dir, 'studio.db') }), drop: async () => {} };
    const db = await createTestDatabase();
    return { store: await openStore({ url: db.url }), drop: db.drop };
  });
  console.log(
    `Project import (${postgres ? 'PostgreSQL' : 'SQLite'}), a DOCX book, median of ${rounds} rounds`,
  );
  console.log(
    `  book:             ${figures.characters} characters, ${figures.chapters} chapters, ${figures.segments} segments`,
  );
  console.log(`  read (DOCX):      ${fmt(figures.readMs)} ms`);
  console.log(`  create project:   ${fmt(figures.createMs)} ms (segments, attribution, one transaction)`);
  console.log(`  import in all:    ${fmt(figures.importMs)} ms (goal: under 5,000 ms)`);
  console.log(`  project detail:   ${fmt(figures.detailMs)} ms (GET /api/v1/projects/<id>)`);
  console.log(`  peak RSS:         ${fmt(figures.peakRssMb)} MB`);
}
