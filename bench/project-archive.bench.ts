/**
 * Project archive import benchmark: prints figures, never fails on time.
 *   npm run bench:project-archive [-- --rounds 3] [-- --segments 200000]
 * The archive of the largest project (test/fixtures/project-archives.ts: 200,000 segments,
 * 5,000,000 characters, 5,000 chapters with their texts at the last export, a cast of 500; a
 * project.json of 71 MB, a zip of 1.8 MB) imported with readProjectArchive into a fresh SQLite
 * store, the way POST /api/v1/projects/import-archive does. Prints the median of the rounds for
 * the whole import, the main thread's longest event-loop stall during it (the rows' insert
 * included), and the largest resident memory of this process and of the reader's child (when the
 * archive is read in one: 0 when it is read in this process, as before issue 36).
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createApiKey } from '../electron/core/jobs/keys';
import { systemClock } from '../electron/core/platform/clock';
import { readArchiveRows, readProjectArchive } from '../electron/core/projects/project-archive';
import { createProjectService } from '../electron/core/projects/project-service';
import { openStore } from '../electron/core/store';
import { archiveOf, largestArchiveJson } from '../test/fixtures/project-archives';
import { readerChildren, residentBytes } from '../test/fixtures/reader-children';
import { median } from './lib';

const argValue = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const rounds = Number(argValue('rounds') ?? 3);
const segments = Number(argValue('segments') ?? 200_000);
const fmt = (value: number) => Math.round(value).toLocaleString('en-US');

const dir = mkdtempSync(join(tmpdir(), 'bench-project-archive-'));
try {
  const json = largestArchiveJson({ segments });
  const zipPath = join(dir, 'largest.narration.zip');
  const zip = archiveOf(json);
  writeFileSync(zipPath, zip);
  const store = await openStore({ path: join(dir, 'studio.db') });
  const { row } = await createApiKey(store, systemClock, { name: 'bench' });
  const projects = createProjectService({ store, filesDir: join(dir, 'files') });
  const imports: number[] = [];
  const stalls: number[] = [];
  const receiveStalls: number[] = [];
  const childPeaks: number[] = [];
  let peakRss = process.memoryUsage().rss;
  for (let round = 0; round < rounds; round++) {
    let childPeak = 0;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      for (const pid of readerChildren(['project-archive-child']))
        childPeak = Math.max(childPeak, residentBytes(pid));
    }, 20);
    // The read alone: the child reads, this thread receives the rows (200 parts of 1,000 segments).
    const staging = mkdtempSync(join(dir, 'staging-'));
    const receiving = monitorEventLoopDelay({ resolution: 5 });
    receiving.enable();
    const request = {
      path: zipPath,
      fileName: 'largest.narration.zip',
      archiveBytes: zip.length,
      projectId: 'bench',
      keyId: row.id,
      stagingDir: staging,
    };
    const rows = await readArchiveRows(row.id, request);
    await new Promise((resolve) => setTimeout(resolve, 20));
    receiving.disable();
    receiveStalls.push(receiving.max / 1e6);
    if (rows.segments.length !== segments) throw new Error('the read lost segments');
    rmSync(staging, { recursive: true, force: true });

    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const started = performance.now();
    const detail = await readProjectArchive(projects, row.id, zipPath, 'largest.narration.zip', zip.length);
    imports.push(performance.now() - started);
    // The stall that ended with the import is seen on the loop's next turn.
    await new Promise((resolve) => setTimeout(resolve, 20));
    loop.disable();
    clearInterval(sampler);
    stalls.push(loop.max / 1e6);
    childPeaks.push(childPeak);
    if (detail.project.segment_count !== segments) throw new Error('the import lost segments');
    await projects.remove(row.id, detail.project.id);
  }
  await store.close();
  console.log(`Project archive import (SQLite), median of ${rounds} rounds`);
  console.log(
    `  archive:               ${fmt(segments)} segments, project.json ${fmt(Buffer.byteLength(json) / 1e6)} MB, zip ${fmt(zip.length / 1e6)} MB`,
  );
  console.log(`  import in all:         ${fmt(median(imports))} ms`);
  console.log(`  longest loop stall:    ${fmt(median(stalls))} ms (main thread, the rows' insert included)`);
  console.log(
    `  … receiving the rows:  ${fmt(median(receiveStalls))} ms (the child's read and its parts alone)`,
  );
  console.log(`  reader child peak RSS: ${fmt(median(childPeaks) / 1024 ** 2)} MiB`);
  console.log(`  this process peak RSS: ${fmt(peakRss / 1024 ** 2)} MiB`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
