/**
 * The callback attacks of the security review, against a core on the fake engine (the real
 * server, store, jobs and deliveries over HTTP on 127.0.0.1; speech is not the subject): a server
 * that can be reached from elsewhere (a reverse proxy's `publicUrl` or `allowedHosts`, a shared
 * database, `host` 0.0.0.0, or `internalCallbacks: 'refuse'`) refuses callbacks into its own
 * machine, by address at submit and by name at delivery, saying only "not allowed"; the
 * exceptions (`internalCallbacks: 'allow'`, `allowCallbackHosts`) deliver. Every callback goes to
 * a receiver this test runs on 127.0.0.1. Which spellings are internal: test/core/jobs/
 * callback-targets.test.ts; the real `serve` process: callback-security.test.ts. The flags' bad
 * values are refused by `serve` run in this process (they stop it before it opens anything).
 */

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runServe } from '../../../electron/core/cli/serve-command';
import type { CoreOptions } from '../../../electron/core/studio-core';
import { refusingUrl, startReceiver, type CallbackReceiver } from '../../fixtures/callback-receiver';
import { onPostgres } from '../../fixtures/test-store';
import { eventually, startFakeEngineCore, type TestCore } from './helpers';
import { runHere } from '../../fixtures/cli-in-process';

let receiver: CallbackReceiver;
let t: TestCore | undefined;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  await t?.close();
  t = undefined;
  receiver.received.length = 0;
});
afterAll(async () => receiver.close());

/**
 * A core with quick retries. `allowCallbackHosts` is empty unless given: on the PostgreSQL run
 * startTestCore would allow 127.0.0.1 (its shared database restricts callbacks).
 */
async function serve(options: Partial<CoreOptions>) {
  t = await startFakeEngineCore({
    retry: { attempts: 2, baseDelayMs: 1, factor: 2, timeoutMs: 2000 },
    allowCallbackHosts: [],
    ...options,
  });
  return t;
}

const submit = (callbackUrl: string) =>
  t!.call('POST', '/api/v1/tts', {
    // WAV: what the fake engine writes.
    body: {
      input_text: 'Hello.',
      voice_code: 'en_female_emily_us',
      audio_type: 'wav',
      callback_url: callbackUrl,
    },
  });

const port = () => new URL(receiver.url).port;

/** The request once its callback is delivered or failed. */
async function settled(id: string) {
  return eventually(async () => {
    const detail = await t!.call('GET', `/api/v1/tts/${id}`);
    const state = detail.json.result.callback_state as string;
    return state === 'delivered' || state === 'failed' ? detail.json.result : undefined;
  });
}

/** The latest attempt of request `id`, as its key sees it. */
async function attemptOf(id: string) {
  const detail = await settled(id);
  const result = await t!.call('GET', `/api/v1/tts/${id}/callback-result`);
  return {
    status: detail.status,
    state: detail.callback_state,
    attempts: detail.callback_attempts,
    status_code: result.json.result.status_code,
    result: result.json.result.result,
  };
}

const REFUSED_AT_DELIVERY = {
  status: 'SUCCESS',
  state: 'failed',
  attempts: 1,
  status_code: null,
  result: 'not allowed',
};

/**
 * The receiver on 127.0.0.1 named by address is refused at submit, by name at delivery, each
 * saying only "not allowed" (not why, nor what the name resolved to); it receives nothing.
 */
async function expectInternalRefused() {
  const literal = await submit(receiver.url);
  expect(literal.status, literal.text).toBe(400);
  expect(literal.json).toMatchObject({
    status: 0,
    error_code: 'INVALID_FIELD',
    error_message: 'callback_url is not allowed.',
  });
  const byName = await submit(`http://localhost:${port()}/hook`);
  expect(byName.status, byName.text).toBe(200);
  expect(await attemptOf(byName.json.result.request_id as string)).toEqual(REFUSED_AT_DELIVERY);
  expect(receiver.received).toHaveLength(0);
}

