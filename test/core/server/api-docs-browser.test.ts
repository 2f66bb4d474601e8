/**
 * The API reference page (/api-docs, swagger-ui served by the server itself) in Debian's
 * Chromium: it renders every operation of /openapi.json under the studio's CSP (no violation
 * reported), and every request the page makes goes to this server on 127.0.0.1.
 */

import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_DOCS_PATH, OPENAPI_PATH } from '../../../electron/core/server/openapi';
import { launchBrowser } from '../../fixtures/browser';
import { fetchUrl, startTestCore, type TestCore } from './helpers';

describe('the API reference page in Chromium', () => {
  let t: TestCore;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestCore();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders every operation, under the CSP, with no request off this server', async () => {
    const document = (await fetchUrl(`${t.core.url}${OPENAPI_PATH}`, 'GET')).json as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operationCount = Object.values(document.paths).reduce(
      (sum, item) => sum + Object.keys(item).length,
      0,
    );
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    // Every request the page makes, answered only when it is for this server.
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      requests.push(url);
      if (url.startsWith(`${t.core.url}/`)) await route.continue();
      else await route.abort();
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // A CSP violation is reported on the console ("Refused to …").
      if (message.type() === 'error' || /Refused to/.test(message.text())) problems.push(message.text());
    });
    await page.goto(`${t.core.url}${API_DOCS_PATH}`);
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBe(operationCount);
    await expect(page.locator('.info .title').textContent()).resolves.toMatch(/Narration Studio local API/);
    // One operation opened: its schemas are there.
    await page.locator('#operations-Speech_requests-submitTts .opblock-summary').click();
    const body = page.locator('.opblock.is-open .opblock-section-request-body');
    await body.waitFor();
    await expect(body.textContent()).resolves.toContain('input_text');
    const shots = join(tmpdir(), 'narration-screenshots');
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'api-docs.png') });

    expect(problems).toEqual([]);
    expect(requests.length).toBeGreaterThan(3);
    expect(requests.filter((url) => !url.startsWith(`${t.core.url}/`))).toEqual([]);
    await context.close();
  });
});
