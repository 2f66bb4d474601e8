/**
 * Idempotency-Key on POST /api/v1/tts over real HTTP on a real core (engine, the run's database):
 * a resent submit answers the first request's record with `Idempotent-Replayed: true`, is
 * stored and charged once, also after 24 h less a moment (the core's clock is the test's)
 * and across a restart of the core on the same data directory (and database).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_WINDOW_MS } from '../../../electron/core/jobs/idempotency';
import { createApiKey, hashKey } from '../../../electron/core/jobs/keys';
import type { Clock } from '../../../electron/core/platform/clock';
import { createCore } from '../../../electron/core/studio-core';
import { testDatabase } from '../../fixtures/test-store';
import { fetchUrl, startTestCore, type TestCore } from './helpers';
import type { HttpResult } from './http';

let t: TestCore;
let now = Date.parse('2026-03-01T12:00:00.000Z');
const clock: Clock = { now: () => now };

beforeAll(async () => {
  t = await startTestCore({ clock });
});
afterAll(async () => {
  await t?.close();
});

const BODY = { input_text: 'Idempotent submits are stored once.', voice_code: 'en_female_emily_us' };

function submit(idempotencyKey: string | undefined, body: unknown = BODY, key = t.key): Promise<HttpResult> {
  return t.call('POST', '/api/v1/tts', {
    body,
    key,
    ...(idempotencyKey === undefined ? {} : { headers: { 'idempotency-key': idempotencyKey } }),
  });
}

async function keyIdOf(key: string): Promise<string> {
  return (await t.core.store.keys.findByHash(hashKey(key)))!.id;
}

/** Requests and charges of an API key, read from the store. */
async function counts(key: string): Promise<{ requests: number; charges: number }> {
  const keyId = await keyIdOf(key);
  return {
    requests: (await t.core.store.requests.list({ keyId, limit: 1000, offset: 0 })).total,
    charges: (await t.core.store.ledger.list(keyId, 1000, 0)).rows.filter((e) => e.kind === 'charge').length,
  };
}

function expectError(res: HttpResult, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toBe('text/json; charset=utf-8');
  expect(res.json).toMatchObject({ status: 0, error_code: code, error_message: expect.any(String) });
}