describe('a server behind a reverse proxy, or sharing its database, refuses internal callbacks', () => {
  // What makes a server reachable from elsewhere although it listens on loopback only.
  const reachable: [string, Partial<CoreOptions>][] = [
    ['publicUrl', { publicUrl: 'https://localhost:8443' }],
    ['allowedHosts', { allowedHosts: ['localhost'] }],
    ["internalCallbacks 'refuse'", { internalCallbacks: 'refuse' }],
  ];
  for (const [name, options] of reachable) {
    it(`${name}: by address refused at submit, by name refused at delivery, "not allowed" only`, async () => {
      await serve(options);
      await expectInternalRefused();
    });
  }

  it.skipIf(!onPostgres)(
    'a shared database (the PostgreSQL run): the same, with nothing else given',
    async () => {
      await serve({});
      await expectInternalRefused();
    },
  );

  it('records the same for an open and a closed local port: no port scanner', async () => {
    await serve({ publicUrl: 'https://localhost:8443' });
    const closedPort = new URL(await refusingUrl()).port;
    for (const target of [port(), closedPort]) {
      const res = await submit(`http://localhost:${target}/hook`);
      expect(res.status, res.text).toBe(200);
      expect(await attemptOf(res.json.result.request_id as string), target).toEqual(REFUSED_AT_DELIVERY);
    }
    expect(receiver.received).toHaveLength(0);
  });

  it("internalCallbacks 'allow' turns the refusal off, even with publicUrl", async () => {
    await serve({ publicUrl: 'https://localhost:8443', internalCallbacks: 'allow' });
    for (const url of [receiver.url, `http://localhost:${port()}/hook`]) {
      const res = await submit(url);
      expect(res.status, res.text).toBe(200);
      expect(await attemptOf(res.json.result.request_id as string), url).toMatchObject({
        state: 'delivered',
        status_code: 200,
      });
    }
    expect(receiver.received).toHaveLength(2);
  });
});

describe('a server reachable from other machines (host 0.0.0.0)', () => {
  it('refuses loopback callbacks at submit, in every spelling, stores nothing, and refuses a name at delivery', async () => {
    const core = await serve({ host: '0.0.0.0' });
    const loopbackUrls = [
      receiver.url,
      `${core.core.url}/api/v1/keys`, // the server's own API, as in the review
      `http://2130706433:${port()}/hook`,
      `http://0x7f.1:${port()}/hook`,
      `http://017700000001:${port()}/hook`,
      `http://127.1:${port()}/hook`,
      `http://[::ffff:127.0.0.1]:${port()}/hook`,
      `http://[::1]:${port()}/hook`,
      `http://0.0.0.0:${port()}/hook`,
      `http://[::]:${port()}/hook`,
    ];
    for (const url of loopbackUrls) {
      const res = await submit(url);
      expect(res.status, url).toBe(400);
      expect(res.json, url).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
      // Not why, nor what the address is.
      expect(res.json.error_message, url).toBe('callback_url is not allowed.');
    }
    expect((await core.call('GET', '/api/v1/tts')).json.result.total).toBe(0);

    // A name that resolves to loopback: accepted, refused when delivered, the receiver never contacted.
    const byName = await submit(`http://localhost:${port()}/hook`);
    expect(byName.status, byName.text).toBe(200);
    expect(await attemptOf(byName.json.result.request_id as string)).toEqual(REFUSED_AT_DELIVERY);
    expect(receiver.received).toHaveLength(0);
  });

  it('delivers to loopback by address and by name when allowCallbackHosts allows it', async () => {
    await serve({ host: '0.0.0.0', allowCallbackHosts: ['127.0.0.1'] });
    for (const url of [receiver.url, `http://localhost:${port()}/hook`]) {
      const res = await submit(url);
      expect(res.status, res.text).toBe(200);
      expect(await settled(res.json.result.request_id as string), url).toMatchObject({
        callback_state: 'delivered',
      });
    }
    expect(receiver.received).toHaveLength(2);
  });
});

describe('serve refuses bad callback flags in one line, exit code 2', () => {
  const serveCommand = (args: string[]) => runHere(runServe, args);

  it('an --internal-callbacks that is not auto, refuse or allow', async () => {
    const bad = await serveCommand(['--internal-callbacks', 'maybe']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe('error: --internal-callbacks must be auto, refuse, allow');
  });

  it('an --allow-callback-host that is not a host, an address or a range', async () => {
    const bad = await serveCommand(['--allow-callback-host', 'http://x/']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe(
      'error: --allow-callback-host "http://x/" is not a host name, an IP address or a range such as 10.0.0.0/8',
    );
  });
});
