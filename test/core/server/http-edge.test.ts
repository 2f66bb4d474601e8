/**
 * The HTTP edge under attack, over real sockets on loopback: slow connections (headers that never
 * end, bodies that trickle), more connections than the caps, large bodies without a key or with
 * a wrong one, bodies over a route's limit, forged X-Forwarded-For, and loops of wrong keys from
 * the address a valid key uses. 127.0.0.2 and 127.0.0.3 stand for other machines (`localAddress`).
 * Nothing asserts a duration: a timeout is seen to happen (the answer or the close comes), and
 * "at once" is shown by answers arriving while the throttle's waits are still parked.
 */

import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { trustProxyProblem, type EdgeOptions } from '../../../electron/core/server/http-edge';
import type { AuthThrottleOptions } from '../../../electron/core/server/auth-throttle';
import { buildTestApp, TEST_PORT, type TestApp } from './inject';
import { eventually } from './helpers';
import { manualTimers } from './manual-timers';

const HOST = `127.0.0.1:${TEST_PORT}`;

/** A raw connection: what it received, and whether the server closed it. */
interface Raw {
  socket: Socket;
  readonly text: string;
  readonly status: number | undefined;
  closed: boolean;
  /** Resolves when the connection is closed (by either side). */
  done: Promise<void>;
}

let app: TestApp | undefined;
let port = 0;
const opened: Socket[] = [];

afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  await app?.close();
  app = undefined;
});

/** The test app (the real server with a real SQLite file) listening on 127.0.0.1. */
async function start(edge: EdgeOptions, authThrottle: AuthThrottleOptions = {}): Promise<TestApp> {
  app = await buildTestApp({ edge, authThrottle });
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.app.server.address() as AddressInfo).port;
  return app;
}

/** Opens a connection from `localAddress`; resolves once connected. */
function open(localAddress = '127.0.0.1'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    opened.push(socket);
    const chunks: Buffer[] = [];
    let closeDone = () => {};
    const raw: Raw = {
      socket,
      get text() {
        return Buffer.concat(chunks).toString('latin1');
      },
      get status() {
        const match = /^HTTP\/1\.1 (\d{3})/.exec(this.text);
        return match ? Number(match[1]) : undefined;
      },
      closed: false,
      done: new Promise<void>((resolveDone) => (closeDone = resolveDone)),
    };
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A write to a connection the server closed fails: the test reads the close, not the error.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      raw.closed = true;
      closeDone();
    });
    socket.once('connect', () => resolve(raw));
    socket.once('error', reject);
  });
}

