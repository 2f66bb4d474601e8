/**
 * `project render` and `project export` run as the real CLI on a data directory: a render killed
 * with SIGKILL mid-way resumes at the next run and finishes (charged once, nothing rendered twice),
 * and that run reports the segments already done and those it rendered;
 * an export writes an M4B whose chapters ffprobe reads back, and a folder named after the chapters.
 * (SQLite: the data directory's lock frees at the kill. On PostgreSQL a killed lease runs out first;
 * the repository's takeover is tested in test/core/store/project-renders-repo.test.ts.)
 */

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runProject } from '../../../electron/core/cli/project-command';
import { openStore } from '../../../electron/core/store';
import { runHere } from '../../fixtures/cli-in-process';
import { useCompiledCli } from '../../fixtures/compiled-cli';
import { writeDocx, type BookDescription } from '../../fixtures/manuscripts';
import { onPostgres } from '../../fixtures/test-store';
import { probeFile } from '../engine/export/ffmpeg';

const root = new URL('../../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'project-render-cli-'));
const dataDir = join(dir, 'data');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const compiled = useCompiledCli();
const cli = (...args: string[]) => compiled.args('project', ...args, '--data-dir', dataDir);
const env = { ...process.env, XDG_DATA_HOME: join(dir, 'user') };

/** `project …` as a process of its own, as a user runs it (the compiled CLI). */
function project(...args: string[]) {
  const r = spawnSync(process.execPath, cli(...args), { cwd: root, env, encoding: 'utf8', timeout: 240_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
/** `project …` where no process is the subject (import, show, a refused option): in this one. */
const projectHere = (...args: string[]) => runHere(runProject, [...args, '--data-dir', dataDir]);
/**
 * A book of `paragraphs` short segments a chapter. The render test's has many, so that a render
 * is still going at its first progress lines on a fast machine (120 render in ≈ 1.5 s here); the
 * export test's few, since every second of its audio is mastered and encoded twice (M4B and the
 * folder's MP3s).
 */
const bookOf = (paragraphs: number): BookDescription => ({
  title: 'The Lighthouse',
  author: 'A. Keeper',
  language: 'en',
  frontMatter: [],
  chapters: ['Opening', 'The Storm', 'Morning'].map((title, c) => ({
    title,
    paragraphs: Array.from(
      { length: paragraphs },
      (_, i) => `Paragraph ${c * paragraphs + i}: the keeper climbed.`,
    ),
  })),
});
const RENDERED_PARAGRAPHS = 40;

/** Imports the book of `paragraphs` a chapter and returns the project's id. */
async function importBook(paragraphs: number): Promise<string> {
  const file = join(dir, `The Lighthouse ${paragraphs}.docx`);
  writeFileSync(file, await writeDocx(bookOf(paragraphs)));
  const imported = await projectHere(
    'import',
    file,
    '--title',
    'The Lighthouse',
    '--voice',
    'en_male_onyx_default',
  );
  expect(imported.code, imported.stderr).toBe(0);
  return (JSON.parse(imported.stdout) as { id: string }).id;
}

describe.skipIf(onPostgres)('project render and export (headless CLI)', () => {
  it('resumes a render killed with SIGKILL and finishes it, charged once', async () => {
    const id = await importBook(RENDERED_PARAGRAPHS);

    const child = spawn(process.execPath, cli('render', id), {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no progress: ${stderr}`)), 120_000);
      // Its progress comes every 500 ms, several lines to a chunk at times: the newest one counts.
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const m = [...stderr.matchAll(/rendering (\d+)\/(\d+) segments/g)].at(-1);
        if (m && Number(m[1]) >= 3 && Number(m[1]) < Number(m[2])) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.on('exit', () => {
        clearTimeout(timer);
        reject(new Error(`the render ended before it could be killed midway: ${stderr}`));
      });
    });
    child.kill('SIGKILL');
    await exited;

    type Shown = { segment_count: number; segments_done: number };
    const midway = JSON.parse((await projectHere('show', id)).stdout) as Shown;
    expect(midway.segments_done).toBeGreaterThanOrEqual(3);
    expect(midway.segments_done).toBeLessThan(midway.segment_count);

    const again = project('render', id);
    expect(again.code, again.stderr).toBe(0);
    const report = JSON.parse(again.stdout) as {
      status: string;
      resumed: { status: string; segments_done: number; segments_total: number }[];
      segments_already_done: number;
      segments_rendered_now: number;
      segments_done: number;
      segment_count: number;
    };
    const after = JSON.parse((await projectHere('show', id)).stdout) as Shown;
    expect(after.segments_done).toBe(after.segment_count);
    // The run after the kill tells what it finished: the killed run's segments as already done,
    // the rest as rendered now (by the render it resumed), not "done 0/0".
    expect(report).toMatchObject({
      status: 'done',
      segments_already_done: midway.segments_done,
      segments_rendered_now: midway.segment_count - midway.segments_done,
      segments_done: midway.segment_count,
      segment_count: midway.segment_count,
    });
    expect(report.resumed).toHaveLength(1);
    expect(report.resumed[0]).toMatchObject({ status: 'done', segments_total: midway.segment_count });
    expect(again.stderr).toContain(
      `done: ${midway.segment_count - midway.segments_done} segments rendered now (resuming a render an earlier run left), ${midway.segments_done} already done; ${midway.segment_count}/${midway.segment_count} segments of the project have audio`,
    );
    expect(again.stderr).toMatch(
      new RegExp(`resumed render: (queued|rendering) \\d+/${3 * RENDERED_PARAGRAPHS} segments`),
    );

    const store = await openStore({ path: join(dataDir, 'studio.db') });
    try {
      const renders = await store.projectRenders.list(id, 10);
      expect(renders.map((r) => r.status)).toEqual(['done', 'done']);
      const first = renders[1]!;
      expect(first.run_attempts).toBe(2);
      const ledger = await store.ledger.forRequest(first.id);
      expect(ledger.map((l) => l.kind)).toEqual(['charge']);
      expect(renders[0]!.cost_milli).toBe(0);
    } finally {
      await store.close();
    }
  }, 300_000);

  it('exports an M4B whose chapters ffprobe reads back, and a folder of chapter files', async () => {
    const id = await importBook(4);
    const rendered = project('render', id);
    expect(rendered.code, rendered.stderr).toBe(0);
    const out = join(dir, 'out', 'The Lighthouse.m4b');
    const exported = project('export', id, '--format', 'm4b', '--out', out);
    expect(exported.code, exported.stderr).toBe(0);
    // Its progress while it masters and encodes, a line each time it moves, up to 100 %.
    const encoding = [...exported.stderr.matchAll(/^encoding (\d+) %(, about \d+ (s|min) left)?$/gm)];
    expect(encoding.length, exported.stderr).toBeGreaterThan(1);
    expect(encoding.at(-1)![0]).toBe('encoding 100 %');
    const probed = await probeFile(out);
    // ACX (the default preset): opening and closing credits, and the book's subtitles beside it.
    expect(probed.chapters.map((c) => c.tags?.title)).toEqual([
      'Opening credits',
      'Opening',
      'The Storm',
      'Morning',
      'Closing credits',
    ]);
    expect((JSON.parse(exported.stdout) as { subtitles: string[] }).subtitles).toEqual([
      join(dir, 'out', 'The Lighthouse.srt'),
      join(dir, 'out', 'The Lighthouse.vtt'),
    ]);
    const folder = project('export', id, '--format', 'folder', '--out', join(dir, 'out', 'folder'));
    expect(folder.code, folder.stderr).toBe(0);
    expect(readdirSync(join(dir, 'out', 'folder')).sort()).toEqual([
      '00 - Opening credits.mp3',
      '01 - Opening.mp3',
      '02 - The Storm.mp3',
      '03 - Morning.mp3',
      '04 - Closing credits.mp3',
      'The Lighthouse.srt',
      'The Lighthouse.vtt',
    ]);
    const bad = await projectHere('export', id, '--format', 'wav', '--out', out);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--format m4b\|mp3\|folder/);
  }, 300_000);
});
