/**
 * Adding credits (issue 27): `keys credit` (the command's function run in this process on a real
 * SQLite data folder) and POST /api/v1/keys/<id>/credits (the HTTP app over a real store, called
 * with fastify's inject). The keys command as a process of its own, on a data folder a restarted
 * `serve` reads: sign-in-lasts.test.ts.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKeys } from '../../../electron/core/cli/keys-command';
import { revokeApiKey } from '../../../electron/core/jobs/keys';
import { systemClock } from '../../../electron/core/platform/clock';
import { dataPaths } from '../../../electron/core/platform/paths';
import { openDatabase } from '../../../electron/core/store/sqlite-database';
import type { StudioSession } from '../../fixtures/studio-session';
import { buildTestApp, type TestApp } from './inject';
import { runHere } from '../../fixtures/cli-in-process';

describe('keys credit: adding credits from the command line', () => {
  let dir: string;
  let keyId: string;
  const keys = (...args: string[]) => runHere(runKeys, [...args, '--data-dir', dir]);
  const credit = (...args: string[]) => keys('credit', ...args);
  const balance = async () => JSON.parse((await keys('list', '--json')).stdout)[0].balance as number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'keys-credit-'));
    const created = await keys('create', '--name', 'Tester', '--balance', '10');
    expect(created.code, created.stderr).toBe(0);
    keyId = /^id: +(\S+)$/m.exec(created.stdout)![1]!;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
  });

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
  });

  it('refuses a revoked key', async () => {
    const other = await keys('create', '--name', 'Old');
    const otherId = /^id: +(\S+)$/m.exec(other.stdout)![1]!;
    expect((await keys('revoke', otherId)).code).toBe(0);
    const res = await credit(otherId, '5');
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      new RegExp(`^error: The API key ${otherId} was revoked on .*: it takes no credits\\.\\n$`),
    );
  });
});

describe('POST /api/v1/keys/<id>/credits', () => {
  let t: TestApp;
  let studio: StudioSession;
  beforeAll(async () => {
    t = await buildTestApp();
    studio = await t.signIn();
  });
  afterAll(async () => t?.close());

  const post = (id: string, body: unknown, headers: Record<string, string> = studio.headers) =>
    t.call('POST', `/api/v1/keys/${id}/credits`, { body, headers, key: null });
  const sessionKey = async () =>
    (await t.call('GET', '/api/v1/session', { headers: studio.headers, key: null })).json.result.key;

  it("adds credits to the studio's key; the session's balance shows them", async () => {
    const before = await sessionKey();
    const res = await post(before.id, { credits: 1234 });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.id).toBe(before.id);
    expect(res.json.result.balance).toBe(before.balance + 1234);
    expect((await sessionKey()).balance).toBe(before.balance + 1234);
  });

  it('refuses bad amounts, unknown and revoked keys, and bearer keys, in the error shape', async () => {
    const id = (await sessionKey()).id as string;
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
      await t.call('GET', '/api/v1/keys', { headers: studio.headers, key: null })
    ).json.result.items.find((k: { name: string; id: string }) => k.id !== id)!.id as string;
    // A bearer key may not give itself credits.
    const bearer = await post(otherId, { credits: 5 }, { authorization: `Bearer ${other}` });
    expect(bearer.status).toBe(401);
    await revokeApiKey(t.store, systemClock, otherId);
    const revoked = await post(otherId, { credits: 5 });
    expect(revoked.status).toBe(409);
    expect(revoked.json.error_code).toBe('KEY_REVOKED');
  });
});
