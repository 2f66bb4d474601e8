/**
 * A sign-in that lasts (issue 27): the studio's session survives a restart of `serve` on the same
 * data directory, which listens on the same port each time (its last one, kept in the data
 * folder, or the next free one when another program took it), until signed out or its key is
 * revoked. Sessions are stored as hashes only. Adding credits (`keys credit`,
 * POST /api/v1/keys/<id>/credits): adding-credits.test.ts.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort, LAST_PORT_FILE } from '../../../electron/core/platform/ports';
import { dataPaths } from '../../../electron/core/platform/paths';
import { openDatabase } from '../../../electron/core/store/sqlite-database';
import { signInStudio, type StudioSession } from '../../fixtures/studio-session';
import { useCompiledCli } from '../../fixtures/compiled-cli';
import { fetchUrl } from './helpers';
import { runEntry, startServerProcess, type ServerProcess } from './process';

const KEY = 'sign-in-lasts-test-key-0123456789abcdef';
/** Four starts of `serve` and a `keys revoke`: the bundle, not the sources compiled again each time. */
const cli = useCompiledCli();

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
    server = await startServerProcess(serveArgs(), undefined, cli);
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

  it('moves off a taken port and remembers it, keeps the session there, then ends it on sign-out and on revocation', async () => {
    // Its last port taken by another program: another free one, said in one line, remembered.
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen({ port, host: '127.0.0.1' }, resolve));
    let home!: string;
    let studio!: StudioSession;
    let other!: StudioSession;
    let keyId!: string;
    try {
      const moved = await start();
      home = moved.url;
      expect(home).not.toBe(`http://127.0.0.1:${port}`);
      const movedPort = Number(new URL(home).port);
      expect(moved.stderr()).toContain(
        `port ${port} is in use by another program: listening on ${movedPort} instead (this data folder's next start tries ${movedPort} first)`,
      );
      studio = await signInStudio(loginUrl(moved));
      expect(studio.cookie).toMatch(new RegExp(`^ns_session_${movedPort}=`));
      expect((await session(moved, studio)).status).toBe(200);
      await stop();
      expect(JSON.parse(readFileSync(join(dir, LAST_PORT_FILE), 'utf8'))).toEqual({ port: movedPort });

      // Only hashes are stored: neither the cookie's id nor the session's value is in the database.
      const db = openDatabase(dataPaths(dir).database);
      const rows = await db.all<Record<string, unknown>>('SELECT * FROM studio_sessions');
      await db.close();
      expect(rows).toHaveLength(1);
      const stored = JSON.stringify(rows);
      expect(stored).not.toContain(studio.value);
      expect(stored).not.toContain(studio.cookie.split('=')[1]!);
      expect(rows[0]!.secret_hash).toMatch(/^[0-9a-f]{64}$/);

      // A restart (the blocker still there) lands on that port again, without a notice, still signed in.
      const second = await start();
      expect(second.url).toBe(home);
      expect(second.stderr()).not.toContain('is in use');
      const again = await session(second, studio);
      expect(again.status).toBe(200);
      expect(again.json.result.key.name).toBe('serve --api-key');
      keyId = again.json.result.key.id as string;
      // Signing out ends it, and a restart does not bring it back.
      const out = await fetchUrl(`${second.url}/api/v1/session`, 'DELETE', { headers: studio.headers });
      expect(out.status).toBe(200);
      expect((await session(second, studio)).status).toBe(401);
      other = await signInStudio(loginUrl(second));
      expect((await session(second, other)).status).toBe(200);
      await stop();
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }

    const third = await start();
    expect(third.url).toBe(home);
    expect((await session(third, studio)).status).toBe(401);
    expect((await session(third, other)).status).toBe(200);
    await stop();

    // Revoking the key (offline, with the CLI) ends the session acting with it.
    const revoked = await runEntry(['keys', 'revoke', keyId, '--data-dir', dir], cli);
    expect(revoked.code, revoked.stderr).toBe(0);
    const fourth = await start();
    const refused = await session(fourth, other);
    expect(refused.status).toBe(401);
    expect(refused.json.error_code).toBe('UNAUTHORIZED');
    await stop();
  }, 300_000); // four starts of serve: a minute on a busy machine
});
