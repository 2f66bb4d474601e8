/**
 * The callback attacks of the security review, against the real `serve` process: a server bound
 * to every interface (`--host 0.0.0.0`; the test talks to 127.0.0.1 only) asked to call back
 * into its own machine, by address and by name; a receiver whose answer carries a secret; a
 * callback URL with a password and a token, and the log file it leaves; a captured delivery
 * replayed later, checked with the verifiers the README gives receivers (Node and Python).
 * Every callback goes to a receiver this test runs on 127.0.0.1. The same refusal for each way a
 * server is reachable from elsewhere, its exceptions, and the bad values of the two flags:
 * internal-callbacks.test.ts (a core on the fake engine, fast tier).
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../electron/core/store';
import { useCompiledCli } from '../../fixtures/compiled-cli';
import { startReceiver, type CallbackReceiver } from '../../fixtures/callback-receiver';
import { eventually } from './helpers';
import { keyCall, startServerProcess, type ServerProcess } from './process';

/** Two starts of `serve`: the bundle, not the sources compiled again each time. */
const cli = useCompiledCli();

const KEY = 'callback-security-key-0123456789abcdef';
let dir: string;
let receiver: CallbackReceiver;
let server: ServerProcess | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'callback-security-'));
  receiver = await startReceiver();
});
afterEach(async () => {
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
    server = undefined;
  }
  receiver.received.length = 0;
});
afterAll(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `serve` on its own data folder under `dir`, with the test's key and quick retries. */
function serve(name: string, extra: string[], logFile?: string) {
  return startServerProcess(
    [
      '--port',
      '0',
      '--data-dir',
      join(dir, name),
      '--settings-dir',
      join(dir, name, 'config'),
      '--api-key',
      KEY,
      '--pool-size',
      '1',
      '--callback-attempts',
      '2',
      '--callback-delay-ms',
      '50',
      ...extra,
    ],
    logFile,
    cli,
  );
}

const submit = (callbackUrl: string) =>
  keyCall(server!.url, KEY, 'POST', '/api/v1/tts', {
    input_text: 'Hello.',
    voice_code: 'en_female_emily_us',
    callback_url: callbackUrl,
  });

/** The request once its callback is delivered or failed. */
async function settled(id: string) {
  return eventually(async () => {
    const detail = await keyCall(server!.url, KEY, 'GET', `/api/v1/tts/${id}`);
    const state = detail.json.result.callback_state as string;
    return state === 'delivered' || state === 'failed' ? detail.json.result : undefined;
  }, 30_000);
}

const port = () => new URL(receiver.url).port;

/** The latest attempt of request `id`, as its key sees it. */
async function attemptOf(id: string) {
  const detail = await settled(id);
  const result = await keyCall(server!.url, KEY, 'GET', `/api/v1/tts/${id}/callback-result`);
  return {
    status: detail.status,
    state: detail.callback_state,
    attempts: detail.callback_attempts,
    ...result.json.result,
  };
}

describe('a server reachable from other machines (serve --host 0.0.0.0)', () => {
  it('refuses the receiver by address at submit and by name at delivery, "not allowed" only', async () => {
    server = await serve('wide', ['--host', '0.0.0.0']);
    const literal = await submit(receiver.url);
    expect(literal.status, literal.text).toBe(400);
    expect(literal.json).toMatchObject({
      status: 0,
      error_code: 'INVALID_FIELD',
      error_message: 'callback_url is not allowed.',
    });
    const byName = await submit(`http://localhost:${port()}/hook`);
    expect(byName.status, byName.text).toBe(200);
    expect(await attemptOf(byName.json.result.request_id as string)).toMatchObject({
      status: 'SUCCESS',
      state: 'failed',
      attempts: 1,
      status_code: null,
      result: 'not allowed',
    });
    expect(receiver.received).toHaveLength(0);
  });
});

/** The code block of docs/API.md after `<!-- verify-callback:<language> -->` (prettier puts a blank line between). */
function readmeVerifier(language: 'node' | 'python'): string {
  const readme = readFileSync(join(process.cwd(), 'docs', 'API.md'), 'utf8');
  const match = new RegExp(`<!-- verify-callback:${language} -->\\n+\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\``).exec(
    readme,
  );
  expect(match, `docs/API.md has the ${language} verifier`).not.toBeNull();
  return match![1]!;
}

type Verify = (
  header: string,
  body: string | Buffer,
  secret: string,
  toleranceS?: number,
  nowS?: number,
) => boolean;

/** The README's Node verifier, run as written. */
function nodeVerifier(): Verify {
  const code = readmeVerifier('node');
  const require = createRequire(import.meta.url);
  return new Function('require', `${code}\nreturn verifyNarrationSignature;`)(require) as Verify;
}

/** The README's Python verifier, run by python3 on each case; its answers in order. */
function pythonVerdicts(cases: { header: string; body: string; secret: string; now: number }[]): boolean[] {
  const script = `${readmeVerifier('python')}
import json, sys
for case in json.load(sys.stdin):
    print(verify_narration_signature(case['header'], case['body'].encode(), case['secret'], now_s=case['now']))
`;
  const run = spawnSync('python3', ['-c', script], { input: JSON.stringify(cases), encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout
    .trim()
    .split('\n')
    .map((line) => line === 'True');
}

describe('a server on loopback only (the default)', () => {
  it('keeps no answer body, signs with a time the README verifiers check, and logs no secret', async () => {
    const log = join(dir, 'serve.log');
    server = await serve('local', [], log);
    const secretBody = 'SECRET-BODY-d41d8cd98f00 {"api_key":"nsk_leaked"}';
    receiver.respond = (_call, index) => (index === 0 ? 500 : 200);
    receiver.answer = () => secretBody;
    const hookUrl = receiver.url.replace('http://', 'http://admin:Sup3rS3cret@');
    const res = await submit(`${hookUrl}?api_token=tok123`);
    expect(res.status, res.text).toBe(200);
    const id = res.json.result.request_id as string;
    expect(await settled(id)).toMatchObject({ callback_state: 'delivered', callback_attempts: 2 });
    // The review's probe of the server's own API: only a status comes back.
    const probe = await submit(`${server.url}/api/v1/keys`);
    const probeId = probe.json.result.request_id as string;
    await settled(probeId);
    const probeResult = await keyCall(server.url, KEY, 'GET', `/api/v1/tts/${probeId}/callback-result`);
    expect(probeResult.json.result.result).toMatch(/^HTTP \d{3} [A-Za-z ]+$/);

    // Loopback stays allowed here; the password went as Basic authentication, not in the URL.
    const calls = receiver.received.filter((c) => c.url.startsWith('/hook'));
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.headers.authorization).toBe(`Basic ${Buffer.from('admin:Sup3rS3cret').toString('base64')}`);
      expect(call.url).toBe('/hook?api_token=tok123');
    }

    // The API shows the status and its standard reason, never the answer.
    const shown = [
      await keyCall(server.url, KEY, 'GET', `/api/v1/tts/${id}/callback-result`),
      await keyCall(server.url, KEY, 'GET', `/api/v1/tts/${id}/callback-attempts`),
    ];
    expect(shown[0]!.json.result).toMatchObject({ status_code: 200, result: 'HTTP 200 OK' });
    expect(shown[1]!.text).toContain('"result":"HTTP 500 Internal Server Error"');
    for (const answer of shown) expect(answer.text).not.toContain('SECRET-BODY');

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    server = undefined;

    // The log file: the failed attempt's URL without its password or token, and no body.
    const logged = readFileSync(log, 'utf8');
    expect(logged).toContain(
      `callback ${id} attempt 1 to http://***@127.0.0.1:${port()}/hook?api_token=***: HTTP 500 Internal Server Error`,
    );
    for (const secret of ['Sup3rS3cret', 'tok123', 'SECRET-BODY']) expect(logged).not.toContain(secret);

    // The database: no attempt holds the body, and neither does any byte of the files.
    const dbPath = join(dir, 'local', 'studio.db');
    const store = await openStore({ path: dbPath });
    let secret: string;
    try {
      const attempts = await store.callbacks.list(id);
      expect(attempts.map((a) => a.result)).toEqual(['HTTP 500 Internal Server Error', 'HTTP 200 OK']);
      secret = (await store.keys.findById((await store.requests.get(id))!.key_id))!.signing_secret;
    } finally {
      await store.close();
    }
    for (const file of [dbPath, `${dbPath}-wal`].filter((f) => existsSync(f))) {
      expect(readFileSync(file).includes('SECRET-BODY'), file).toBe(false);
    }

    // Each attempt is signed with its own time; the README's verifiers accept a fresh delivery
    // and refuse the same delivery replayed past the 5 minutes, or with another body.
    const verify = nodeVerifier();
    const cases: { header: string; body: string; secret: string; now: number; expected: boolean }[] = [];
    for (const call of calls) {
      const header = String(call.headers['x-narration-signature']);
      const t = Number(/^t=(\d+),v1=[0-9a-f]{64}$/.exec(header)![1]);
      expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(120);
      cases.push(
        { header, body: call.body, secret, now: t + 1, expected: true },
        { header, body: call.body, secret, now: t + 299, expected: true },
        { header, body: call.body, secret, now: t + 301, expected: false }, // the replay
        { header, body: call.body.replace('SUCCESS', 'FAILURE'), secret, now: t, expected: false },
        { header, body: call.body, secret: 'whsec_wrong', now: t, expected: false },
      );
      // The old header is still sent, and says when it goes.
      expect(call.headers['x-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(call.headers['x-signature-deprecated']).toBe(
        'X-Signature is removed in 0.3.0; verify X-Narration-Signature',
      );
    }
    expect(cases.map((c) => verify(c.header, c.body, c.secret, 300, c.now))).toEqual(
      cases.map((c) => c.expected),
    );
    expect(verify(cases[0]!.header, Buffer.from(cases[0]!.body), secret, 300, cases[0]!.now)).toBe(true);
    expect(pythonVerdicts(cases)).toEqual(cases.map((c) => c.expected));
  });
});
