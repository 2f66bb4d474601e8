/**
 * The studio session in a real browser (Debian's Chromium): the built studio signs in from its
 * sign-in address and works; a server on another 127.0.0.1 port, which the browser sends the
 * session cookie to (cookies do not isolate ports, RFC 6265 §8.5), can neither read the
 * session's value from its own page nor use the cookie it received; the address signs in once;
 * signing out ends the session.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEY } from '../../renderer/src/lib/api-client';
import { launchBrowser } from '../fixtures/browser';
import { startTestCore, type TestCore } from '../core/server/helpers';

/** A server on another local port: records the Cookie headers it receives, serves a probing page. */
function startOtherServer(): Promise<{ server: Server; url: string; cookies: string[] }> {
  const cookies: string[] = [];
  const server = createServer((request, response) => {
    if (request.headers.cookie) cookies.push(request.headers.cookie);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>another local app</title>');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, cookies }),
    ),
  );
}

describe('the studio session in Chromium', () => {
  let uiDir: string;
  let t: TestCore;
  let other: Awaited<ReturnType<typeof startOtherServer>>;
  let browser: Browser;

  beforeAll(async () => {
    // The studio as this tree builds it, in a folder of its own.
    uiDir = mkdtempSync(join(tmpdir(), 'studio-ui-'));
    // The production bundle users get (under vitest's NODE_ENV=test vite would build React's
    // development one).
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({
        configFile: join(import.meta.dirname, '../../renderer/vite.config.ts'),
        build: { outDir: uiDir, emptyOutDir: true, sourcemap: false },
        logLevel: 'warn',
      });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    t = await startTestCore({ uiDir });
    other = await startOtherServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => other?.server.close(resolve));
    await t?.close();
    rmSync(uiDir, { recursive: true, force: true });
  });

  it('signs in once, works, and another port gets the cookie but not the session', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const loginUrl = t.core.loginUrl;
    await page.goto(loginUrl);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    // The token left the address bar; the session's value is in this origin's storage.
    expect(page.url()).toBe(`${t.core.url}/`);
    const value = await page.evaluate((key) => localStorage.getItem(key), SESSION_STORAGE_KEY);
    expect(value).toMatch(/^[\w-]{43}$/);
    // In the page, the session's calls work with the header, and not without it.
    const statuses = await page.evaluate(async (session) => {
      const withHeader = await fetch('/api/v1/keys', { headers: { 'x-studio-session': session! } });
      const cookieOnly = await fetch('/api/v1/keys');
      return [withHeader.status, cookieOnly.status];
    }, value);
    expect(statuses).toEqual([200, 401]);

    // Another local server on another port: the browser sends it the studio's cookie…
    const foreign = await context.newPage();
    await foreign.goto(`${other.url}/`);
    const leaked = other.cookies.join('; ');
    expect(leaked).toContain(`ns_session_${t.core.port}=`);
    // …but its page cannot read the studio's storage (its own origin's is empty)…
    expect(await foreign.evaluate((key) => localStorage.getItem(key), SESSION_STORAGE_KEY)).toBeNull();
    // …and the cookie it received, replayed alone, opens nothing.
    const cookie = leaked.split('; ').find((c) => c.startsWith(`ns_session_${t.core.port}=`))!;
    const replayed = await fetch(`${t.core.url}/api/v1/keys`, { headers: { cookie } });
    expect(replayed.status).toBe(401);
    expect(await replayed.text()).not.toContain('whsec_');
    const created = await fetch(`${t.core.url}/api/v1/keys`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(created.status).toBe(401);

    // The sign-in address, opened again (from the history, in another browser), signs nobody in.
    const again = await (await browser.newContext()).newPage();
    await again.goto(loginUrl);
    await again.getByRole('heading', { name: 'Sign in to Narration Studio' }).waitFor();
    await again.getByText(/already used/).waitFor();

    // Signing out ends the session: the cookie and the value no longer work together either.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Narration Studio' }).waitFor();
    const afterSignOut = await fetch(`${t.core.url}/api/v1/keys`, {
      headers: { cookie, 'x-studio-session': value! },
    });
    expect(afterSignOut.status).toBe(401);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
