/**
 * Where a voice download may go: https anywhere, plain http only to loopback or the configured
 * mirror, redirects checked hop by hop and never from https down to http. Real servers on
 * 127.0.0.1 (an https one with a certificate made here by openssl); a URL off this machine is
 * only ever refused, and undici's own connection events show no connection was tried.
 */

import { execFileSync } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createHttpClient,
  downloadFile,
  downloadUrlProblem,
  type HttpClient,
} from '../../../electron/core/voices/download';
import { installPack } from '../../../electron/core/voices/install';
import { checkOnnxHeader } from '../../fixtures/onnx-header';
import { TEST_HTTP, appErrorOf, voicesLeft } from '../../fixtures/voice-mirror';

let work: string;
let cert: string;
let key: string;
/** Hosts undici set out to connect to, from its diagnostics channel. */
const connects: string[] = [];
const onConnect = (message: unknown) => {
  connects.push((message as { connectParams: { hostname: string } }).connectParams.hostname);
};

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'voices-download-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(work, 'key.pem'),
      '-out',
      join(work, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  cert = readFileSync(join(work, 'cert.pem'), 'utf8');
  key = readFileSync(join(work, 'key.pem'), 'utf8');
  subscribe('undici:client:beforeConnect', onConnect);
});
afterAll(() => {
  unsubscribe('undici:client:beforeConnect', onConnect);
  rmSync(work, { recursive: true, force: true });
});

const servers: Server[] = [];
let client: HttpClient | undefined;
beforeEach(() => {
  connects.length = 0;
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** Starts `handler` on 127.0.0.1 over http or https; returns its base URL and the paths asked for. */
async function serve(
  scheme: 'http' | 'https',
  handler: (path: string) => { status: number; location?: string; body?: string },
): Promise<{ base: string; asked: string[] }> {
  const asked: string[] = [];
  const listener: RequestListener = (req, res) => {
    asked.push(req.url ?? '');
    const { status, location, body = '' } = handler(req.url ?? '');
    res
      .writeHead(status, { 'content-length': String(body.length), ...(location ? { location } : {}) })
      .end(body);
  };
  const server = scheme === 'https' ? createHttpsServer({ cert, key }, listener) : createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

const fetchInto = (url: string, name = 'voice.onnx') => {
  client = createHttpClient({ ...TEST_HTTP, ca: cert });
  return downloadFile({ url, partPath: join(work, `${name}.part`), name, client, http: TEST_HTTP });
};

describe('download policy', () => {
  it('decides by scheme, host and where a redirect comes from', () => {
    const mirror = ['http://mirror.intranet:8080'];
    const allowed: [string, string[], string?][] = [
      ['https://huggingface.co/x.onnx', []],
      ['https://cdn-lfs.hf.co/x', [], 'https://huggingface.co/x'],
      ['http://127.0.0.1:9/x', []],
      ['http://127.8.9.10/x', []],
      ['http://localhost:1/x', []],
      ['http://[::1]:1/x', []],
      ['http://mirror.intranet:8080/rhasspy/x.onnx', mirror],
      ['https://huggingface.co/x', [], 'http://127.0.0.1:9/x'],
    ];
    for (const [url, origins, from] of allowed)
      expect(downloadUrlProblem(url, origins, from), url).toBeUndefined();
    const refused: [string, string[], RegExp, string?][] = [
      ['http://10.255.255.1/x.onnx', [], /neither this machine nor the configured mirror/],
      ['http://huggingface.co/x', [], /neither this machine/],
      ['http://mirror.intranet:8081/x', mirror, /neither this machine/],
      ['http://mirror.intranet.evil/x', mirror, /neither this machine/],
      ['http://127.0.0.1:9/x', [], /leaves https/, 'https://huggingface.co/x'],
      ['http://mirror.intranet:8080/x', mirror, /leaves https/, 'https://huggingface.co/x'],
      ['file:///etc/passwd', [], /uses file:/],
      ['ftp://127.0.0.1/x', [], /uses ftp:/],
      ['not a url', [], /not a URL/],
    ];
    for (const [url, origins, why, from] of refused)
      expect(downloadUrlProblem(url, origins, from), url).toMatch(why);
  });

  it('refuses a redirect from https down to http, even to this machine, before asking it', async () => {
    const plain = await serve('http', () => ({ status: 200, body: 'voice' }));
    const secure = await serve('https', (path) =>
      path === '/moved'
        ? { status: 302, location: '/file' }
        : path === '/file'
          ? { status: 200, body: 'voice' }
          : { status: 302, location: `${plain.base}/file` },
    );
    // https → https is followed (the public host sends its downloads to a CDN).
    expect((await fetchInto(`${secure.base}/moved`)).size).toBe(5);
    await client!.close();
    const error = await appErrorOf(fetchInto(`${secure.base}/down`, 'other.onnx'));
    expect(error.code).toBe('VOICE_DOWNLOAD_FAILED');
    expect(error.message).toMatch(
      /redirects to http:\/\/127\.0\.0\.1:\d+\/file, which leaves https for plain http; refused/,
    );
    expect(plain.asked).toEqual([]);
  });

  it('refuses plain http off this machine without connecting, and a redirect chain that leaves it', async () => {
    const dataDir = join(work, 'data');
    const error = await appErrorOf(
      installPack(
        { kind: 'url', url: 'http://10.255.255.1/voices/en_US-x-medium.onnx' },
        { dataDir, validateModel: checkOnnxHeader, http: TEST_HTTP, reserveBytes: 0 },
      ),
    );
    expect(error.code).toBe('VOICE_DOWNLOAD_FAILED');
    expect(error.message).toMatch(
      /http:\/\/10\.255\.255\.1\/voices\/en_US-x-medium\.onnx is plain http to a host that is neither this machine nor the configured mirror/,
    );
    expect(voicesLeft(dataDir)).toEqual([]);
    expect(connects).toEqual([]);

    const chain = await serve('http', (path) =>
      path === '/a'
        ? { status: 301, location: '/b' }
        : path === '/b'
          ? { status: 307, location: 'http://192.0.2.1/c' }
          : { status: 404 },
    );
    const leaving = await appErrorOf(fetchInto(`${chain.base}/a`));
    expect(leaving.message).toMatch(
      /\/b redirects to http:\/\/192\.0\.2\.1\/c, which is plain http to a host that is neither/,
    );
    expect(chain.asked).toEqual(['/a', '/b']);
    expect(connects).toContain('127.0.0.1');
    expect(connects.every((host) => host === '127.0.0.1')).toBe(true);
  });

  it('follows at most 5 redirects', async () => {
    const loop = await serve('http', (path) => ({ status: 302, location: `/${Number(path.slice(1)) + 1}` }));
    const error = await appErrorOf(fetchInto(`${loop.base}/0`));
    expect(error.message).toMatch(/more than 5 redirects/);
    expect(loop.asked).toHaveLength(6);
  });
});
