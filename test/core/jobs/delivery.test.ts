import { createHmac } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { CallbackPayloadSchema } from '../../../electron/shared/api';
import { isoTime, systemClock } from '../../../electron/core/platform/clock';
import { silentLog } from '../../../electron/core/platform/log';
import {
  createDeliverer,
  describeError,
  LEGACY_SIGNATURE_REMOVED_IN,
  shownResult,
  type Deliverer,
} from '../../../electron/core/jobs/delivery';
import { CallbackRefusedError } from '../../../electron/core/jobs/callback-targets';
import { createJobEvents } from '../../../electron/core/jobs/events';
import { createApiKey } from '../../../electron/core/jobs/keys';
import { createLinks } from '../../../electron/core/jobs/links';
import { createSubmitter } from '../../../electron/core/jobs/submit';
import type { KeyRow, Store } from '../../../electron/core/store';
import { startReceiver, type CallbackReceiver } from '../../fixtures/callback-receiver';
import { openReopenableTestStore, type ReopenableTestStore } from '../../fixtures/reopenable-store';
import { onPostgres } from '../../fixtures/test-store';

let testStore: ReopenableTestStore;
let store: Store;
let receiver: CallbackReceiver;
let deliverer: Deliverer;
/** Set by a test that closed the deliverer itself (closing twice fails). */
let delivererClosed = false;
let key: KeyRow;
const links = createLinks(() => 'http://127.0.0.1:8787');
const events = createJobEvents();

/** A request that went through submit and finished as `status` (as the runner records it). */
async function finishedRequest(
  callbackUrl: string | null,
  status: 'SUCCESS' | 'FAILURE',
  generateSrt = false,
) {
  const submitter = createSubmitter({
    store,
    clock: systemClock,
    maxQueuedPerKey: 100,
    onAccepted: () => {},
  });
  const row = await submitter.submit({
    keyId: key.id,
    source: 'api',
    text: 'Hello there.',
    characters: 12,
    voice_code: 'en_female_emily_us',
    model_id: 'std-v1.6',
    audio_type: 'wav',
    bitrate: 64,
    speed_rate: 1.3,
    pitch_rate: 0.8,
    volume: 120,
    generate_srt: generateSrt,
    callback_url: callbackUrl,
  });
  const owner = 'test-runner';
  expect(
    await store.requests.claim([row.id], isoTime(Date.now()), { owner, until: Date.now() + 60_000 }),
  ).toBeDefined();
  const finished = await store.requests.finish(row.id, owner, {
    status,
    finishedAt: isoTime(Date.now()),
    callbackDueAt: Date.now(),
    ...(status === 'FAILURE'
      ? { errorCode: 'ENGINE_FAILED', errorMessage: 'boom' }
      : { durationMs: 900, audioBytes: 1234 }),
  });
  expect(finished).toBe(true);
  deliverer.kick();
  return (await store.requests.get(row.id))!;
}

