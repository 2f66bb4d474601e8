/**
 * The headless `serve` and `keys` commands on the run's database: the SQLite file of --data-dir,
 * or a PostgreSQL database (`--database`) on the PostgreSQL run. One `serve` process serves the
 * keys that `keys` made; the option refusals and `keys` itself run in this process
 * (cli-in-process.ts), which reads the same database and lock as a process would.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchUrl } from '../server/helpers';
import { runKeys } from '../../../electron/core/cli/keys-command';
import { runServe } from '../../../electron/core/cli/serve-command';
import { startServerProcess } from '../server/process';
import { runHere } from '../../fixtures/cli-in-process';
import { testDatabase, type TestDatabase } from '../../fixtures/test-store';

let dir: string;
let database: TestDatabase;
/** Where the commands keep their data: --data-dir, and --database on the PostgreSQL run. */
let where: string[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'commands-test-'));
  database = await testDatabase();
  where = ['--data-dir', dir, ...(database.databaseUrl ? ['--database', database.databaseUrl] : [])];
});
const serve = (args: string[]) => runHere(runServe, args);
const keys = (...args: string[]) => runHere(runKeys, args);

afterAll(async () => {
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('serve', () => {
  it('rejects bad options with a clear message and exit code 2', async () => {
    const port = await serve(['--port', 'abc', '--data-dir', dir]);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port must be an integer from 0 to 65535, got "abc"');
    const unknown = await serve(['--colour', 'blue']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--colour'/);
    const key = await serve(['--api-key', 'short', '--data-dir', dir]);
    expect(key.code).toBe(2);
    expect(key.stderr).toContain('--api-key must be 32 to 256 visible ASCII characters');
    // One character short of the minimum is refused just the same.
    const almost = await serve(['--api-key', 'k'.repeat(31), '--data-dir', dir]);
    expect(almost.code).toBe(2);
    expect(almost.stderr).toContain('--api-key must be 32 to 256 visible ASCII characters');
    const url = await serve(['--database', 'mysql://h/db', '--data-dir', dir]);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('--database must be a postgres:// URL');
    const lease = await serve(['--lease', '5', '--data-dir', dir]);
    expect(lease.code).toBe(2);
    expect(lease.stderr).toContain('--lease applies with --database only');
    const policy = await serve(['--unknown-voices', 'nearest', '--data-dir', dir]);
    expect(policy.code).toBe(2);
    expect(policy.stderr).toContain('--unknown-voices must be refuse or closest');
    // One line each, naming the option and the value.
    for (const [alias, message] of [
      [
        'hn_female_x=no_such_voice',
        '--voice-alias: "no_such_voice" (the voice for "hn_female_x") is not one of our voice codes',
      ],
      ['hn_female_x', '--voice-alias: "hn_female_x" must be CODE=OURCODE'],
    ]) {
      const bad = await serve(['--voice-alias', alias!, '--data-dir', dir]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain(message);
    }
    // --allow-origin: never a wildcard inside an origin, never a page without an origin, never a path; the first line says why.
    const star = await serve(['--allow-origin', 'https://*.example.com', '--data-dir', dir]);
    expect(star.code).toBe(2);
    expect(star.stderr.split('\n')[0]).toMatch(
      /^error: --allow-origin: "https:\/\/\*\.example\.com" is refused: a wildcard inside an origin is not supported; name each/,
    );
    const file = await serve(['--allow-origin', 'file:///home/me/page.html', '--data-dir', dir]);
    expect(file.code).toBe(2);
    expect(file.stderr.split('\n')[0]).toMatch(
      /^error: --allow-origin: "file:\/\/\/home\/me\/page\.html" is refused: file: addresses are not pages with an origin of their own/,
    );
    const path = await serve(['--allow-origin', 'http://127.0.0.1:5001/lite', '--data-dir', dir]);
    expect(path.code).toBe(2);
    expect(path.stderr).toContain(
      'an origin is scheme://host[:port] with no path, here http://127.0.0.1:5001.',
    );
    // --trust-proxy: an address, a range or a range's name, nothing else (more in http-edge.test.ts).
    const proxy = await serve(['--trust-proxy', 'proxy.example.com', '--data-dir', dir]);
    expect(proxy.code).toBe(2);
    expect(proxy.stderr).toContain(
      '--trust-proxy: "proxy.example.com" is not an address, a range such as 10.0.0.0/8, or loopback, linklocal, uniquelocal',
    );
  });
});

describe('keys and serve', () => {
  it('keys creates (shown once), lists and revokes; serve prints its line, ensures --api-key, holds the data dir, refuses the revoked key, stops on SIGINT', async () => {
    const created = await keys('create', '--name', 'integration', '--balance', '12.5', ...where);
    expect(created.code, created.stderr).toBe(0);
    const key = /API key \(shown once, store it now\): (\S+)/.exec(created.stdout)?.[1];
    const id = /id:\s+(key_[0-9a-f]+)/.exec(created.stdout)?.[1];
    expect(key).toMatch(/^nsk_/);
    expect(created.stdout).toContain('balance:        12.5 credits');
    expect(created.stdout).toMatch(/signing secret: whsec_/);

    const list = await keys('list', '--json', ...where);
    const listed = JSON.parse(list.stdout) as { id: string; name: string; revoked_at: string | null }[];
    expect(listed.find((k) => k.id === id)).toMatchObject({ name: 'integration', revoked_at: null });
    expect(list.stdout).not.toContain(key!);
    // No output shows more than 4 characters of a key (generated ones: the "nsk_" every key has).
    const text = await keys('list', ...where);
    for (const out of [created.stdout.replace(key!, ''), list.stdout, text.stdout])
      expect(out).not.toContain(key!.slice(0, 5));
    expect(text.stdout).toContain(`${id}  nsk_…  integration`);

    const revoked = await keys('revoke', id!, ...where);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`revoked ${id}`);
    expect((await keys('revoke', 'key_nope', ...where)).code).toBe(1);
    expect((await keys('frobnicate')).code).toBe(2);

    const server = await startServerProcess([
      '--port',
      '0',
      ...where,
      '--api-key',
      'serve-test-key-0123456789abcdef-1',
      '--pool-size',
      '1',
    ]);
    expect(server.stdout()).toMatch(
      /^listening on http:\/\/127\.0\.0\.1:(\d+)\nopen http:\/\/127\.0\.0\.1:\1\/\?token=[0-9a-f]{32,}\n$/,
    );
    const usage = await fetchUrl(`${server.url}/api/v1/usage`, 'GET', {
      headers: { authorization: 'Bearer serve-test-key-0123456789abcdef-1' },
    });
    expect(usage.json.result.balance).toBe(1_000_000);
    const refused = await fetchUrl(`${server.url}/api/v1/usage`, 'GET', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(refused.status).toBe(401);
    if (database.databaseUrl) {
      // A shared database: keys are managed while instances serve from it.
      const during = await keys('list', '--json', ...where);
      expect(during.code, during.stderr).toBe(0);
      expect(JSON.parse(during.stdout)).toContainEqual(expect.objectContaining({ name: 'serve --api-key' }));
    } else {
      // The database belongs to the running server.
      const busy = await keys('list', '--data-dir', dir);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toMatch(/in use by process \d+/);
    }
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
  });
});
