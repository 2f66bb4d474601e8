/**
 * Browser clients from another origin, in Debian's Chromium (Playwright) and in Debian's Firefox
 * ESR (puppeteer-core over WebDriver BiDi): `serve --allow-origin` names the origin of a page
 * served by another local server, whose scripts call us as three real clients do, each making
 * the browser send a CORS preflight first:
 * - the `openai` package itself (bundled into the page with esbuild, `dangerouslyAllowBrowser`):
 *   Authorization, User-Agent and the X-Stainless-* headers. Firefox (and Safari) ask for
 *   User-Agent in the preflight; Chromium drops a script's User-Agent, so only Firefox shows a
 *   missing allowance;
 * - openai-speech-stream-player's documented request: Cache-Control, Content-Type, Authorization;
 * - KoboldAI Lite's "OpenAI Compatible TTS": Content-Type and Authorization;
 * and the voices are listed the way an extension would (with its key). The page gets audio the
 * browser decodes; a page of an origin not named is stopped at the preflight, nothing is queued.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import type { Browser as PuppeteerBrowser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, launchFirefox } from '../../fixtures/browser';
import { serveArgs } from '../../faults/harness';
import { fetchUrl } from './helpers';
import { keyCall, startServerProcess, type ServerProcess } from './process';

const KEY = 'browser-cors-key-0123456789abcdef';

/**
 * The page's script: what each client sends, then what the test reads back (the status, the
 * bytes, the decoded length, and the X-Request-Id header, readable only when exposed).
 *
 * `kobold` is KoboldAI Lite's OpenAI TTS call as its index.html makes it (LostRuins/lite.koboldai.net
 * @27eec068, index.html, the `is_oai_tts` branch of its TTS function: `saved_oai_tts_url` is the
 * user's base URL + "/audio/speech", the payload `{model, input, voice}` with its defaults "tts-1"
 * and "alloy", the headers Content-Type and Authorization, then `response.arrayBuffer()` handed
 * to `ttsAudioContext.decodeAudioData`).
 *
 * `player` is openai-speech-stream-player's README usage (kvsur/openai-speech-stream-player,
 * README.md "Usage": a `Headers` with Cache-Control "no-store", Content-Type and Authorization,
 * the body `{model: "tts-1", input, voice: "shimmer", response_format: "mp3", speed: 1}`,
 * `redirect: 'follow'`); its player is fed the response, read here as bytes.
 *
 * `openaiPackage` is the `openai` package's own `audio.speech.create` (the bundle below sets
 * `window.OpenAI`), with no retries so a refusal shows at once.
 */
const PAGE_SCRIPT = `
const ttsAudioContext = new (window.AudioContext || window.webkitAudioContext)();
async function heard(response) {
  const data = await response.arrayBuffer();
  const bytes = data.byteLength;
  const decodedData = await ttsAudioContext.decodeAudioData(data);
  return { status: response.status, bytes, seconds: decodedData.duration, requestId: response.headers.get('x-request-id') };
}
window.kobold = async function (base, key, text) {
  const localsettings = { saved_oai_tts_url: base + "/v1/audio/speech", saved_oai_tts_key: key };
  const sub_endpt = localsettings.saved_oai_tts_url;
  const payload = { "model": "tts-1", "input": text, "voice": "alloy" };
  const ttsheaders = {
    'Content-Type': 'application/json',
    'Authorization': 'Bearer ' + localsettings.saved_oai_tts_key
  };
  try {
    return await heard(await fetch(sub_endpt, { method: 'POST', headers: ttsheaders, body: JSON.stringify(payload) }));
  } catch (error) {
    return { error: String(error) };
  }
};
window.player = async function (base, key, text) {
  var myHeaders = new Headers();
  myHeaders.append("Cache-Control", "no-store");
  myHeaders.append("Content-Type", "application/json");
  myHeaders.append("Authorization", "Bearer " + key);
  var raw = JSON.stringify({ "model": "tts-1", "input": text, "voice": "shimmer", "response_format": "mp3", "speed": 1 });
  var requestOptions = { method: 'POST', headers: myHeaders, body: raw, redirect: 'follow' };
  try {
    return await heard(await fetch(base + "/v1/audio/speech", requestOptions));
  } catch (error) {
    return { error: String(error) };
  }
};
window.openaiPackage = async function (base, key, text) {
  const client = new window.OpenAI({ baseURL: base + '/v1', apiKey: key, dangerouslyAllowBrowser: true, maxRetries: 0 });
  try {
    const response = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: text, response_format: 'mp3' });
    return await heard(response);
  } catch (error) {
    return { error: String(error) };
  }
};
window.listVoices = async function (base, key) {
  try {
    const response = await fetch(base + '/api/v1/voices', { headers: { 'Authorization': 'Bearer ' + key } });
    const body = await response.json();
    return { status: response.status, voices: body.result.items.length };
  } catch (error) {
    return { error: String(error) };
  }
};
`;

