/**
 * Crash safety: the server process is killed with SIGKILL mid-run and restarted; every
 * accepted request still reaches SUCCESS with complete audio, is charged exactly once, and
 * has its callback delivered at least once. The restarted process uses the same data directory
 * and, on the PostgreSQL run, the same database (with a short lease, so the new instance takes
 * over the killed one's renders within seconds).
 */

import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMp3 } from '../../fixtures/mp3-frames';
import { useCompiledCli } from '../../fixtures/compiled-cli';
import { startReceiver, type CallbackReceiver } from '../../fixtures/callback-receiver';
import { onPostgres, testDatabase, type TestDatabase } from '../../fixtures/test-store';
import { eventually, fetchUrl } from './helpers';
import { keyCall, restartServeArgs, startServerProcess, type ServerProcess } from './process';

const KEY = 'restart-test-key-0123456789abcdef';
/** Two starts of `serve`: the bundle, not the sources compiled again each time. */
const cli = useCompiledCli();
let dir: string;
let receiver: CallbackReceiver;
let server: ServerProcess | undefined;
let database: TestDatabase;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'restart-test-'));
  receiver = await startReceiver();
  database = await testDatabase();
});
afterAll(async () => {
  if (server) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  await receiver.close();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const args = () => restartServeArgs(dir, KEY, database.databaseUrl, ['--callback-delay-ms', '100']);

const api = (base: string, method: 'GET' | 'POST', path: string, body?: unknown) =>
  keyCall(base, KEY, method, path, body);

describe('kill -9 and restart', () => {
  it('loses nothing: every accepted request finishes, with complete audio, one charge and a delivered callback', async () => {
    server = await startServerProcess(args(), undefined, cli);
    expect(server.stdout()).toMatch(
      /^listening on http:\/\/127\.0\.0\.1:(\d+)\nopen http:\/\/127\.0\.0\.1:\1\/\?token=[0-9a-f]{32,}\n$/,
    );
    const sentence = 'This sentence is read aloud to keep the engine busy for a little while. ';
    // Sixteen short requests: some done, some rendering and some waiting when it is killed.
    const bodies = Array.from({ length: 16 }, (_, i) => ({
      input_text: `Request ${i}. ${sentence.repeat(1 + (i % 4))}`,
      voice_code: i % 2 ? 'en_female_emily_us' : 'vi_female_thuytrang_mb',
      callback_url: receiver.url,
      generate_srt: i % 3 === 0,
    }));
    const accepted = await Promise.all(bodies.map((b) => api(server!.url, 'POST', '/api/v1/tts', b)));
    for (const res of accepted) expect(res.status, res.text).toBe(200);
    const ids = accepted.map((r) => r.json.result.request_id as string);
    const costs = accepted.map(
      (r, i) => r.json.result.characters * (bodies[i]!.voice_code === 'en_female_emily_us' ? 1000 : 1000),
    );

    // Kill it once some, but not all, callbacks have come in.
    await receiver.waitFor(3);
    server.child.kill('SIGKILL');
    expect(await server.exited).toBeNull();
    const killedAt = Date.now();
    const deliveredBefore = new Set(
      receiver.received.map((c) => (c.json as { request_id: string }).request_id),
    );
    expect(deliveredBefore.size).toBeLessThan(ids.length);

    server = await startServerProcess(args(), undefined, cli);
    const base = server.url;
    await eventually(() => {
      const delivered = new Set(
        receiver.received
          .filter((c) => (c.json as { status: string }).status === 'SUCCESS')
          .map((c) => (c.json as { request_id: string }).request_id),
      );
      return ids.every((id) => delivered.has(id)) ? true : undefined;
    }, 90_000);

    for (const id of ids) {
      const detail = (await api(base, 'GET', `/api/v1/tts/${id}`)).json.result;
      expect(detail.status).toBe('SUCCESS');
      const audio = await fetchUrl(detail.audio_link, 'GET');
      expect(audio.status).toBe(200);
      expect(audio.body.length).toBe(detail.audio_bytes);
      // The whole file parses as MP3, last frame included.
      const info = parseMp3(audio.body);
      expect(info.durationMs).toBeGreaterThan(1000);
      if (detail.generate_srt) expect((await fetchUrl(detail.srt_link, 'GET')).text).toMatch(/^1\r?\n/);
    }
    const partials = readdirSync(join(dir, 'audio')).filter((f) => f.includes('partial'));
    if (onPostgres) {
      // On a shared database another instance may be writing a temporary file right now, so a
      // start sweeps only old ones (15 min): the killed process's are left to that sweep. The
      // restarted one left none of its own.
      const afterKill = partials.filter((f) => statSync(join(dir, 'audio', f)).mtimeMs > killedAt);
      expect(afterKill).toEqual([]);
    } else expect(partials).toEqual([]);

    // Charged exactly once each, nothing refunded.
    const usage = (await api(base, 'GET', '/api/v1/usage?page_size=100')).json.result;
    const charges = usage.ledger.filter((e: { kind: string }) => e.kind === 'charge');
    expect(charges).toHaveLength(ids.length);
    expect(usage.ledger.filter((e: { kind: string }) => e.kind === 'refund')).toHaveLength(0);
    expect(usage.balance_milli).toBe(1_000_000_000 - costs.reduce((a, b) => a + b, 0));
    expect(usage.queued).toBe(0);

    // SIGTERM stops it gracefully.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    server = undefined;
  }, 180_000);
});