/** A request's head. */
function head(method: string, path: string, headers: Record<string, string | number> = {}): string {
  const lines = Object.entries({ host: HOST, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n`;
}

/** One whole request on a fresh connection from `localAddress`; resolves with the answer's status. */
async function send(
  localAddress: string,
  method: string,
  path: string,
  headers: Record<string, string | number> = {},
): Promise<number | undefined> {
  const raw = await open(localAddress);
  raw.socket.write(head(method, path, { connection: 'close', ...headers }));
  await raw.done;
  return raw.status;
}

/** Waits until `done` holds (answers travel over real sockets). */
const until = (done: () => boolean) => eventually(() => (done() ? true : undefined));

/** Waits until the server holds no connection (it closes its side after the client's). */
const untilNoConnections = (s: TestApp) =>
  eventually(
    () =>
      new Promise<true | undefined>((resolve) =>
        s.app.server.getConnections((error, n) => resolve(!error && n === 0 ? true : undefined)),
      ),
  );

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const wrongKey = (i: number) => `nsk_${String(i).padStart(43, 'w')}`;

describe('slow connections', () => {
  it('headers that never end: capped per address, timed out, while other clients are served', async () => {
    const s = await start({ maxConnectionsPerAddress: 6, headersTimeoutMs: 1_000 });
    // Six connections from 127.0.0.1 start a request and add a header line now and then, never
    // ending the head (slowloris), with no key.
    const slow = await Promise.all(Array.from({ length: 6 }, () => open('127.0.0.1')));
    for (const raw of slow) raw.socket.write('GET /api/v1/usage HTTP/1.1\r\nHost: ' + HOST + '\r\n');
    const drip = setInterval(() => {
      for (const raw of slow) if (!raw.closed) raw.socket.write(`x-drip-${Date.now()}: 1\r\n`);
    }, 100);
    try {
      // A seventh from the same address is closed at once, before it can send a byte.
      const extra = await open('127.0.0.1');
      await extra.done;
      expect(extra.text).toBe('');
      // Another machine, with a valid key, is served meanwhile.
      expect(await send('127.0.0.2', 'GET', '/api/v1/usage', bearer(s.key))).toBe(200);
      // The slow heads are answered 408 in the API's error shape and closed.
      await Promise.all(slow.map((raw) => raw.done));
      for (const raw of slow) {
        expect(raw.status).toBe(408);
        expect(raw.text).toContain('"error_code":"INVALID_FIELD"');
      }
      // Once they are gone (the server closes each after the client's own close: errors.ts,
      // lingerThenClose), 127.0.0.1 is served again.
      await untilNoConnections(s);
      expect(await send('127.0.0.1', 'GET', '/api/v1/usage', bearer(s.key))).toBe(200);
    } finally {
      clearInterval(drip);
    }
  });

  it('a connection that never sends a byte is closed after the headers timeout', async () => {
    await start({ headersTimeoutMs: 1_000 });
    const silent = await open('127.0.0.1');
    await silent.done;
    expect(silent.status).toBe(408);
  });

  it('a body that trickles: refused at once without a key, timed out with one', async () => {
    const s = await start({ headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 });
    const body = JSON.stringify({ input_text: 'Hello there.', voice_code: 'en_female_emily_us' });
    const headers = { 'content-type': 'application/json', 'content-length': body.length };
    // No key: answered 401 after the head alone, and the connection closed, the body never awaited.
    const keyless = await open('127.0.0.1');
    keyless.socket.write(head('POST', '/api/v1/tts', headers) + body.slice(0, 1));
    await keyless.done;
    expect(keyless.status).toBe(401);
    expect(keyless.text).toMatch(/connection: close/i);
    // A valid key that sends its body a byte now and then: 408 once the request takes too long.
    const trickle = await open('127.0.0.1');
    trickle.socket.write(head('POST', '/api/v1/tts', { ...headers, ...bearer(s.key) }));
    let sent = 0;
    const drip = setInterval(() => {
      if (!trickle.closed && sent < body.length - 1) trickle.socket.write(body[sent++]!);
    }, 100);
    try {
      await trickle.done;
      expect(trickle.status).toBe(408);
      expect(sent).toBeLessThan(body.length - 1);
    } finally {
      clearInterval(drip);
    }
  });
});

describe('connection caps', () => {
  it('closes connections over the per-address and the total cap at once; a fresh client is served once others close', async () => {
    const s = await start({ maxConnectionsPerAddress: 4, maxConnections: 6 });
    const held = await Promise.all(Array.from({ length: 4 }, () => open('127.0.0.1')));
    // The fifth from 127.0.0.1: closed at once.
    const fifth = await open('127.0.0.1');
    await fifth.done;
    expect(fifth.text).toBe('');
    // Others are still served, up to the total.
    const other = await Promise.all([open('127.0.0.2'), open('127.0.0.2')]);
    const overTotal = await open('127.0.0.3');
    await overTotal.done;
    expect(overTotal.text).toBe('');
    for (const raw of other) raw.socket.destroy();
    await Promise.all(other.map((raw) => raw.done));
    await eventually(async () =>
      (await send('127.0.0.3', 'GET', '/api/v1/usage', bearer(s.key))) === 200 ? true : undefined,
    );
    // Held connections are still alive (not closed by the caps), and usable.
    for (const raw of held) expect(raw.closed).toBe(false);
    held[0]!.socket.write(head('GET', '/api/v1/usage', { ...bearer(s.key), connection: 'close' }));
    await held[0]!.done;
    expect(held[0]!.status).toBe(200);
    // Once they close, 127.0.0.1 gets its connections back.
    for (const raw of held) raw.socket.destroy();
    await Promise.all(held.map((raw) => raw.done));
    await eventually(async () =>
      (await send('127.0.0.1', 'GET', '/api/v1/usage', bearer(s.key))) === 200 ? true : undefined,
    );
  });
});

describe('bodies are not read before the key is checked', () => {
  it('a large body with no key or a wrong key is refused after its head: the server reads a fraction of it', async () => {
    const s = await start({});
    const bytesRead: number[] = [];
    s.app.server.on('connection', (socket: Socket) =>
      socket.on('close', () => bytesRead.push(socket.bytesRead)),
    );
    // Under the JSON limit (1 MiB), so only the key check can refuse it early.
    const size = 900 * 1024;
    const body = Buffer.alloc(size, 'a');
    for (const auth of [{}, bearer(wrongKey(1))]) {
      for (let i = 0; i < 5; i++) {
        const raw = await open('127.0.0.1');
        raw.socket.write(
          head('POST', '/api/v1/tts', {
            'content-type': 'application/json',
            'content-length': size,
            ...auth,
          }),
        );
        raw.socket.write(body);
        await raw.done;
        expect(raw.status).toBe(401);
      }
    }
    await eventually(() => (bytesRead.length === 10 ? true : undefined));
    const most = Math.max(...bytesRead);
    console.log(`bytes the server read of each ${size}-byte body: at most ${most}`);
    expect(most).toBeLessThan(size / 4);
  });

  it('a route without a body, and the public sign-in, take 4 KiB at most; a text route what its longest text needs', async () => {
    const s = await start({});
    const padding = { padding: 'p'.repeat(8 * 1024) };
    const signIn = await s.call('POST', '/api/v1/session/sign-in', {
      key: null,
      body: { token: 'x', ...padding },
    });
    expect(signIn.status).toBe(413);
    expect(signIn.json).toMatchObject({ error_code: 'BODY_TOO_LARGE' });
    const cancel = await s.call('POST', `/api/v1/tts/${'0'.repeat(32)}/cancel`, { body: padding });
    expect(cancel.status).toBe(413);
    // 100,000 characters of a CJK extension written the way Python's json module does
    // (each as two \uXXXX escapes): 1.2 MB, over the old 1 MiB, within the limit of its route.
    const text = '\u{20000}'.repeat(100_000);
    const raw = JSON.stringify({ input_text: text, voice_code: 'en_female_emily_us' }).replace(
      /[\u{10000}-\u{10ffff}]/gu,
      (c) => `\\u${c.charCodeAt(0).toString(16)}\\u${c.charCodeAt(1).toString(16)}`,
    );
    expect(raw.length).toBeGreaterThan(1024 * 1024);
    const submit = await s.call('POST', '/api/v1/tts', {
      raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(submit.json?.error_code).not.toBe('BODY_TOO_LARGE');
  });
});

describe('--trust-proxy', () => {
  it('takes addresses, ranges and the names of ranges', () => {
    for (const value of [
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
      'linklocal',
      'uniquelocal',
    ])
      expect(trustProxyProblem(value)).toBeUndefined();
    for (const value of ['proxy.example.com', '10.0.0.0/33', '::1/129', '10.0.0.0/', '*'])
      expect(trustProxyProblem(value)).toMatch(/is not an address, a range/);
  });

  it('takes the client from X-Forwarded-For only on connections from a trusted proxy', async () => {
    const timers = manualTimers();
    await start({ trustProxy: ['127.0.0.1'] }, { freeFailures: 2, schedule: timers.schedule });
    const guess = (from: string, i: number, forwarded: string) =>
      send(from, 'GET', '/api/v1/usage', { ...bearer(wrongKey(i)), 'x-forwarded-for': forwarded });
    // Through the proxy, one client behind it fails twice; its third guess waits its turn…
    expect(await guess('127.0.0.1', 1, '203.0.113.5')).toBe(401);
    expect(await guess('127.0.0.1', 2, '203.0.113.5')).toBe(401);
    const third = guess('127.0.0.1', 3, '203.0.113.5');
    await until(() => timers.parked.length === 1);
    // …while another client behind the same proxy is its own: checked at once.
    expect(await guess('127.0.0.1', 4, '203.0.113.6')).toBe(401);
    expect(timers.parked).toHaveLength(1);
    // From an address that is not a proxy the header is ignored: every guess counts for 127.0.0.2
    // (a loopback client), however it names itself.
    expect(await guess('127.0.0.2', 5, '198.51.100.1')).toBe(401);
    expect(await guess('127.0.0.2', 6, '198.51.100.2')).toBe(401);
    const forged = guess('127.0.0.2', 7, '198.51.100.3');
    await until(() => timers.parked.length === 2);
    timers.releaseAll();
    expect(await third).toBe(401);
    expect(await forged).toBe(401);
  });

  it('caps the requests under way of each client behind a trusted proxy, not the proxy itself', async () => {
    const s = await start({ trustProxy: ['127.0.0.1'], maxConnectionsPerAddress: 2 });
    const body = JSON.stringify({ input_text: 'Hello there.', voice_code: 'en_female_emily_us' });
    // Two requests of one client behind the proxy stay under way (their bodies not finished).
    const pending = await Promise.all([open('127.0.0.1'), open('127.0.0.1')]);
    for (const raw of pending) {
      raw.socket.write(
        head('POST', '/api/v1/tts', {
          ...bearer(s.key),
          'content-type': 'application/json',
          'content-length': body.length,
          'x-forwarded-for': '203.0.113.9',
        }) + body.slice(0, 5),
      );
    }
    const forwarded = (client: string) =>
      send('127.0.0.1', 'GET', '/api/v1/usage', { ...bearer(s.key), 'x-forwarded-for': client });
    // Its third is refused at once; another client behind the same proxy, on the proxy's third
    // connection (over the per-address cap of 2, which a trusted proxy does not have), is served.
    await until(() => pending.every((raw) => !raw.closed));
    await eventually(async () => ((await forwarded('203.0.113.9')) === 429 ? true : undefined));
    expect(await forwarded('203.0.113.10')).toBe(200);
    // Once its requests end, the client is served again.
    for (const raw of pending) raw.socket.write(body.slice(5));
    await eventually(async () => ((await forwarded('203.0.113.9')) === 200 ? true : undefined));
  });
});

describe('wrong keys slow the guesser alone', () => {
  it('loops of wrong keys from one address: a valid key from that address keeps getting 200 at once; the guesser waits and gets 429', async () => {
    const timers = manualTimers();
    const s = await start({}, { schedule: timers.schedule });
    // The app's key is in use before the attack.
    expect(await send('127.0.0.1', 'GET', '/api/v1/usage', bearer(s.key))).toBe(200);
    // Eight loops of wrong keys, a new one each try, from the same address.
    let tries = 0;
    const answers = new Map<number, number>();
    let stop = false;
    const loop = async (n: number) => {
      while (!stop) {
        const status = await send(
          '127.0.0.1',
          'GET',
          '/api/v1/usage',
          bearer(wrongKey(n * 10_000 + tries++)),
        );
        answers.set(status ?? 0, (answers.get(status ?? 0) ?? 0) + 1);
        // A breath between tries, so the loops leave the test's own requests a turn.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const loops = Array.from({ length: 8 }, (_, n) => loop(n));
    // Past its 5 free failures the guesser's checks wait (never released here), beyond 4: 429.
    await until(() => (answers.get(429) ?? 0) >= 20 && timers.parked.length === 4);
    // Meanwhile the valid key, from the same address, is answered every time, while the
    // guesser's 4 checks are still parked.
    for (let i = 0; i < 20; i++)
      expect(await send('127.0.0.1', 'GET', '/api/v1/usage', bearer(s.key))).toBe(200);
    expect(timers.parked).toHaveLength(4);
    expect(answers.get(200)).toBeUndefined();
    // Its free failures (a few more when checks of the loops overlapped), nothing more.
    expect(answers.get(401)).toBeGreaterThanOrEqual(5);
    expect(answers.get(401)).toBeLessThanOrEqual(8);
    stop = true;
    timers.releaseAll();
    // Each loop ends once its parked check answers; new ones go on being parked until then.
    const ending = setInterval(() => timers.releaseAll(), 10);
    await Promise.all(loops);
    clearInterval(ending);
  });
});

describe('a client that half-closes after its request', () => {
  /** The server's side of the next connection it accepts. */
  const nextServerSocket = (s: TestApp) =>
    new Promise<Socket>((resolve) => s.app.server.once('connection', resolve));

  it('gets the answer that was still being worked out when its FIN came (node would have closed with nothing)', async () => {
    const timers = manualTimers();
    const s = await start({}, { schedule: timers.schedule });
    // Five free failures; the sixth wrong key's check waits until the test releases it.
    for (let i = 0; i < 5; i++)
      expect(await send('127.0.0.1', 'GET', '/api/v1/usage', bearer(wrongKey(i)))).toBe(401);
    const serverSide = nextServerSocket(s);
    const raw = await open();
    raw.socket.end(head('GET', '/api/v1/usage', { connection: 'close', ...bearer(wrongKey(5)) }));
    const server = await serverSide;
    await until(() => timers.parked.length === 1 && server.readableEnded);
    expect(raw.closed).toBe(false);
    timers.releaseAll();
    await raw.done;
    expect(raw.status).toBe(401);
    expect(raw.text).toContain('"error_code":"UNAUTHORIZED"');
  });

  it('ends an answer already under way (an event stream) at its FIN, as node does', async () => {
    const s = await start({});
    const raw = await open();
    raw.socket.write(head('GET', '/api/v1/events', bearer(s.key)));
    await until(() => raw.text.includes(': connected'));
    raw.socket.end();
    await raw.done;
    expect(raw.status).toBe(200);
  });
});
