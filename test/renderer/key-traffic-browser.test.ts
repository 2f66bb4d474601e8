/**
 * An app's traffic and its key's signing secret in the built studio, in Debian's Chromium:
 * History and Callbacks show the studio key's requests by default, an app's with its key
 * chosen, every key's with "All keys"; the API page shows a key's signing secret, rotates it
 * (the page then shows the secret the server signs with), lists the OpenAI route, and shows
 * each language's examples exactly as examples.ts builds them (the text the examples test runs).
 * With KEY_TRAFFIC_SHOTS=<folder>, it leaves PNGs of the API page, History and Callbacks there.
 */

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExamples, EXAMPLE_LANGUAGES, LANGUAGE_LABELS } from '../../renderer/src/features/api/examples';
import { createApiKey } from '../../electron/core/jobs/keys';
import { systemClock } from '../../electron/core/platform/clock';
import { API_LABELS } from '../fixtures/api-labels';
import { launchBrowser } from '../fixtures/browser';
import { startReceiver, type CallbackReceiver } from '../fixtures/callback-receiver';
import { startTestCore, type TestCore } from '../core/server/helpers';

const SHOTS = process.env.KEY_TRAFFIC_SHOTS;

let uiDir: string;
let t: TestCore;
let receiver: CallbackReceiver;
let browser: Browser;
let page: Page;
let appKeyId: string;

const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

async function shot(name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** The stored signing secret of `keyId`, as the server has it. */
async function storedSecret(keyId: string): Promise<string> {
  return (await t.core.store.keys.findById(keyId))!.signing_secret;
}

beforeAll(async () => {
  uiDir = mkdtempSync(join(tmpdir(), 'studio-ui-'));
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
  receiver = await startReceiver();
  t = await startTestCore({ uiDir });
  // The studio's own request, and another app's key with its traffic: a request with a callback.
  const studioRequest = await t.call('POST', '/api/v1/tts', {
    body: { input_text: 'Made in the studio.', voice_code: 'en_female_emily_us' },
  });
  expect(studioRequest.status).toBe(200);
  const app = await createApiKey(t.core.store, systemClock, { name: 'Reading app' });
  appKeyId = app.row.id;
  const submitted = await t.call('POST', '/api/v1/tts', {
    key: app.key,
    body: {
      input_text: 'A request of the reading app.',
      voice_code: 'en_female_emily_us',
      callback_url: receiver.url,
    },
  });
  expect(submitted.status).toBe(200);
  await receiver.waitFor(1);
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1360, height: 1000 }, deviceScaleFactor: 1 });
  page = await context.newPage();
  await page.goto(t.core.loginUrl);
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await receiver?.close();
  if (uiDir) rmSync(uiDir, { recursive: true, force: true });
});

describe("an app's traffic in the studio", () => {
  it('History: the studio key by default, the app\'s with its key chosen, all with "All keys"', async () => {
    await nav('History').click();
    const table = page.getByRole('table', { name: 'Requests' });
    await table.getByText('Made in the studio.').waitFor();
    expect(await table.getByRole('row').count()).toBe(2);
    await page.getByLabel('API key').selectOption(appKeyId);
    await table.getByText('A request of the reading app.').waitFor();
    expect(await table.getByRole('row').count()).toBe(2);
    await page.getByLabel('API key').selectOption('all');
    await table.getByRole('columnheader', { name: 'Key' }).waitFor();
    await table.getByRole('cell', { name: 'Reading app (nsk_…)' }).waitFor();
    expect(await table.getByRole('row').count()).toBe(3);
    await shot('history-all-keys');
  });

  it("Callbacks: the app's deliveries", async () => {
    await nav('Callbacks').click();
    await page.getByText('No request of this key has a callback URL yet').waitFor();
    await page.getByLabel('API key').selectOption(appKeyId);
    await page
      .getByRole('table', { name: 'Delivery attempts' })
      .getByText('HTTP 200', { exact: true })
      .waitFor();
    await shot('callbacks-app-key');
  });
});

describe('the API page', () => {
  it("shows, copies and rotates a key's signing secret", async () => {
    await nav('API').click();
    const before = await storedSecret(appKeyId);
    const keys = page.getByRole('table', { name: 'API keys' });
    const row = keys.getByRole('row').filter({ hasText: 'Reading app' });
    const secret = row.getByLabel(/^Signing secret of /);
    expect(await secret.textContent()).toBe(`${before.slice(0, 10)}…${before.slice(-4)}`);
    await row.getByRole('button', { name: /^Show the signing secret/ }).click();
    expect(await secret.textContent()).toBe(before);
    await row.getByRole('button', { name: /^Hide the signing secret/ }).click();

    await row.getByRole('button', { name: /^Rotate the signing secret/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    await expect.poll(() => storedSecret(appKeyId)).not.toBe(before);
    const after = await storedSecret(appKeyId);
    // Rotated secrets are shown in full at once: the one the server now signs with.
    await expect.poll(() => secret.textContent()).toBe(after);
    await shot('api-keys-rotated');
  });

  it("lists the OpenAI route and shows each language's examples exactly as examples.ts builds them", async () => {
    const routes = page.getByRole('list', { name: 'OpenAI-compatible routes' });
    for (const route of ['POST /v1/audio/speech', 'GET /v1/models', 'GET /v1/audio/voices'])
      await routes.getByText(route).waitFor();
    const examples = buildExamples({ baseUrl: t.core.url });
    for (const language of EXAMPLE_LANGUAGES) {
      await page
        .getByRole('group', { name: 'Example language' })
        .getByRole('button', { name: LANGUAGE_LABELS[language] })
        .click();
      for (const e of examples.filter((x) => x.language === language)) {
        const block = page.getByLabel(`${LANGUAGE_LABELS[language]} example: ${API_LABELS[e.api]}`, {
          exact: true,
        });
        expect(await block.textContent()).toBe(e.code);
      }
    }
    await page
      .getByRole('group', { name: 'Example language' })
      .getByRole('button', { name: 'Python (requests)' })
      .click();
    await shot('api-page');
  });
});
