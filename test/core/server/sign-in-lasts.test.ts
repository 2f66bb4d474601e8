/**
 * A sign-in that lasts (issue 27): the studio's session survives a restart of `serve` on the same
 * data directory, which listens on the same port each time (its last one, kept in the data
 * folder), until signed out or its key is revoked. Sessions are stored as hashes only. Adding
 * credits: `keys credit` (the real CLI on a real SQLite data folder) and
 * POST /api/v1/keys/<id>/credits (real HTTP on 127.0.0.1).
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort, LAST_PORT_FILE } from '../../../electron/core/platform/ports';
import { dataPaths } from '../../../electron/core/platform/paths';
import { openDatabase } from '../../../electron/core/store/sqlite-database';
import { revokeApiKey } from '../../../electron/core/jobs/keys';
import { systemClock } from '../../../electron/core/platform/clock';
import { signInStudio, type StudioSession } from '../../fixtures/studio-session';
import { fetchUrl, startSignedInCore, type SignedInTestCore } from './helpers';
import { runEntry, startServerProcess, type ServerProcess } from './process';

const KEY = 'sign-in-lasts-test-key-0123456789abcdef';

describe('a sign-in that lasts across restarts of serve on the same data folder', () => {
  let dir: string;
  let server: ServerProcess | undefined;
  let port: number;

  const serveArgs = () => [
    '--data-dir',
    dir,
    '--settings-dir',
    join(dir, 'config'),
    '--api-key',
    KEY,
    '--pool-size',
    '1',
  ];
  const start = async () => {
    server = await startServerProcess(serveArgs());
    return server;
  };
  const stop = async () => {
    server!.child.kill('SIGTERM');
    expect(await server!.exited).toBe(0);
    server = undefined;
  };
  /** The newest sign-in address the server printed (each works once). */
  const loginUrl = (s: ServerProcess) => [...s.stdout().matchAll(/^open (\S+)$/gm)].at(-1)![1]!;
  const session = (s: ServerProcess, studio: StudioSession) =>
    fetchUrl(`${s.url}/api/v1/session`, 'GET', { headers: studio.headers });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sign-in-lasts-'));
    // The data folder's last port: a free one above the default (8787 may be another test's).
    // Below Linux's ephemeral ports (32768 up), which other tests' connections and port-0 servers take.
    port = await findFreePort(20_000 + Math.floor(Math.random() * 12_000));
    writeFileSync(join(dir, LAST_PORT_FILE), JSON.stringify({ port }));
  });
  afterAll(async () => {
    if (server) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('listens on the same port, keeps the session, then ends it on sign-out and on revocation', async () => {
    const first = await start();
    expect(first.url).toBe(`http://127.0.0.1:${port}`);
    const studio = await signInStudio(loginUrl(first));
    expect(studio.cookie).toMatch(new RegExp(`^ns_session_${port}=`));
    expect((await session(first, studio)).status).toBe(200);
    await stop();

    // Only hashes are stored: neither the cookie's id nor the session's value is in the database.
    const db = openDatabase(dataPaths(dir).database);
    const rows = await db.all<Record<string, unknown>>('SELECT * FROM studio_sessions');
    await db.close();
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(studio.value);
    expect(stored).not.toContain(studio.cookie.split('=')[1]!);
    expect(rows[0]!.secret_hash).toMatch(/^[0-9a-f]{64}$/);

    // A restart: same address, still signed in.
    const second = await start();
    expect(second.url).toBe(`http://127.0.0.1:${port}`);
    const again = await session(second, studio);
    expect(again.status).toBe(200);
    expect(again.json.result.key.name).toBe('serve --api-key');
    // Signing out ends it, and a restart does not bring it back.
    const out = await fetchUrl(`${second.url}/api/v1/session`, 'DELETE', { headers: studio.headers });
    expect(out.status).toBe(200);
    expect((await session(second, studio)).status).toBe(401);
    const other = await signInStudio(loginUrl(second));
    expect((await session(second, other)).status).toBe(200);
    await stop();

    const third = await start();
    expect((await session(third, studio)).status).toBe(401);
    expect((await session(third, other)).status).toBe(200);
    await stop();

    // Revoking the key (offline, with the CLI) ends the session acting with it.
    const keyId = JSON.parse((await runEntry(['keys', 'list', '--json', '--data-dir', dir])).stdout)[0].id;
    const revoked = await runEntry(['keys', 'revoke', keyId, '--data-dir', dir]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const fourth = await start();
    const refused = await session(fourth, other);
    expect(refused.status).toBe(401);
    expect(refused.json.error_code).toBe('UNAUTHORIZED');
    await stop();
  }, 120_000);

  it('takes another free port when its last one is taken, says so in one line, and remembers it', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen({ port, host: '127.0.0.1' }, resolve));
    try {
      const moved = await start();
      expect(moved.url).not.toBe(`http://127.0.0.1:${port}`);
      const movedPort = Number(new URL(moved.url).port);
      expect(moved.stderr()).toContain(
        `port ${port} is in use by another program: listening on ${movedPort} instead (this data folder's next start tries ${movedPort} first)`,
      );
      await stop();
      expect(JSON.parse(readFileSync(join(dir, LAST_PORT_FILE), 'utf8'))).toEqual({ port: movedPort });
      // The next start (the blocker still there) lands on that one again, without a notice.
      const same = await start();
      expect(same.url).toBe(moved.url);
      expect(same.stderr()).not.toContain('is in use');
      await stop();
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  }, 120_000);
});

