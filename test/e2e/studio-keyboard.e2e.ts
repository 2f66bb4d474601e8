/**
 * The Studio by keyboard and its one current error, in a real browser against the real server
 * and eSpeak: Generate within the first Tab stops of the Studio, each stop visibly focused;
 * Ctrl+Enter from the editor generates and the focus lands on the result; text with nothing to
 * speak is caught with one message and no request; an SSML error shows once with its line and
 * column; an old error is gone after a successful Generate; a download's suggested name tells
 * what it holds; History's Open asks before replacing a draft, then brings back the request's
 * text and settings with its audio as the result. Screenshots of the error and of History's
 * Open, light and dark, in docs/screenshots/.
 */

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { focused } from './focus';
import { E2E_SERVE_ARGS, launchBrowser, nav, startStudio } from './harness';
import { animationsDone } from './waits';

const SHOTS = join(process.cwd(), 'docs/screenshots');

/** POSTs to the submit route made by the page, counted as they leave. */
function countSubmits(page: Page) {
  let count = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/tts') count++;
  });
  return () => count;
}

async function waitForResultFocus(page: Page) {
  await page.waitForFunction(
    () => document.activeElement?.classList.contains('result-region') === true,
    null,
    {
      timeout: 60_000,
    },
  );
}

export async function runStudioKeyboardE2e(log: (line: string) => void): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const studio = await startStudio(E2E_SERVE_ARGS);
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({
      viewport: { width: 1360, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const submits = countSubmits(page);
    await page.goto(studio.loginUrl);
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();
    const editor = page.getByLabel('Text to speak');
    const generate = page.getByRole('button', { name: 'Generate', exact: true });

    // Tab order from the start of the Studio: the editor's few tools, the editor, then Generate.
    await page.locator('main h1').evaluate((h1: HTMLElement) => {
      h1.tabIndex = -1;
      h1.focus();
    });
    const stops: { what: string; ring: boolean }[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      const stop = await focused(page);
      stops.push(stop);
      if (stop.what.startsWith('button Generate')) break;
    }
    const at = stops.findIndex((s) => s.what.startsWith('button Generate'));
    assert.ok(
      at >= 0 && at < 6,
      `Generate within the first 6 Tab stops of the Studio: ${JSON.stringify(stops)}`,
    );
    assert.ok(
      stops[at - 1]?.what.startsWith('textarea'),
      `the editor just before Generate: ${JSON.stringify(stops)}`,
    );
    const unringed = stops.filter((s) => !s.ring);
    assert.deepEqual(unringed, [], 'every Tab stop shows a focus ring');
    log(`✓ Tab order: Generate is stop ${at + 1} of the Studio, right after the editor; every stop ringed`);

    // Ctrl+Enter in the editor generates; the focus lands on the result once it is there.
    await editor.fill('The lighthouse keeper climbed the stairs at dusk.');
    await editor.focus();
    const before = submits();
    await page.keyboard.press('Control+Enter');
    await waitForResultFocus(page);
    assert.equal(submits(), before + 1, 'one request');
    assert.equal(
      await editor.inputValue(),
      'The lighthouse keeper climbed the stairs at dusk.',
      'no newline typed',
    );
    const region = page.getByRole('region', { name: /^Result: Emily/ });
    await region.getByRole('button', { name: 'Play' }).and(page.locator(':not([disabled])')).waitFor();
    const ring = await focused(page);
    assert.ok(ring.ring, 'the focused result shows its focus ring');
    log(`✓ Ctrl+Enter from the editor generated; the focus is on the result (${ring.what})`);

    // The download's suggested name: the first words, the voice, the format.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      region.getByRole('link', { name: 'Download audio' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'the-lighthouse-keeper-climbed_en_female_emily_us.mp3');
    const [srt] = await Promise.all([
      page.waitForEvent('download'),
      region.getByRole('link', { name: 'Download SRT' }).click(),
    ]);
    assert.equal(srt.suggestedFilename(), 'the-lighthouse-keeper-climbed_en_female_emily_us.srt');
    log(`✓ downloads suggested as ${download.suggestedFilename()} and its .srt`);

    // Nothing to speak: one message, no request.
    const alerts = page.locator('main [role="alert"]');
    for (const text of ['…!?', '— —']) {
      await editor.fill(text);
      const sent = submits();
      await generate.click();
      await page.getByRole('alert').filter({ hasText: 'Nothing to speak' }).waitFor();
      assert.equal(await alerts.count(), 1, `one error shown for ${text}`);
      assert.equal(submits(), sent, `no request sent for ${text}`);
    }
    log('✓ punctuation-only text: one "Nothing to speak" message, no request sent');

    // A malformed SSML document: its error once, with its line and column.
    await editor.fill('<speak>\n<p>One.</p>\n<p>Two.\n</speak>');
    assert.ok(await page.getByRole('switch', { name: 'SSML' }).isChecked(), 'SSML switched on by <speak>');
    await generate.click();
    const ssmlAlert = page.getByRole('alert').filter({ hasText: 'SSML:' });
    await ssmlAlert.waitFor();
    assert.equal(await alerts.count(), 1, 'only the SSML error is shown: the old one is gone');
    const message = await ssmlAlert.locator('span').innerText();
    const shown = await page
      .locator('main')
      .evaluate((main: HTMLElement, m) => main.innerText.split(m).length - 1, message);
    assert.equal(shown, 1, `the SSML error shows once: ${message}`);
    const place = /\(line (\d+), column (\d+)\)/.exec(message);
    assert.ok(place, `the SSML error names its place: ${message}`);
    await ssmlAlert.getByRole('button', { name: `Show line ${place[1]}, column ${place[2]}` }).waitFor();
    log(`✓ SSML error once, with its place: ${message}`);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await animationsDone(page);
      await page.screenshot({ path: join(SHOTS, `studio-error-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // The error is gone after a successful Generate (from the Controls, by the shortcut).
    await editor.fill('<speak><p>One.</p><p>Two.</p></speak>');
    await page.getByLabel('Voice', { exact: true }).selectOption('en_female_elara_br');
    await page.getByLabel('Speed value').fill('1.3');
    await page.getByLabel('Speed value').press('Enter');
    await page.locator('.segmented label', { hasText: 'WAV' }).click();
    assert.ok(await page.getByRole('radio', { name: 'WAV' }).isChecked());
    await page.getByRole('radio', { name: 'WAV' }).press('Control+Enter');
    await page.getByRole('region', { name: /^Result: Elara.*of audio/ }).waitFor({ timeout: 60_000 });
    assert.equal(await alerts.count(), 0, 'no error left after a successful Generate');
    const requestId = await page.locator('.result-region code').last().innerText();
    log('✓ the old error is gone after a successful Generate (Ctrl+Enter from a radio button)');

    // A new draft and other settings; History's Open asks first, then brings the request back.
    await editor.fill('An unrelated draft that Open must not lose silently.');
    await page.getByLabel('Voice', { exact: true }).selectOption('en_male_onyx_default');
    await page.getByRole('button', { name: 'Reset speed, pitch and volume' }).click();
    await page.locator('.segmented label', { hasText: 'MP3' }).click();
    await nav(page, 'History').click();
    const open = page.getByRole('button', { name: `Open request ${requestId} in the Studio` });
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Replace the draft?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: 'History', exact: true }).waitFor();
    await open.click();
    await dialog.getByRole('button', { name: 'Replace draft' }).click();
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();
    await waitForResultFocus(page);
    assert.equal(await editor.inputValue(), '<speak><p>One.</p><p>Two.</p></speak>');
    assert.ok(await page.getByRole('switch', { name: 'SSML' }).isChecked());
    assert.equal(await page.getByLabel('Voice', { exact: true }).inputValue(), 'en_female_elara_br');
    assert.equal(await page.getByLabel('Speed value').inputValue(), '1.3');
    assert.ok(await page.getByRole('radio', { name: 'WAV' }).isChecked());
    assert.equal(
      await page.locator('.result-region code').last().innerText(),
      requestId,
      'its audio is the result',
    );
    await page.getByRole('button', { name: 'Play' }).and(page.locator(':not([disabled])')).waitFor();
    await page.getByText('Draft replaced by a request from History.').waitFor();
    log(
      '✓ History Open: asked (Cancel kept the draft), then text, SSML, voice, speed and format back, its audio the result',
    );
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await animationsDone(page);
      await page.screenshot({ path: join(SHOTS, `studio-history-open-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // Undo brings the draft back.
    await page.getByRole('button', { name: 'Undo' }).click();
    assert.equal(await editor.inputValue(), 'An unrelated draft that Open must not lose silently.');
    log('✓ Undo brings back the draft History replaced');

    assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
  } finally {
    await browser.close();
    await studio.stop();
  }
}
