/**
 * A developer sees their apps' traffic from the studio: History (GET /api/v1/tts), Callbacks
 * (each request's attempts, resend) and the credits (GET /api/v1/usage) of one key or of all
 * (`key=all|<id>`, the signed-in studio only; a bearer key sees only its own), and each key's
 * signing secret rotated (POST /api/v1/keys/<id>/rotate-secret, session only): deliveries after
 * the rotation are signed with the new secret alone. Over real HTTP on the run's database.
 */

import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startReceiver,
  type CallbackReceiver,
  type ReceivedCallback,
} from '../../fixtures/callback-receiver';
import { startSignedInCore, type SignedInTestCore } from './helpers';

let t: SignedInTestCore;
let receiver: CallbackReceiver;
/** Cookie and X-Studio-Session: a signed-in call. */
let studio: Record<string, string>;
/** A second app's key, and the ids of both keys and of the studio's. */
let appKey: string;
let appId: string;
let firstId: string;
let studioId: string;
let appRequest: string;
let firstRequest: string;

const asStudio = (method: 'GET' | 'POST', path: string, body?: unknown) =>
  t.call(method, path, { key: null, headers: studio, ...(body === undefined ? {} : { body }) });

/** True when `c`'s X-Narration-Signature is the HMAC of its body under `secret`. */
function signedWith(c: ReceivedCallback, secret: string): boolean {
  const header = String(c.headers['x-narration-signature']);
  const ts = /(?:^|,)t=(\d+)/.exec(header)![1]!;
  const v1 = /(?:^|,)v1=([0-9a-f]{64})/.exec(header)![1]!;
  return createHmac('sha256', secret).update(`${ts}.${c.body}`).digest('hex') === v1;
}

async function submit(key: string, text: string): Promise<string> {
  const res = await t.call('POST', '/api/v1/tts', {
    key,
    body: { input_text: text, voice_code: 'en_female_emily_us', callback_url: receiver.url },
  });
  expect(res.status).toBe(200);
  return res.json.result.request_id as string;
}

beforeAll(async () => {
  receiver = await startReceiver();
  t = await startSignedInCore();
  ({ headers: studio } = t.studio);
  appKey = await t.newKey();
  studioId = (await asStudio('GET', '/api/v1/session')).json.result.key.id;
  const keys = (await asStudio('GET', '/api/v1/keys')).json.result.items as { id: string }[];
  [firstId, appId] = [keys[0]!.id, keys.at(-1)!.id];
  firstRequest = await submit(t.key, 'The first app speaks.');
  appRequest = await submit(appKey, 'The second app speaks.');
  await receiver.waitFor(2);
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe('History, Callbacks and credits of one key or all', () => {
  it('the studio lists its own key by default, one key with key=<id>, every key with key=all', async () => {
    const ids = async (query: string) =>
      ((await asStudio('GET', `/api/v1/tts${query}`)).json.result.items as { request_id: string }[]).map(
        (r) => r.request_id,
      );
    // The studio acts with the first key here (its key when the database has none).
    expect(studioId).toBe(firstId);
    expect(await ids('')).toEqual([firstRequest]);
    expect(await ids(`?key=${appId}`)).toEqual([appRequest]);
    expect(await ids(`?key=${firstId}`)).toEqual([firstRequest]);
    const all = (await asStudio('GET', '/api/v1/tts?key=all')).json.result;
    expect(all.total).toBe(2);
    expect(all.items.map((r: { request_id: string; key_id: string }) => [r.request_id, r.key_id])).toEqual([
      [appRequest, appId],
      [firstRequest, firstId],
    ]);
    // Filters still apply on top of the key.
    expect(await ids('?key=all&status=new')).toEqual([]);
  });

  it("the studio reads and resends any key's callbacks", async () => {
    const attempts = await asStudio('GET', `/api/v1/tts/${appRequest}/callback-attempts`);
    expect(attempts.status).toBe(200);
    expect(attempts.json.result.items).toHaveLength(1);
    expect(attempts.json.result.items[0].status_code).toBe(200);
    expect((await asStudio('GET', `/api/v1/tts/${appRequest}`)).json.result.key_id).toBe(appId);
    const resend = await asStudio('POST', `/api/v1/tts/${appRequest}/callback-retry`, {});
    expect(resend.status).toBe(200);
    await receiver.waitFor(3);
  });

  it("credits: one key's ledger and balance, or every key's with the live balances together", async () => {
    const one = (await asStudio('GET', `/api/v1/usage?key=${appId}`)).json.result;
    expect(one.ledger.map((e: { kind: string; key_id: string }) => [e.kind, e.key_id])).toEqual([
      ['charge', appId],
      ['grant', appId],
    ]);
    const keys = (await asStudio('GET', '/api/v1/keys')).json.result.items as {
      id: string;
      balance: number;
    }[];
    expect(one.balance).toBe(keys.find((k) => k.id === appId)!.balance);
    const all = (await asStudio('GET', '/api/v1/usage?key=all&page_size=100')).json.result;
    expect(new Set(all.ledger.map((e: { key_id: string }) => e.key_id))).toEqual(new Set([firstId, appId]));
    expect(all.total).toBe(4); // two grants, two charges
    expect(all.balance).toBeCloseTo(
      keys.reduce((sum, k) => sum + k.balance, 0),
      3,
    );
  });

  it('a bearer key sees only its own: another key or all is refused, its own id is accepted', async () => {
    for (const path of [
      `/api/v1/tts?key=${firstId}`,
      '/api/v1/tts?key=all',
      `/api/v1/usage?key=${firstId}`,
    ]) {
      const res = await t.call('GET', path, { key: appKey });
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ status: 0, error_code: 'UNAUTHORIZED' });
    }
    const own = await t.call('GET', `/api/v1/tts?key=${appId}`, { key: appKey });
    expect(own.json.result.items.map((r: { request_id: string }) => r.request_id)).toEqual([appRequest]);
    const other = await t.call('GET', `/api/v1/tts/${firstRequest}/callback-attempts`, { key: appKey });
    expect(other.json).toMatchObject({ status: 0, error_code: 'REQUEST_NOT_FOUND' });
    // The studio's session cookie does not widen a bearer key's view.
    const both = await t.call('GET', '/api/v1/tts?key=all', { key: appKey, headers: studio });
    expect(both.status).toBe(401);
  });

  it('an unknown key id is KEY_NOT_FOUND; a malformed one INVALID_FIELD', async () => {
    const unknown = await asStudio('GET', '/api/v1/tts?key=key_000000000000');
    expect(unknown.json).toMatchObject({ status: 0, error_code: 'KEY_NOT_FOUND' });
    const empty = await asStudio('GET', '/api/v1/usage?key=');
    expect(empty.json).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
  });
});

