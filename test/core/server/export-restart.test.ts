/**
 * An accepted audiobook export survives a crash: the server is killed with SIGKILL while the
 * export runs and started again on the same data directory (and, on the PostgreSQL run, the same
 * database, with a short lease so the new instance takes it over within seconds). The export
 * starts again, finishes with a complete book, and is charged exactly once. A book project's
 * export, in the same queue, survives it too.
 */

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCompiledCli } from '../../fixtures/compiled-cli';
import { testDatabase, type TestDatabase } from '../../fixtures/test-store';
import { probeFile } from '../engine/export/ffmpeg';
import { eventually, fetchUrl } from './helpers';
import { keyCall, restartServeArgs, startServerProcess, type ServerProcess } from './process';

const KEY = 'export-restart-test-key-0123456789';
/** Four starts of `serve`: the bundle, not the sources compiled again each time. */
const cli = useCompiledCli();
let dir: string;
/** The running server: each test runs on it and leaves one running (a restarted one). */
let server: ServerProcess | undefined;
let database: TestDatabase;

const args = () => restartServeArgs(dir, KEY, database.databaseUrl);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'export-restart-test-'));
  database = await testDatabase();
  server = await startServerProcess(args(), undefined, cli);
});
afterAll(async () => {
  if (server) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** The server killed with SIGKILL, and a new one started on the same data: the new one. */
async function killAndRestart(): Promise<ServerProcess> {
  const killed = server!;
  server = undefined;
  killed.child.kill('SIGKILL');
  await killed.exited;
  server = await startServerProcess(args(), undefined, cli);
  return server;
}

/** How often a wait for a whole export polls (a wait to catch one mid-run polls every 20 ms). */
const POLL_DONE_MS = 200;

const api = (base: string, method: 'GET' | 'POST', path: string, body?: unknown) =>
  keyCall(base, KEY, method, path, body);

/** Four chapters of three sentences: long enough to be caught mid-run, short to render three times. */
const BOOK = Array.from(
  { length: 4 },
  (_, i) =>
    `# Part ${i + 1}\n\n${'The night train left the valley and climbed towards the pass in the snow. '.repeat(3)}`,
).join('\n\n');

describe('kill -9 during an export, and restart', () => {
  it('runs the export again to a complete book, charged once', async () => {
    const started = server!;
    const res = await api(started.url, 'POST', '/api/v1/exports', {
      input_text: BOOK,
      voice_code: 'en_female_nova_default',
      format: 'm4b',
      preset: 'none',
      title: 'Night Train',
    });
    expect(res.status, res.text).toBe(200);
    const id = res.json.result.export_id as string;
    // Killed mid-run: after it has made progress, before it is done.
    const running = await eventually(async () => {
      const r = (await api(started.url, 'GET', `/api/v1/exports/${id}`)).json.result;
      return r.status === 'processing' && r.progress > 0
        ? r
        : r.status === 'new' || r.status === 'processing'
          ? undefined
          : r;
    }, 60_000);
    expect(running.status).toBe('processing');
    const restarted = await killAndRestart();
    const done = await eventually(
      async () => {
        const r = (await api(restarted.url, 'GET', `/api/v1/exports/${id}`)).json.result;
        return r.status === 'SUCCESS' || r.status === 'FAILURE' ? r : undefined;
      },
      200_000,
      POLL_DONE_MS,
    );
    expect(done.status, done.error_message).toBe('SUCCESS');
    expect(done.chapters.map((c: { title: string }) => c.title)).toEqual([
      'Part 1',
      'Part 2',
      'Part 3',
      'Part 4',
    ]);

    const book = await fetchUrl(done.file_link.replace(/^http:\/\/[^/]+/, restarted.url), 'GET');
    expect(book.status).toBe(200);
    const path = join(dir, 'night-train.m4b');
    writeFileSync(path, book.body);
    const probed = await probeFile(path);
    expect(probed.chapters.map((c) => c.tags?.title)).toEqual(['Part 1', 'Part 2', 'Part 3', 'Part 4']);
    expect(Math.abs(Number(probed.format.duration) * 1000 - done.duration_ms)).toBeLessThan(100);

    // One charge, no refund; nothing half-written left beside the book.
    const ledger = (await api(restarted.url, 'GET', '/api/v1/usage')).json.result.ledger as {
      kind: string;
      request_id: string | null;
    }[];
    expect(ledger.filter((l) => l.request_id === id).map((l) => l.kind)).toEqual(['charge']);
    const files = readdirSync(join(dir, 'audio', 'exports')).sort();
    expect(files).toEqual([`${id}.loudness.json`, `${id}.m4b`]);
  }, 300_000);

  it('runs a project export accepted before the kill to a complete book', async () => {
    const imported = await fetchUrl(
      `${server!.url}/api/v1/projects/import?file_name=lighthouse.txt`,
      'POST',
      {
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/octet-stream' },
        body: BOOK,
      },
    );
    expect(imported.status, imported.text).toBe(201);
    const projectId = imported.json.result.project.id as string;
    const res = await api(server!.url, 'POST', `/api/v1/projects/${projectId}/exports`, { format: 'm4b' });
    expect(res.status, res.text).toBe(201);
    const id = res.json.result.id as string;
    const path = `/api/v1/projects/${projectId}/exports/${id}`;
    /** Kills the server once the export reads as `wanted` says, then starts it again. */
    const killWhen = async (wanted: (record: { status: string; render_id: string | null }) => boolean) => {
      const running = server!;
      const record = await eventually(async () => {
        const r = (await api(running.url, 'GET', path)).json.result;
        return wanted(r) || r.status === 'done' || r.status === 'failed' ? r : undefined;
      }, 120_000);
      await killAndRestart();
      return record as { status: string; render_id: string | null };
    };
    // Killed while its segments render (the render it waits for is queued again too), then
    // while the book is encoded.
    const rendering = await killWhen((r) => r.status === 'rendering' && r.render_id !== null);
    // A record that ended instead says why in the failure (its error_code and error_message).
    expect(rendering.status, JSON.stringify(rendering)).toBe('rendering');
    const encoding = await killWhen((r) => r.status === 'encoding');
    expect(encoding.status, JSON.stringify(encoding)).toBe('encoding');
    expect(encoding.render_id).toBe(rendering.render_id);
    const restarted = server!;
    const done = await eventually(
      async () => {
        const r = (await api(restarted.url, 'GET', path)).json.result;
        return r.status === 'done' || r.status === 'failed' ? r : undefined;
      },
      200_000,
      POLL_DONE_MS,
    );
    expect(done.status, done.error_message).toBe('done');
    // The project's preset is ACX: the book opens and closes with credits.
    const titles = ['Opening credits', 'Part 1', 'Part 2', 'Part 3', 'Part 4', 'Closing credits'];
    expect(done.chapters.map((c: { title: string }) => c.title)).toEqual(titles);
    // The new instance took the export up again.
    expect(restarted.stderr()).toContain('requeued 1 interrupted project export(s)');
    const book = await fetchUrl(`${restarted.url}${path}/file`, 'GET', {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(book.status).toBe(200);
    const file = join(dir, 'lighthouse.m4b');
    writeFileSync(file, book.body);
    const probed = await probeFile(file);
    expect(probed.chapters.map((c) => c.tags?.title)).toEqual(titles);
    expect(Math.abs(Number(probed.format.duration) * 1000 - done.duration_ms)).toBeLessThan(100);
    expect(done.render_id).toBe(rendering.render_id);
    // Only the book, its loudness report and its subtitles are left of the three runs.
    expect(readdirSync(join(dir, 'audio', 'projects', projectId, 'exports', id)).sort()).toEqual([
      'lighthouse.loudness.json',
      'lighthouse.m4b',
      'lighthouse.srt',
      'lighthouse.vtt',
    ]);
  }, 400_000);
});
