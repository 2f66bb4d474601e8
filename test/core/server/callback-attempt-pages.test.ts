/**
 * Issue 36, point 1 ("no answer is unbounded"): GET /api/v1/tts/<id>/callback-attempts answered
 * every attempt ever made at once, and each resend adds up to --callback-attempts records. A
 * request piles up more attempts than a page (recorded through the store as the deliverer records
 * them, then one more by a real resend to a refusing receiver): a request keeps its newest 100,
 * every answer is a bounded page, newest first, and the cursor reaches every one kept.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK_ATTEMPT_LIMITS } from '../../../electron/shared/api';
import { refusingUrl } from '../../fixtures/callback-receiver';
import { eventually, startTestCore, type TestCore } from './helpers';

let t: TestCore;
let hook: string;

beforeAll(async () => {
  hook = await refusingUrl();
  t = await startTestCore({ retry: { attempts: 1, baseDelayMs: 10, factor: 2, timeoutMs: 2000 } });
});
afterAll(async () => {
  await t?.close();
});

interface AttemptList {
  items: Array<{ attempt: number; payload: { request_id: string } }>;
  next_cursor: string | null;
  total: number;
  dropped: number;
}

const attemptsOf = async (id: string, query = ''): Promise<AttemptList> => {
  const res = await t.call('GET', `/api/v1/tts/${id}/callback-attempts${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json.result as AttemptList;
};

/** A finished request whose callback failed once (a real attempt to a refusing receiver). */
async function failedRequest(): Promise<string> {
  const res = await t.call('POST', '/api/v1/tts', {
    body: { input_text: 'Short.', voice_code: 'en_female_emily_us', callback_url: hook },
  });
  expect(res.status, res.text).toBe(200);
  const id = res.json.result.request_id as string;
  await eventually(async () => {
    const r = await t.call('GET', `/api/v1/tts/${id}`);
    return r.json.result.callback_state === 'failed' ? true : undefined;
  });
  return id;
}

/** `count` more failed attempts of `id`, recorded as the deliverer records one (a row and the count). */
async function pileUp(id: string, count: number): Promise<void> {
  const { store } = t.core;
  const first = (await store.callbacks.latest(id))!;
  for (let n = 1; n <= count; n++)
    await store.transaction(async (tx) => {
      await tx.callbacks.insert({ ...first, attempt: first.attempt + n });
      await tx.requests.updateCallback(id, 'failed', null, 1);
    });
}

describe('callback attempts (issue 36, point 1)', () => {
  it('keeps the newest 100 of 251 attempts and answers them 20, then up to 100, a page, newest first', async () => {
    const id = await failedRequest();
    await pileUp(id, 250);
    const made = (await t.call('GET', `/api/v1/tts/${id}`)).json.result.callback_attempts as number;
    expect(made).toBe(251);
    expect((await t.core.store.callbacks.list(id)).length).toBe(CALLBACK_ATTEMPT_LIMITS.kept);

    const first = await attemptsOf(id);
    expect(first.items.map((a) => a.attempt)).toEqual(Array.from({ length: 20 }, (_, i) => 251 - i));
    expect(first).toMatchObject({ total: 100, dropped: 151 });
    expect(first.next_cursor).toEqual(expect.any(String));

    // Following the cursor reaches every attempt kept, once each, newest first.
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await attemptsOf(id, `?limit=30${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(30);
      seen.push(...page.items.map((a) => a.attempt));
      cursor = page.next_cursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(seen).toEqual(Array.from({ length: 100 }, (_, i) => 251 - i));
    expect(pages).toBe(4);

    const all = await attemptsOf(id, '?limit=100');
    expect(all.items).toHaveLength(100);
    expect(all.next_cursor).toBeNull();
    expect(all.items.every((a) => a.payload.request_id === id)).toBe(true);
  });

  it('a real resend records attempt 252 and drops the oldest kept', async () => {
    const id = await failedRequest();
    await pileUp(id, 250);
    const retry = await t.call('POST', `/api/v1/tts/${id}/callback-retry`);
    expect(retry.status, retry.text).toBe(200);
    await eventually(async () => {
      const r = await t.call('GET', `/api/v1/tts/${id}`);
      return r.json.result.callback_attempts === 252 && r.json.result.callback_state === 'failed'
        ? true
        : undefined;
    });
    const all = await attemptsOf(id, '?limit=100');
    expect(all.items.map((a) => a.attempt)).toEqual(Array.from({ length: 100 }, (_, i) => 252 - i));
    expect(all).toMatchObject({ total: 100, dropped: 152, next_cursor: null });
  });

  it('refuses a limit out of 1–100 and a cursor this list did not give with INVALID_FIELD', async () => {
    const id = await failedRequest();
    const bad = [
      '?limit=0',
      '?limit=101',
      '?limit=x',
      '?cursor=abc',
      `?cursor=${Buffer.from('["after","0123456789abcdef0123456789abcdef","2024-01-01T00:00:00.000Z"]').toString('base64url')}`,
      `?cursor=${Buffer.from('["before",0]').toString('base64url')}`,
      `?cursor=${'A'.repeat(200)}`,
    ];
    for (const query of bad) {
      const res = await t.call('GET', `/api/v1/tts/${id}/callback-attempts${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json, query).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
      expect(res.json.error_message, query).toMatch(new RegExp(`^${query.slice(1).split('=')[0]}`));
    }
  });

  it('answers each attempt with its stable result_code; an attempt recorded before codes with null', async () => {
    const id = await failedRequest();
    const [real] = (await attemptsOf(id)).items as unknown as Array<Record<string, unknown>>;
    expect(real).toMatchObject({ status_code: null, result: 'connection refused', result_code: 'refused' });
    const latest = await t.call('GET', `/api/v1/tts/${id}/callback-result`);
    // The spec's stored callback result keeps the spec's fields only.
    expect(latest.json.result).toMatchObject({ result: 'connection refused' });
    expect(latest.json.result).not.toHaveProperty('result_code');
    // As a row written before migration 18 reads: no code, its words kept.
    const { store } = t.core;
    const first = (await store.callbacks.latest(id))!;
    await store.transaction(async (tx) => {
      await tx.callbacks.insert({ ...first, attempt: first.attempt + 1, result_code: null });
    });
    const [old] = (await attemptsOf(id)).items as unknown as Array<Record<string, unknown>>;
    expect(old).toMatchObject({ result: 'connection refused', result_code: null });
  });
});