describe('keys credit: adding credits from the command line', () => {
  let dir: string;
  let keyId: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'keys-credit-'));
    const created = await runEntry([
      'keys',
      'create',
      '--name',
      'Tester',
      '--balance',
      '10',
      '--data-dir',
      dir,
    ]);
    expect(created.code, created.stderr).toBe(0);
    keyId = /^id: +(\S+)$/m.exec(created.stdout)![1]!;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const credit = (...args: string[]) => runEntry(['keys', 'credit', ...args, '--data-dir', dir]);
  const balance = async () =>
    JSON.parse((await runEntry(['keys', 'list', '--json', '--data-dir', dir])).stdout)[0].balance as number;

  it('adds whole credits to a key by id or prefix, with a grant in its ledger', async () => {
    const added = await credit(keyId, '2500');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe(`added 2,500 credits to ${keyId} (Tester): balance 2,510 credits\n`);
    expect(await balance()).toBe(2510);
    expect((await credit('nsk_', '1')).code).toBe(0);
    expect(await balance()).toBe(2511);
    const db = openDatabase(dataPaths(dir).database);
    const grants = await db.all("SELECT amount_milli FROM ledger WHERE kind = 'grant' ORDER BY id");
    await db.close();
    expect(grants).toEqual([{ amount_milli: 10_000 }, { amount_milli: 2_500_000 }, { amount_milli: 1000 }]);
  }, 60_000);

  it('refuses bad input in one line and changes nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['key_nope', '5'], /^error: No API key with id or prefix "key_nope"\.\n$/],
      [[keyId, '0'], /^error: credits must be above 0, got "0"\n$/],
      [[keyId, '1.5'], /^error: credits must be a whole number of credits above 0, got "1\.5"\n$/],
      [[keyId, 'ten'], /^error: credits must be a whole number of credits above 0, got "ten"\n$/],
      [[keyId, '1000000001'], /^error: credits must be at most 1,000,000,000 at a time, got "1000000001"\n$/],
    ];
    for (const [args, message] of cases) {
      const res = await credit(...args);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.stderr).toMatch(message);
    }
    // A negative number is not an amount either (the command line reads it as an option).
    const negative = await credit(keyId, '-5');
    expect(negative.code).not.toBe(0);
    expect(negative.stderr.split('\n')[0]).toMatch(/^error: .*-5/);
    const missing = await credit(keyId);
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe(
      'error: keys credit takes a key (its id, prefix or the key) and a number of credits',
    );
    expect(await balance()).toBe(2511);
  }, 60_000);

  it('refuses a revoked key', async () => {
    const other = await runEntry(['keys', 'create', '--name', 'Old', '--data-dir', dir]);
    const otherId = /^id: +(\S+)$/m.exec(other.stdout)![1]!;
    expect((await runEntry(['keys', 'revoke', otherId, '--data-dir', dir])).code).toBe(0);
    const res = await credit(otherId, '5');
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      new RegExp(`^error: The API key ${otherId} was revoked on .*: it takes no credits\\.\\n$`),
    );
  }, 60_000);
});

describe('POST /api/v1/keys/<id>/credits', () => {
  let t: SignedInTestCore;
  let studio: StudioSession;
  beforeAll(async () => {
    t = await startSignedInCore();
    studio = t.studio;
  });
  afterAll(async () => t?.close());

  const post = (id: string, body: unknown, headers: Record<string, string> = studio.headers) =>
    fetchUrl(`${t.core.url}/api/v1/keys/${id}/credits`, 'POST', {
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it("adds credits to the studio's key; the session's balance shows them", async () => {
    const before = (await fetchUrl(`${t.core.url}/api/v1/session`, 'GET', { headers: studio.headers })).json
      .result.key;
    const res = await post(before.id, { credits: 1234 });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.id).toBe(before.id);
    expect(res.json.result.balance).toBe(before.balance + 1234);
    const after = (await fetchUrl(`${t.core.url}/api/v1/session`, 'GET', { headers: studio.headers })).json
      .result.key;
    expect(after.balance).toBe(before.balance + 1234);
  });

  it('refuses bad amounts, unknown and revoked keys, and bearer keys, in the error shape', async () => {
    const id = (await fetchUrl(`${t.core.url}/api/v1/session`, 'GET', { headers: studio.headers })).json
      .result.key.id as string;
    for (const body of [
      { credits: 0 },
      { credits: -3 },
      { credits: 2.5 },
      { credits: '5' },
      {},
      { credits: 1e10 },
    ]) {
      const res = await post(id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
    }
    const unknown = await post('key_000000000000', { credits: 5 });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error_code).toBe('KEY_NOT_FOUND');

    const other = await t.newKey();
    const otherId = (
      await fetchUrl(`${t.core.url}/api/v1/keys`, 'GET', { headers: studio.headers })
    ).json.result.items.find((k: { name: string; id: string }) => k.id !== id)!.id as string;
    // A bearer key may not give itself credits.
    const bearer = await post(otherId, { credits: 5 }, { authorization: `Bearer ${other}` });
    expect(bearer.status).toBe(401);
    await revokeApiKey(t.core.store, systemClock, otherId);
    const revoked = await post(otherId, { credits: 5 });
    expect(revoked.status).toBe(409);
    expect(revoked.json.error_code).toBe('KEY_REVOKED');
  });
});
