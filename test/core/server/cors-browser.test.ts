/**
 * A browser client from another origin, in Debian's Chromium: `serve --allow-origin` names the
 * origin of a page served by another local server, whose script calls us the way KoboldAI Lite's
 * "OpenAI Compatible TTS" does (a `fetch` with a bearer key and a JSON body, so the browser sends
 * a CORS preflight first) and lists the voices the way an extension would (with its key). The
 * page gets audio it can decode; a page of an origin not named is stopped at the preflight, and
 * nothing reaches the queue.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../fixtures/browser';
import { keyCall, startServerProcess, type ServerProcess } from './process';

const KEY = 'browser-cors-key-0123456789abcdef';

/**
 * The page's script. `speak` is KoboldAI Lite's OpenAI TTS call as its index.html makes it
 * (LostRuins/lite.koboldai.net @27eec068, index.html, the `is_oai_tts` branch of its TTS
 * function: `saved_oai_tts_url` is the user's base URL + "/audio/speech", the payload
 * `{model, input, voice}` with its defaults "tts-1" and "alloy", the headers Content-Type and
 * Authorization, then `response.arrayBuffer()` handed to `ttsAudioContext.decodeAudioData`).
 * Beside it, what the test reads back: the status, the bytes, the decoded length and the
 * X-Request-Id header (readable only when exposed).
 */
const PAGE_SCRIPT = `
const ttsAudioContext = new (window.AudioContext || window.webkitAudioContext)();
window.speak = async function (base, key, text) {
  const localsettings = { saved_oai_tts_url: base + "/audio/speech", saved_oai_tts_key: key };
  const sub_endpt = localsettings.saved_oai_tts_url;
  const payload = { "model": "tts-1", "input": text, "voice": "alloy" };
  const ttsheaders = {
    'Content-Type': 'application/json',
    'Authorization': 'Bearer ' + localsettings.saved_oai_tts_key
  };
  try {
    const response = await fetch(sub_endpt, { method: 'POST', headers: ttsheaders, body: JSON.stringify(payload) });
    const data = await response.arrayBuffer();
    const bytes = data.byteLength;
    const decodedData = await ttsAudioContext.decodeAudioData(data);
    return { status: response.status, bytes, seconds: decodedData.duration, requestId: response.headers.get('x-request-id') };
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

/** A page server on its own local port: the page above, whatever the path. */
function startPageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>a browser client</title><script>${PAGE_SCRIPT}</script>`);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

describe('a page of another origin in Chromium', () => {
  let dir: string;
  let allowed: Awaited<ReturnType<typeof startPageServer>>;
  let other: Awaited<ReturnType<typeof startPageServer>>;
  let serve: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cors-browser-'));
    allowed = await startPageServer();
    other = await startPageServer();
    serve = await startServerProcess([
      '--port',
      '0',
      '--data-dir',
      dir,
      '--settings-dir',
      join(dir, 'config'),
      '--api-key',
      KEY,
      '--pool-size',
      '1',
      '--allow-origin',
      allowed.origin,
    ]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (serve) {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
    for (const page of [allowed, other]) if (page) await new Promise((resolve) => page.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Requests recorded for the key (the cloud API's list). */
  const recorded = async () => (await keyCall(serve.url, KEY, 'GET', '/api/v1/tts')).json.result.items.length;

  it('speaks for a page of the named origin, KoboldAI Lite’s request as it sends it', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${allowed.origin}/`);
    const spoken = await page.evaluate(
      ([base, key]) =>
        (window as unknown as { speak(b: string, k: string, t: string): Promise<unknown> }).speak(
          base!,
          key!,
          'The knight rode on through the night.',
        ),
      [`${serve.url}/v1`, KEY],
    );
    expect(spoken).toMatchObject({ status: 200, requestId: expect.stringMatching(/\S/) });
    const { bytes, seconds } = spoken as { bytes: number; seconds: number };
    expect(bytes).toBeGreaterThan(5_000);
    // Chromium decoded it: a sentence of about two seconds.
    expect(seconds).toBeGreaterThan(1);
    expect(seconds).toBeLessThan(10);

    const voices = await page.evaluate(
      ([base, key]) =>
        (window as unknown as { listVoices(b: string, k: string): Promise<unknown> }).listVoices(base!, key!),
      [serve.url, KEY],
    );
    expect(voices).toMatchObject({ status: 200 });
    expect((voices as { voices: number }).voices).toBeGreaterThan(10);
  });

  it('stops a page of an origin not named at the preflight: nothing is queued', async () => {
    const before = await recorded();
    const page = await (await browser.newContext()).newPage();
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    await page.goto(`${other.origin}/`);
    const spoken = await page.evaluate(
      ([base, key]) =>
        (window as unknown as { speak(b: string, k: string, t: string): Promise<unknown> }).speak(
          base!,
          key!,
          'Not from this page.',
        ),
      [`${serve.url}/v1`, KEY],
    );
    expect(spoken).toEqual({ error: 'TypeError: Failed to fetch' });
    const voices = await page.evaluate(
      ([base, key]) =>
        (window as unknown as { listVoices(b: string, k: string): Promise<unknown> }).listVoices(base!, key!),
      [serve.url, KEY],
    );
    expect(voices).toEqual({ error: 'TypeError: Failed to fetch' });
    // Chromium says why: the preflight was refused.
    expect(messages.join('\n')).toMatch(/CORS policy.*preflight/);
    expect(await recorded()).toBe(before);
  });
});