describe('signing secrets', () => {
  it('rotation: the next delivery is signed with the new secret alone', async () => {
    const before = (await asStudio('GET', '/api/v1/keys')).json.result.items.find(
      (k: { id: string }) => k.id === appId,
    ).signing_secret as string;
    const [first] = await receiver.waitFor(1, (c) => c.headers['x-request-id'] === appRequest);
    expect(signedWith(first!, before)).toBe(true);

    const rotated = await asStudio('POST', `/api/v1/keys/${appId}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    const after = rotated.json.result.signing_secret as string;
    expect(after).toMatch(/^whsec_[\w-]{43}$/);
    expect(after).not.toBe(before);
    const listed = (await asStudio('GET', '/api/v1/keys')).json.result.items as {
      id: string;
      signing_secret: string;
    }[];
    expect(listed.find((k) => k.id === appId)!.signing_secret).toBe(after);
    // The other keys keep theirs.
    expect(listed.find((k) => k.id === firstId)!.signing_secret).not.toBe(after);

    const count = receiver.received.filter((c) => c.headers['x-request-id'] === appRequest).length;
    expect((await asStudio('POST', `/api/v1/tts/${appRequest}/callback-retry`, {})).status).toBe(200);
    const deliveries = await receiver.waitFor(count + 1, (c) => c.headers['x-request-id'] === appRequest);
    const latest = deliveries.at(-1)!;
    expect(signedWith(latest, after)).toBe(true);
    expect(signedWith(latest, before)).toBe(false);
    // A new request of the key too.
    const next = await submit(appKey, 'After the rotation.');
    const [fresh] = await receiver.waitFor(1, (c) => c.headers['x-request-id'] === next);
    expect(signedWith(fresh!, after)).toBe(true);
  });

  it("secrets are the signed-in studio's alone: a bearer key can neither read nor rotate one, its own included", async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/keys'],
      ['POST', `/api/v1/keys/${appId}/rotate-secret`],
      ['POST', `/api/v1/keys/${firstId}/rotate-secret`],
    ] as const) {
      const res = await t.call(method, path, { key: appKey, ...(method === 'POST' ? { body: {} } : {}) });
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ status: 0, error_code: 'UNAUTHORIZED' });
      expect(res.text).not.toMatch(/whsec_/);
    }
    const unknown = await asStudio('POST', '/api/v1/keys/key_000000000000/rotate-secret', {});
    expect(unknown.json).toMatchObject({ status: 0, error_code: 'KEY_NOT_FOUND' });
  });
});