async function waitForState(id: string, state: string, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const current = (await store.requests.get(id))?.callback_state;
    if (current === state) return;
    if (Date.now() - started > timeoutMs) throw new Error(`state stayed ${current}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeEach(async () => {
  testStore = await openReopenableTestStore();
  store = testStore.store;
  key = (await createApiKey(store, systemClock)).row;
  receiver = await startReceiver();
  deliverer = createDeliverer({
    store,
    links,
    events,
    clock: systemClock,
    log: silentLog,
    retry: { attempts: 4, baseDelayMs: 50, factor: 2, timeoutMs: 2000 },
  });
  deliverer.start();
  delivererClosed = false;
});

afterEach(async () => {
  if (!delivererClosed) await deliverer.close();
  await receiver.close();
  await testStore.close();
});

describe('callback delivery', () => {
  it('POSTs the spec payload as JSON, signed, without Authorization, and records the attempt', async () => {
    const before = Math.floor(Date.now() / 1000);
    const row = await finishedRequest(receiver.url, 'SUCCESS', true);
    const [call] = await receiver.waitFor(1);
    expect(call!.method).toBe('POST');
    expect(call!.headers['content-type']).toBe('application/json');
    expect(call!.headers.authorization).toBeUndefined();
    // The signature signs the attempt's time with the body: t=<unix>,v1=<HMAC of "t.body">.
    const signed = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(call!.headers['x-narration-signature']));
    expect(signed).not.toBeNull();
    const t = Number(signed![1]);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(signed![2]).toBe(
      createHmac('sha256', key.signing_secret).update(`${t}.${call!.body}`).digest('hex'),
    );
    // The old header, for receivers not updated yet, and when it goes.
    const expected = createHmac('sha256', key.signing_secret).update(call!.body).digest('hex');
    expect(call!.headers['x-signature']).toBe(`sha256=${expected}`);
    expect(call!.headers['x-signature-deprecated']).toBe(
      `X-Signature is removed in ${LEGACY_SIGNATURE_REMOVED_IN}; verify X-Narration-Signature`,
    );
    expect(call!.json).toEqual({
      request_id: row.id,
      characters: 12,
      voice_code: 'en_female_emily_us',
      audio_type: 'wav',
      speed_rate: 1.3,
      pitch_rate: 0.8,
      bitrate: 64,
      created_at: row.created_at.slice(0, 10),
      status: 'SUCCESS',
      audio_link: `http://127.0.0.1:8787/files/${row.id}/${row.download_token}/audio.wav`,
      srt_link: `http://127.0.0.1:8787/files/${row.id}/${row.download_token}/subtitles.srt`,
    });
    expect(Value.Check(CallbackPayloadSchema, call!.json)).toBe(true);
    expect((call!.json as { created_at: string }).created_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await waitForState(row.id, 'delivered');
    const latest = (await store.callbacks.latest(row.id))!;
    expect(latest).toMatchObject({
      attempt: 1,
      status_code: 200,
      result: 'HTTP 200 OK',
      result_code: 'http',
      callback_url: receiver.url,
    });
    expect(latest.payload).toBe(call!.body);
    expect(latest.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('sends FAILURE with an empty audio_link and the error', async () => {
    const row = await finishedRequest(receiver.url, 'FAILURE');
    const [call] = await receiver.waitFor(1);
    expect(call!.json).toMatchObject({
      request_id: row.id,
      status: 'FAILURE',
      audio_link: '',
      error_code: 'ENGINE_FAILED',
    });
    expect(call!.json).not.toHaveProperty('srt_link');
  });

  it('treats non-2xx as failure and retries with backoff until a 2xx, keeping every attempt', async () => {
    receiver.respond = (_call, index) => (index < 2 ? 503 : 204);
    const row = await finishedRequest(receiver.url, 'SUCCESS');
    const calls = await receiver.waitFor(3);
    await waitForState(row.id, 'delivered');
    // Backoff: second attempt ≥ 50 ms after the first, third ≥ 100 ms after the second.
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(45);
    expect(calls[2]!.at - calls[1]!.at).toBeGreaterThanOrEqual(95);
    const attempts = await store.callbacks.list(row.id);
    expect(attempts.map((a) => a.status_code)).toEqual([503, 503, 204]);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    // The status, never the receiver's answer ("nope 503").
    expect(attempts[0]!.result).toBe('HTTP 503 Service Unavailable');
    expect(attempts.map((a) => a.result_code)).toEqual(['http', 'http', 'http']);
    // Every attempt sends the same body.
    expect(new Set(calls.map((c) => c.body)).size).toBe(1);
  });

  it('records a connection failure with status_code null and the error text, gives up after the attempts, and retries on demand', async () => {
    const row = await finishedRequest('http://127.0.0.1:9/hook', 'SUCCESS');
    await waitForState(row.id, 'failed');
    const attempts = await store.callbacks.list(row.id);
    expect(attempts).toHaveLength(4);
    for (const a of attempts) {
      expect(a.status_code).toBeNull();
      expect(a.result).toBe('connection refused');
      expect(a.result_code).toBe('refused');
    }
    await deliverer.retry((await store.requests.get(row.id))!);
    await waitForState(row.id, 'failed');
    expect(await store.callbacks.list(row.id)).toHaveLength(8);
    expect((await store.callbacks.latest(row.id))?.attempt).toBe(8);
  });

  it('one hanging receiver cannot take every slot: other origins are delivered meanwhile', async () => {
    await deliverer.close();
    deliverer = createDeliverer({
      store,
      links,
      events,
      clock: systemClock,
      log: silentLog,
      concurrency: 4,
      perOriginConcurrency: 2,
      retry: { attempts: 1, baseDelayMs: 50, factor: 2, timeoutMs: 1500 },
    });
    deliverer.start();
    // A receiver that accepts and never answers; it counts the requests it holds at once.
    let holding = 0;
    let mostHeld = 0;
    const held: ServerResponse[] = [];
    // Set by the test: the receiver then hangs up on what it holds and what comes, so the
    // attempts end when the test says rather than at the timeout (no wall time waited).
    let hangUp = false;
    const hang = createServer((_req, res) => {
      holding++;
      mostHeld = Math.max(mostHeld, holding);
      held.push(res);
      res.on('close', () => holding--);
      if (hangUp) res.destroy();
    });
    await new Promise<void>((resolve) => hang.listen(0, '127.0.0.1', resolve));
    const hangUrl = `http://127.0.0.1:${(hang.address() as AddressInfo).port}/hook`;
    try {
      const stuck = [];
      for (let i = 0; i < 6; i++) stuck.push(await finishedRequest(hangUrl, 'SUCCESS'));
      const healthy = await finishedRequest(receiver.url, 'SUCCESS');
      await waitForState(healthy.id, 'delivered', 5000);
      // Delivered while the first hanging attempts were still waiting for their timeout.
      const attemptsSoFar = await Promise.all(stuck.map((r) => store.callbacks.list(r.id)));
      expect(attemptsSoFar.every((list) => list.length === 0)).toBe(true);
      expect(mostHeld).toBe(2);
      hangUp = true;
      for (const res of held) res.destroy();
      for (const r of stuck) await waitForState(r.id, 'failed');
      expect(mostHeld).toBe(2);
      expect((await store.callbacks.list(stuck[0]!.id))[0]!.status_code).toBeNull();
    } finally {
      for (const res of held) res.destroy();
      hang.closeAllConnections();
      await new Promise<void>((resolve) => hang.close(() => resolve()));
    }
  });

  it.runIf(onPostgres)('two instances on one database make each delivery once', async () => {
    // A second instance: its own connections and deliverer.
    const other = createDeliverer({
      store: await testStore.openAnother(),
      links,
      events: createJobEvents(),
      clock: systemClock,
      log: silentLog,
      retry: { attempts: 4, baseDelayMs: 50, factor: 2, timeoutMs: 2000 },
    });
    other.start();
    let otherClosed = false;
    try {
      // The first attempt of each fails, so the retries are claimed by the instances too.
      const seen = new Map<string, number>();
      receiver.respond = (call) => {
        const id = String(call.headers['x-request-id']);
        seen.set(id, (seen.get(id) ?? 0) + 1);
        return seen.get(id) === 1 ? 503 : 200;
      };
      const rows = [];
      for (let i = 0; i < 12; i++) {
        rows.push(await finishedRequest(receiver.url, 'SUCCESS'));
        other.kick();
      }
      for (const row of rows) await waitForState(row.id, 'delivered');
      // Both stopped, their attempts under way finished: any second delivery would be in by now
      // (no wall time waited).
      delivererClosed = true;
      otherClosed = true;
      await Promise.all([deliverer.close(), other.close()]);
      // Each attempt was made once, by one of the two: two calls per request, both recorded.
      expect(receiver.received).toHaveLength(24);
      for (const row of rows) {
        expect(receiver.received.filter((c) => c.headers['x-request-id'] === row.id)).toHaveLength(2);
        expect((await store.callbacks.list(row.id)).map((a) => [a.attempt, a.status_code])).toEqual([
          [1, 503],
          [2, 200],
        ]);
        expect(await store.requests.get(row.id)).toMatchObject({
          callback_attempts: 2,
          callback_due_at: null,
        });
      }
    } finally {
      if (!otherClosed) await other.close();
    }
  });

  it('signs each attempt with its own time: a retry carries a fresh timestamp', async () => {
    await deliverer.close();
    // The injected clock jumps 10 minutes at each delivery the receiver gets.
    let offset = 0;
    deliverer = createDeliverer({
      store,
      links,
      events,
      clock: { now: () => Date.now() + offset },
      log: silentLog,
      retry: { attempts: 3, baseDelayMs: 20, factor: 1, timeoutMs: 2000 },
    });
    deliverer.start();
    receiver.respond = (_call, index) => {
      offset += 600_000;
      return index === 0 ? 503 : 200;
    };
    const row = await finishedRequest(receiver.url, 'SUCCESS');
    const calls = await receiver.waitFor(2);
    await waitForState(row.id, 'delivered');
    const [first, second] = calls.map((c) => {
      const [, t, mac] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(c.headers['x-narration-signature']))!;
      expect(mac).toBe(createHmac('sha256', key.signing_secret).update(`${t}.${c.body}`).digest('hex'));
      return Number(t);
    });
    expect(second! - first!).toBeGreaterThanOrEqual(600);
  });

  it('sends the user name and password of the URL as Basic authentication, not in the URL', async () => {
    const url = receiver.url.replace('http://', 'http://admin:Sup%3Ar3t@');
    const row = await finishedRequest(`${url}?api_token=tok123`, 'SUCCESS');
    const [call] = await receiver.waitFor(1);
    expect(call!.headers.authorization).toBe(`Basic ${Buffer.from('admin:Sup:r3t').toString('base64')}`);
    expect(call!.url).toBe('/hook?api_token=tok123');
    await waitForState(row.id, 'delivered');
  });

  it('records the code of a connection reset and of one closed mid-answer by a real local receiver', async () => {
    // A receiver that takes the request, then resets the connection (RST) without answering.
    const resetting = createNetServer((socket) => {
      socket.once('data', () => socket.resetAndDestroy());
    });
    // One that starts an answer and closes before it is complete.
    const closing = createNetServer((socket) => {
      socket.once('data', () => {
        socket.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial');
      });
    });
    const listen = (server: NetServer) =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`),
        ),
      );
    try {
      const [resetUrl, closingUrl] = [await listen(resetting), await listen(closing)];
      const reset = await finishedRequest(resetUrl, 'SUCCESS');
      const cut = await finishedRequest(closingUrl, 'SUCCESS');
      await waitForState(reset.id, 'failed');
      await waitForState(cut.id, 'failed');
      for (const a of await store.callbacks.list(reset.id))
        expect({ result: a.result, code: a.result_code, status: a.status_code }).toEqual({
          result: 'connection reset before a complete answer',
          code: 'reset',
          status: null,
        });
      for (const a of await store.callbacks.list(cut.id))
        expect({ result: a.result, code: a.result_code, status: a.status_code }).toEqual({
          result: 'connection closed before a complete answer',
          code: 'closed',
          status: null,
        });
    } finally {
      await Promise.all([resetting, closing].map((s) => new Promise((r) => s.close(r))));
    }
  });

  it('records the answer timeout as timeout_answer from a real local receiver that never answers', async () => {
    await deliverer.close();
    delivererClosed = true;
    const hanging = createNetServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const quick = createDeliverer({
      store,
      links,
      events,
      clock: systemClock,
      log: silentLog,
      retry: { attempts: 1, baseDelayMs: 50, factor: 2, timeoutMs: 300 },
    });
    quick.start();
    deliverer = quick;
    delivererClosed = false;
    try {
      const row = await finishedRequest(
        `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`,
        'SUCCESS',
      );
      await waitForState(row.id, 'failed');
      expect(await store.callbacks.latest(row.id)).toMatchObject({
        result: 'timeout: no complete answer within 300 ms',
        result_code: 'timeout_answer',
        status_code: null,
      });
    } finally {
      await quick.close();
      delivererClosed = true;
      hanging.close();
    }
  });

  it('shows only the status of attempts recorded with the start of the answer', () => {
    expect(shownResult('HTTP 500: {"secret":"s3cr3t"}')).toBe('HTTP 500 Internal Server Error');
    expect(shownResult('HTTP 200')).toBe('HTTP 200 OK');
    expect(shownResult('HTTP 299: x')).toBe('HTTP 299');
    expect(shownResult('connect ECONNREFUSED 127.0.0.1:9')).toBe('connect ECONNREFUSED …');
  });

  it('retry refuses requests without callback_url or not finished', async () => {
    const row = await finishedRequest(null, 'SUCCESS');
    await expect(deliverer.retry(row)).rejects.toMatchObject({ code: 'NO_CALLBACK_URL' });
    await expect(
      deliverer.retry({ ...row, callback_url: receiver.url, status: 'processing' }),
    ).rejects.toMatchObject({ code: 'REQUEST_NOT_FINISHED' });
  });
});

describe('describeError', () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
  it('names the kind of connection error, never the address or port Node names', () => {
    expect(describeError(withCode('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED'), 1000)).toEqual({
      code: 'refused',
      result: 'connection refused',
    });
    expect(describeError(withCode('connect EHOSTUNREACH 10.0.0.7:22', 'EHOSTUNREACH'), 1000)).toEqual({
      code: 'host_unreachable',
      result: 'host unreachable',
    });
    // An error without a known code keeps its text, its addresses taken out.
    expect(describeError(new Error('odd failure at 10.1.2.3:8080 and [fd00::1]:22 and ::1'), 1000)).toEqual({
      code: 'other',
      result: 'odd failure at … and … and …',
    });
  });
  it('gives every kind of connection error its own stable code', () => {
    const expected: Record<string, string> = {
      ECONNREFUSED: 'refused',
      ECONNRESET: 'reset',
      EPIPE: 'closed',
      EHOSTUNREACH: 'host_unreachable',
      ENETUNREACH: 'network_unreachable',
      ENOTFOUND: 'host_not_found',
      EAI_AGAIN: 'host_not_found_temporary',
      ETIMEDOUT: 'timeout_connect',
      ECONNABORTED: 'aborted',
      CERT_HAS_EXPIRED: 'cert_expired',
      DEPTH_ZERO_SELF_SIGNED_CERT: 'cert_self_signed',
      UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'cert_untrusted',
      ERR_TLS_CERT_ALTNAME_INVALID: 'cert_host',
    };
    const found = Object.fromEntries(
      Object.keys(expected).map((code) => [code, describeError(withCode(`x ${code}`, code), 1000).code]),
    );
    expect(found).toEqual(expected);
  });
  it('says "timeout" with the limit for undici timeouts', () => {
    expect(describeError(withCode('Headers Timeout Error', 'UND_ERR_HEADERS_TIMEOUT'), 1500)).toEqual({
      code: 'timeout_answer',
      result: 'timeout: no complete answer within 1500 ms',
    });
    expect(
      describeError(
        withCode(
          'Connect Timeout Error (attempted address: 10.0.0.1:80, timeout: 10ms)',
          'UND_ERR_CONNECT_TIMEOUT',
        ),
        10,
      ),
    ).toEqual({ code: 'timeout_connect', result: 'timeout: could not connect within 10 ms' });
  });
  it('says the connection closed for a socket closed mid-answer', () => {
    expect(describeError(withCode('other side closed', 'UND_ERR_SOCKET'), 1000)).toEqual({
      code: 'closed',
      result: 'connection closed before a complete answer',
    });
  });
  it('says only "not allowed" of a refused destination', () => {
    expect(
      describeError(new CallbackRefusedError('localhost resolves to 127.0.0.1, a loopback address'), 1000),
    ).toEqual({ code: 'not_allowed', result: 'not allowed' });
  });
});
