/**
 * `response_type: "direct"` when the render is not done in time, on a core with the fake engine
 * (the real server, store, jobs and callbacks over HTTP on 127.0.0.1; `hold()` keeps a render
 * running as long as the test needs, instead of a long text on the real engine): a failed render
 * answers FAILURE, refunded; a bad body is refused before any wait; a client that goes away, a
 * wait limit that passes, or a server that stops answers with the record as it stands, and the
 * request carries on. A direct client's real audio, links, charge and callback:
 * cloud-clients.test.ts.
 */

import { Value } from '@sinclair/typebox/value';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DirectRecordSchema } from '../../../electron/shared/api';
import { startReceiver, type CallbackReceiver } from '../../fixtures/callback-receiver';
import type { FakeEngine } from '../../fixtures/fake-engine';
import { eventually, FAILING_TEXT, failRendersWith, startFakeEngineCore, type TestCore } from './helpers';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const TEXT = 'The quick brown fox jumps over the lazy dog.';

let receiver: CallbackReceiver;
let t: TestCore & { engine: FakeEngine };

beforeAll(async () => {
  receiver = await startReceiver();
  t = await startFakeEngineCore();
});
afterEach(() => t.engine.release());
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

/** A direct submit as the service's clients send it (WAV: what the fake engine writes). */
function submitDirect(core: TestCore, key: string, body: Record<string, unknown>, signal?: AbortSignal) {
  return fetch(`${core.core.url}/api/v1/tts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      response_type: 'direct',
      input_text: TEXT,
      voice_code: 'en_female_emily_us',
      audio_type: 'wav',
      ...body,
    }),
    ...(signal ? { signal } : {}),
  }).then(async (res) => ({ status: res.status, json: (await res.json()) as Json }));
}

const byId = (id: string) => (c: { json: unknown }) => (c.json as Json)?.request_id === id;

describe('a direct client', () => {
  it('answers a request that fails with FAILURE, its error and no link (HTTP 200, refunded)', async () => {
    const key = await t.newKey(1_000_000);
    const restore = failRendersWith(t.core);
    const submitted = await submitDirect(t, key, {
      callback_url: receiver.url,
      input_text: FAILING_TEXT,
    }).finally(restore);
    expect(submitted.status).toBe(200);
    expect(submitted.json.status).toBe(1);
    expect(submitted.json.result).toMatchObject({
      status: 'FAILURE',
      audio_link: null,
      srt_link: null,
      error_code: 'ENGINE_FAILED',
    });
    expect(typeof submitted.json.result.error_message).toBe('string');
    const id = submitted.json.result.request_id as string;
    const [callback] = await receiver.waitFor(1, byId(id));
    expect(callback!.json).toMatchObject({ status: 'FAILURE', audio_link: '', error_code: 'ENGINE_FAILED' });
    const usage = await eventually(async () => {
      const u = (await t.call('GET', '/api/v1/usage', { key })).json.result;
      return u.queued === 0 ? u : undefined;
    });
    expect(usage.balance).toBe(1000);
  });

  it('refuses a bad body before waiting, as an indirect submit does', async () => {
    t.engine.hold();
    const res = await submitDirect(t, t.key, { speed_rate: '1.25' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
    expect(t.engine.renders.filter((r) => r.text === TEXT)).toHaveLength(0);
  });

  it('a client that goes away while waiting does not cancel the request', async () => {
    const key = await t.newKey();
    t.engine.hold();
    const abort = new AbortController();
    const answer = submitDirect(t, key, { callback_url: receiver.url }, abort.signal);
    const listed = await eventually(async () => {
      const items = (await t.call('GET', '/api/v1/tts', { key })).json.result.items as Json[];
      return items.length === 1 ? items[0] : undefined;
    });
    abort.abort();
    await expect(answer).rejects.toThrow();
    const id = listed.request_id as string;
    t.engine.release();
    const [callback] = await receiver.waitFor(1, byId(id));
    expect(callback!.json).toMatchObject({ status: 'SUCCESS' });
    expect((await t.call('GET', `/api/v1/tts/${id}`, { key })).json.result.status).toBe('SUCCESS');
  });
});

describe('direct mode past its wait limit', () => {
  let short: TestCore & { engine: FakeEngine };
  beforeAll(async () => {
    short = await startFakeEngineCore({ directTimeoutMs: 50 });
  });
  afterAll(async () => {
    await short?.close();
  });

  it('answers 200 with the record as it stands; the request finishes and is called back', async () => {
    // The render waits until the answer is in: the answer came from the limit, not the render.
    short.engine.hold();
    const submitted = await submitDirect(short, short.key, { callback_url: receiver.url, speed_rate: '1.0' });
    expect(submitted.status).toBe(200);
    expect(submitted.json.status).toBe(1);
    const record = submitted.json.result;
    expect(Value.Check(DirectRecordSchema, record)).toBe(true);
    expect(['new', 'processing']).toContain(record.status);
    expect(record.audio_link).toBeNull();
    const id = record.request_id as string;

    short.engine.release();
    const [callback] = await receiver.waitFor(1, byId(id));
    expect(callback!.json).toMatchObject({ request_id: id, status: 'SUCCESS' });
    const polled = (await short.call('GET', `/api/v1/tts/${id}`)).json.result;
    expect(polled).toMatchObject({ status: 'SUCCESS', audio_link: (callback!.json as Json).audio_link });
  });
});

describe('direct mode while the server stops', () => {
  it('answers the waiting client with the record as it stands instead of holding shutdown up', async () => {
    // Renders in flight are requeued at once on close; this one never finishes on its own.
    const core = await startFakeEngineCore({ closeGraceMs: 100 });
    try {
      core.engine.hold();
      const answer = submitDirect(core, core.key, {});
      await eventually(async () =>
        (await core.call('GET', '/api/v1/tts')).json.result.total === 1 ? true : undefined,
      );
      const closed = core.core.close();
      // An answer, not a connection cut by close() (fetch would reject).
      const submitted = await answer;
      expect(submitted.status).toBe(200);
      expect(['new', 'processing']).toContain(submitted.json.result.status);
      await closed;
    } finally {
      await core.close();
    }
  });
});
