/**
 * Refused Hosts and Origins explained, against the real server over HTTP on 127.0.0.1 (the Host header set
 * as a proxy or a rebound name would send it): the API's JSON refusal names `--allowed-host
 * <name>` and `--public-url <scheme://host>` (the scheme a proxy forwarded), in the API's error
 * shape under /api and OpenAI's under /v1; a browser opening the page gets a 403 HTML page that
 * says the same in English and Vietnamese, the language its Accept-Language prefers first, the
 * Host it sent escaped. The page's advice, followed, lets the same request in. A refused Origin
 * of the host asked (the studio through a proxy whose scheme `--public-url` does not name) is
 * told `--public-url <origin>`; one of another site, `--allow-origin <origin>`.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { hostAdvice, prefersVietnamese } from '../../../electron/core/server/refusals';
import { fetchUrl, makeStudioUiDir, startTestCore, type TestCore } from './helpers';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let t: TestCore;
let uiDir: string;

beforeAll(async () => {
  uiDir = makeStudioUiDir();
  t = await startTestCore({ uiDir });
});
afterAll(async () => {
  await t?.close();
  rmSync(uiDir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string>) =>
  fetchUrl(`${t.core.url}${path}`, 'GET', { headers });

describe('hostAdvice', () => {
  it('gives the name alone for --allowed-host and scheme://host for --public-url', () => {
    expect(hostAdvice('TTS.Example.com:8443', 'https')).toEqual({
      host: 'TTS.Example.com:8443',
      allowedHost: 'tts.example.com',
      publicUrl: 'https://tts.example.com:8443',
    });
    expect(hostAdvice('tts.example.com', undefined)?.publicUrl).toBe('http://tts.example.com');
    expect(hostAdvice('tts.example.com', 'https, http')?.publicUrl).toBe('https://tts.example.com');
    expect(hostAdvice('[fd00::5]:8787', 'http')?.allowedHost).toBe('[fd00::5]');
    for (const bad of [undefined, '', 'a b', 'x"><script>', 'host:port:9'])
      expect(hostAdvice(bad, undefined), String(bad)).toBeUndefined();
  });

  it('prefers Vietnamese only when Accept-Language ranks it above English', () => {
    expect(prefersVietnamese('vi-VN,vi;q=0.9,en-US;q=0.8,en;q=0.7')).toBe(true);
    expect(prefersVietnamese('en-US,en;q=0.9,vi;q=0.8')).toBe(false);
    expect(prefersVietnamese('fr,vi;q=0.5')).toBe(true);
    expect(prefersVietnamese('en;q=0.4,vi;q=0.6')).toBe(true);
    expect(prefersVietnamese(undefined)).toBe(false);
    expect(prefersVietnamese('de')).toBe(false);
  });
});

describe('a Host that is not this server', () => {
  it('API refusals name the option and the value to give', async () => {
    const api = await get('/api/v1/voices', {
      host: 'tts.example.com',
      'x-forwarded-proto': 'https',
      accept: 'application/json',
    });
    expect(api.status).toBe(403);
    expect(api.json).toMatchObject({ status: 0, error_code: 'FORBIDDEN_HOST' });
    expect(api.json.error_message).toContain('--allowed-host tts.example.com');
    expect(api.json.error_message).toContain('--public-url https://tts.example.com');

    const openai = await fetchUrl(`${t.core.url}/v1/audio/speech`, 'POST', {
      headers: { host: 'tts.example.com:8080', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', voice: 'nova', input: 'Hello.' }),
    });
    expect(openai.status).toBe(403);
    expect(openai.json.error.code).toBe('FORBIDDEN_HOST');
    expect(openai.json.error.message).toContain('--allowed-host tts.example.com');
    expect(openai.json.error.message).toContain('--public-url http://tts.example.com:8080');
  });

  it('a browser opening the studio gets a page in English then Vietnamese saying what to set', async () => {
    const page = await get('/', {
      host: 'tts.example.com',
      accept: BROWSER_ACCEPT,
      'accept-language': 'en-GB,en',
    });
    expect(page.status).toBe(403);
    expect(String(page.headers['content-type'])).toMatch(/^text\/html/);
    expect(page.text).toMatch(/^<!doctype html><html lang="en">/);
    expect(page.text).toContain('<code>--allowed-host tts.example.com</code>');
    expect(page.text).toContain('<code>--public-url http://tts.example.com</code>');
    const english = page.text.indexOf('does not answer to the name');
    const vietnamese = page.text.indexOf('Máy chủ này không nhận tên');
    expect(english).toBeGreaterThan(0);
    expect(vietnamese).toBeGreaterThan(english);
  });

  it('in Vietnamese first for a browser that prefers it', async () => {
    const page = await get('/', {
      host: 'studio.lan:8787',
      accept: BROWSER_ACCEPT,
      'accept-language': 'vi-VN,vi;q=0.9,en;q=0.5',
    });
    expect(page.status).toBe(403);
    expect(page.text).toMatch(/^<!doctype html><html lang="vi">/);
    expect(page.text).toContain('hãy khởi động nó với <code>--allowed-host studio.lan</code>');
    const vietnamese = page.text.indexOf('Máy chủ này không nhận tên');
    expect(vietnamese).toBeGreaterThan(0);
    expect(page.text.indexOf('does not answer to the name')).toBeGreaterThan(vietnamese);
  });

  it('escapes what the Host carried', async () => {
    // Not a host name: the page names nothing to set and shows the Host as text.
    const page = await get('/', { host: 'a<b>', accept: BROWSER_ACCEPT });
    expect(page.status).toBe(403);
    expect(page.text).not.toContain('<b>');
    expect(page.text).toContain('a&#60;b&#62;');
    expect(page.text).not.toContain('--allowed-host');
  });

  it('a script asking for JSON, and API paths, get JSON even when HTML is accepted', async () => {
    const script = await get('/', { host: 'tts.example.com' });
    expect(script.json).toMatchObject({ error_code: 'FORBIDDEN_HOST' });
    const api = await get('/api/v1/voices', { host: 'tts.example.com', accept: BROWSER_ACCEPT });
    expect(api.json).toMatchObject({ error_code: 'FORBIDDEN_HOST' });
  });

  it('the advice, followed, lets the same page in', async () => {
    const allowed = await startTestCore({ uiDir, allowedHosts: ['tts.example.com'] });
    try {
      const page = await fetchUrl(`${allowed.core.url}/`, 'GET', {
        headers: { host: 'tts.example.com', accept: BROWSER_ACCEPT },
      });
      expect(page.status).toBe(200);
      expect(page.text).toContain('<title>studio</title>');
    } finally {
      await allowed.close();
    }
  });
});

describe('an Origin that is not allowed', () => {
  const submit = (headers: Record<string, string>) =>
    fetchUrl(`${t.core.url}/api/v1/tts`, 'POST', {
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ input_text: 'From a page.', voice_code: 'en_female_emily_us' }),
    });

  it('of the host asked (a proxy in https before an http server) is told --public-url with it', async () => {
    const res = await submit({ origin: 'https://127.0.0.1' });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ status: 0, error_code: 'FORBIDDEN_ORIGIN' });
    expect(res.json.error_message).toContain('--public-url https://127.0.0.1 ');
  });

  it('of another site is told --allow-origin with it, and nothing for a value that is not an origin', async () => {
    const res = await submit({ origin: 'http://app.example:3000' });
    expect(res.status).toBe(403);
    expect(res.json.error_message).toContain('--allow-origin http://app.example:3000.');
    expect(res.json.error_message).not.toContain('--public-url');
    const odd = await submit({ origin: 'null' });
    expect(odd.status).toBe(403);
    expect(odd.json.error_message).toBe('Requests from origin "null" are not allowed.');
  });
});