describe('Idempotency-Key on POST /api/v1/tts', () => {
  it('answers the same key and body with the first record, marked replayed, stored and charged once', async () => {
    const key = await t.newKey();
    const first = await submit('order-0001', BODY, key);
    expect(first.status, first.text).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // Same request as validated: other key order, a default spelt out.
    const again = await submit(
      'order-0001',
      { voice_code: BODY.voice_code, bitrate: 128, input_text: BODY.input_text },
      key,
    );
    expect(again.status, again.text).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json).toEqual(first.json);
    expect(await counts(key)).toEqual({ requests: 1, charges: 1 });
    // Without the header nothing changes: a second request.
    const plain = await submit(undefined, BODY, key);
    expect(plain.json.result.request_id).not.toBe(first.json.result.request_id);
    expect(await counts(key)).toEqual({ requests: 2, charges: 2 });
  });

  it('compares the request as validated: a number sent as a string is the same request', async () => {
    const key = await t.newKey();
    const first = await submit('as-string', { ...BODY, bitrate: 128, speed_rate: 1 }, key);
    expect(first.status, first.text).toBe(200);
    const again = await submit('as-string', { ...BODY, bitrate: '128', speed_rate: '1.0' }, key);
    expect(again.status, again.text).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json.result.request_id).toBe(first.json.result.request_id);
  });

  it('counts the asked answer as part of the request: indirect then direct under one key is refused', async () => {
    const key = await t.newKey();
    expect((await submit('answer-kind', BODY, key)).status).toBe(200);
    expectError(
      await submit('answer-kind', { ...BODY, response_type: 'direct' }, key),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
    expect(await counts(key)).toEqual({ requests: 1, charges: 1 });
  });

  it('refuses the same key with a different body: 422 IDEMPOTENCY_KEY_REUSED in the API error shape', async () => {
    const key = await t.newKey();
    expect((await submit('reused', BODY, key)).status).toBe(200);
    const other = await submit('reused', { ...BODY, speed_rate: 1.2 }, key);
    expectError(other, 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(other.json.error_message).toContain('Idempotency-Key');
    expect(await counts(key)).toEqual({ requests: 1, charges: 1 });
  });

  it('keeps keys apart per API key', async () => {
    const a = await t.newKey();
    const b = await t.newKey();
    const fromA = await submit('shared-key', BODY, a);
    const fromB = await submit('shared-key', { ...BODY, volume: 120 }, b);
    expect(fromB.status, fromB.text).toBe(200);
    expect(fromB.headers['idempotent-replayed']).toBeUndefined();
    expect(fromB.json.result.request_id).not.toBe(fromA.json.result.request_id);
    expect(await counts(a)).toEqual({ requests: 1, charges: 1 });
    expect(await counts(b)).toEqual({ requests: 1, charges: 1 });
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a tab inside', 'a\tb'],
  ])('answers an invalid header (%s) with 400 naming the header, storing nothing', async (_name, value) => {
    const key = await t.newKey();
    const res = await submit(value, BODY, key);
    expectError(res, 400, 'INVALID_FIELD');
    expect(res.json.error_message).toContain('Idempotency-Key');
    expect(await counts(key)).toEqual({ requests: 0, charges: 0 });
  });

  it('answers a non-ASCII or repeated header with 400, and takes 255 printable characters', async () => {
    const key = await t.newKey();
    const url = `${t.core.url}/api/v1/tts`;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const latin1 = await fetchUrl(url, 'POST', {
      headers: { ...headers, 'idempotency-key': 'caf\u00e9' },
      body: JSON.stringify(BODY),
    });
    expectError(latin1, 400, 'INVALID_FIELD');
    const twice = await fetchUrl(url, 'POST', {
      headers: { ...headers, 'idempotency-key': ['one', 'two'] } as unknown as Record<string, string>,
      body: JSON.stringify(BODY),
    });
    expectError(twice, 400, 'INVALID_FIELD');
    expect(twice.json.error_message).toContain('Idempotency-Key');
    expect(await counts(key)).toEqual({ requests: 0, charges: 0 });
    const longest = ' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'.padEnd(255, 'x');
    expect((await submit(longest, BODY, key)).status).toBe(200);
    expect((await submit(longest, BODY, key)).headers['idempotent-replayed']).toBe('true');
  });

  it('forgets a key after 24 h: a new request', async () => {
    const key = await t.newKey();
    const first = await submit('day-old', BODY, key);
    now += IDEMPOTENCY_WINDOW_MS - 1000;
    const within = await submit('day-old', BODY, key);
    expect(within.headers['idempotent-replayed']).toBe('true');
    expect(within.json.result.request_id).toBe(first.json.result.request_id);
    now += 2000;
    const after = await submit('day-old', BODY, key);
    expect(after.status, after.text).toBe(200);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(after.json.result.request_id).not.toBe(first.json.result.request_id);
    expect(await counts(key)).toEqual({ requests: 2, charges: 2 });
  });
});

describe('Idempotency-Key across a restart', () => {
  it('replays a key stored before the core was closed and started again on the same data directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idempotency-restart-'));
    // The same data directory, and on the PostgreSQL run the same database.
    const database = await testDatabase();
    const start = () =>
      createCore({
        dataDir: dir,
        ...(database.databaseUrl ? { databaseUrl: database.databaseUrl } : {}),
        settingsDir: join(dir, 'config'),
        port: 0,
        poolSize: 1,
      });
    try {
      let core = await start();
      const { key, row } = await createApiKey(core.store, clock);
      const send = (base: string) =>
        fetchUrl(`${base}/api/v1/tts`, 'POST', {
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'idempotency-key': 'before-restart',
          },
          body: JSON.stringify(BODY),
        });
      const first = await send(core.url);
      expect(first.status, first.text).toBe(200);
      await core.close();
      core = await start();
      try {
        const again = await send(core.url);
        expect(again.status, again.text).toBe(200);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.json.result.request_id).toBe(first.json.result.request_id);
        expect((await core.store.requests.list({ keyId: row.id, limit: 10, offset: 0 })).total).toBe(1);
        expect(
          (await core.store.ledger.list(row.id, 10, 0)).rows.filter((e) => e.kind === 'charge'),
        ).toHaveLength(1);
      } finally {
        await core.close();
      }
    } finally {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