/** The `openai` package as a page script (what a web app's bundler makes of it). */
async function bundleOpenAi(): Promise<string> {
  const result = await build({
    stdin: { contents: "import OpenAI from 'openai'; window.OpenAI = OpenAI;", resolveDir: process.cwd() },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** A page server on its own local port: the page above at `/`, the bundle at `/openai.js`. */
function startPageServer(bundle: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    if (request.url === '/openai.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(bundle);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><title>a browser client</title><script src="/openai.js"></script><script>${PAGE_SCRIPT}</script>`,
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

/** A page open in one of the browsers: calls a function of its script, collects its console. */
interface OpenPage {
  call(name: string, ...args: string[]): Promise<unknown>;
  messages: string[];
}

/** What Playwright's and puppeteer's pages both offer, as the tests use them. */
interface AnyPage {
  on(event: 'console', listener: (message: { text(): string }) => void): unknown;
  goto(url: string): Promise<unknown>;
  evaluate(fn: (call: [string, string[]]) => Promise<unknown>, call: [string, string[]]): Promise<unknown>;
}

/** Opens `url` in `page` and lets the test call the page script's functions. */
async function openPage(page: AnyPage, url: string): Promise<OpenPage> {
  const messages: string[] = [];
  page.on('console', (message) => messages.push(message.text()));
  await page.goto(url);
  return {
    messages,
    call: (name, ...args) =>
      page.evaluate(
        ([fn, list]) =>
          (window as unknown as Record<string, (...a: string[]) => Promise<unknown>>)[fn]!(...list),
        [name, args],
      ),
  };
}

/** One browser, launched once for its tests. */
interface BrowserUnderTest {
  name: string;
  launch(): Promise<void>;
  open(url: string): Promise<OpenPage>;
  close(): Promise<void>;
  /** What its fetch throws when CORS refuses. */
  refused: RegExp;
}

function chromiumUnderTest(): BrowserUnderTest {
  let browser: Browser | undefined;
  return {
    name: 'Chromium',
    refused: /^TypeError: Failed to fetch$/,
    async launch() {
      browser = await launchBrowser();
    },
    async open(url) {
      return openPage(await (await browser!.newContext()).newPage(), url);
    },
    async close() {
      await browser?.close();
    },
  };
}

function firefoxUnderTest(): BrowserUnderTest {
  let browser: PuppeteerBrowser | undefined;
  return {
    name: 'Firefox',
    refused: /^TypeError: NetworkError when attempting to fetch resource\.$/,
    async launch() {
      browser = await launchFirefox();
    },
    async open(url) {
      return openPage(await browser!.newPage(), url);
    },
    async close() {
      await browser?.close();
    },
  };
}

let dir: string;
let allowed: Awaited<ReturnType<typeof startPageServer>>;
let other: Awaited<ReturnType<typeof startPageServer>>;
let serve: ServerProcess;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cors-browser-'));
  const bundle = await bundleOpenAi();
  allowed = await startPageServer(bundle);
  other = await startPageServer(bundle);
  serve = await startServerProcess(
    serveArgs(dir, KEY, 1, '--allow-origin', allowed.origin, '--allow-origin', 'app://obsidian.md'),
  );
});
afterAll(async () => {
  if (serve) {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  for (const page of [allowed, other]) if (page) await new Promise((resolve) => page.server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** Requests recorded for the key (the cloud API's list). */
const recorded = async () => (await keyCall(serve.url, KEY, 'GET', '/api/v1/tts')).json.result.items.length;

it('speaks for an Obsidian plugin (app://obsidian.md) named on the command line, at the HTTP level', async () => {
  // A custom scheme cannot be served to these browsers: the plugin's preflight and request as
  // Obsidian's Electron sends them (its User-Agent included).
  const origin = 'app://obsidian.md';
  const preflight = await fetchUrl(`${serve.url}/v1/audio/speech`, 'OPTIONS', {
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type,user-agent',
    },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers['access-control-allow-origin']).toBe(origin);
  expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('user-agent');
  const speech = await fetchUrl(`${serve.url}/v1/audio/speech`, 'POST', {
    headers: {
      origin,
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      'user-agent': 'obsidian/1.8',
    },
    body: JSON.stringify({ model: 'tts-1', input: 'Read this note aloud.', voice: 'alloy' }),
  });
  expect(speech.status, speech.text).toBe(200);
  expect(speech.headers['access-control-allow-origin']).toBe(origin);
  expect(speech.body.length).toBeGreaterThan(1000);
});

/** The page's clients of the speech route. */
const CLIENTS = ['openaiPackage', 'player', 'kobold'] as const;

describe.each([chromiumUnderTest(), firefoxUnderTest()])('a page of another origin in $name', (browser) => {
  beforeAll(async () => browser.launch());
  afterAll(async () => browser.close());

  it('speaks for a page of the named origin, each client’s request as it sends it', async () => {
    const page = await browser.open(`${allowed.origin}/`);
    for (const client of CLIENTS) {
      const spoken = await page.call(client, serve.url, KEY, `The knight rode on, said ${client}.`);
      expect(spoken, `${client}: ${page.messages.join('\n')}`).toMatchObject({
        status: 200,
        requestId: expect.stringMatching(/\S/),
      });
      const { bytes, seconds } = spoken as { bytes: number; seconds: number };
      expect(bytes, client).toBeGreaterThan(5_000);
      // The browser decoded it: a sentence of about two seconds.
      expect(seconds, client).toBeGreaterThan(1);
      expect(seconds, client).toBeLessThan(10);
    }
    const voices = await page.call('listVoices', serve.url, KEY);
    expect(voices).toMatchObject({ status: 200 });
    expect((voices as { voices: number }).voices).toBeGreaterThan(10);
  });

  it('stops a page of an origin not named at the preflight: nothing is queued', async () => {
    const before = await recorded();
    const page = await browser.open(`${other.origin}/`);
    for (const client of ['player', 'kobold']) {
      const spoken = await page.call(client, serve.url, KEY, 'Not from this page.');
      expect(spoken, client).toEqual({ error: expect.stringMatching(browser.refused) });
    }
    // The openai package wraps the browser's refusal in its own error.
    expect(await page.call('openaiPackage', serve.url, KEY, 'Not from this page.')).toEqual({
      error: expect.stringMatching(/Connection error/),
    });
    expect(await page.call('listVoices', serve.url, KEY)).toEqual({
      error: expect.stringMatching(browser.refused),
    });
    expect(await recorded()).toBe(before);
  });
});
