/**
 * The studio in a real browser against the real headless server: sign in with the printed
 * address → compose → pick a voice → move sliders → generate → waveform renders and plays →
 * the subtitle shown matches the cue for the current time → history lists the request →
 * the callback to a test receiver shows in the callback history → create and revoke a key →
 * save a new port in Settings (to a temp settings file) for the next start; a page of another
 * origin cannot submit to or read from the studio, with a bearer key or the session cookie.
 * Role and label selectors throughout, as a person finds things.
 */

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { VoiceMirror } from '../fixtures/voice-mirror';
import { cuesFromSrt } from '../../renderer/src/lib/subtitles';
import { API_LABELS } from '../fixtures/api-labels';
import { startReceiver } from '../fixtures/callback-receiver';
import {
  E2E_CALLBACK_ATTEMPTS,
  E2E_PACK,
  E2E_PACK_MODEL,
  E2E_SERVE_ARGS,
  generateWithRefusedCallback,
  launchBrowser,
  nav,
  SAMPLE_TEXT,
  startStudio,
  startVoiceMirror,
} from './harness';
import { waitUntil } from '../faults/harness';

export async function runStudioE2e(log: (line: string) => void): Promise<void> {
  const voiceMirror = await startVoiceMirror();
  const studio = await startStudio([...E2E_SERVE_ARGS, ...voiceMirror.args]);
  const receiver = await startReceiver();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: studio.url });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));

    // Without a session: the sign-in page, not a broken screen.
    await page.goto(studio.url + '/');
    await page.getByRole('heading', { name: 'Sign in to Narration Studio' }).waitFor();
    log('✓ without a session the sign-in page shows');

    // Sign in with the printed address; the token leaves the address bar.
    await page.goto(studio.loginUrl);
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();
    assert.equal(new URL(page.url()).search, '', 'token stripped from the address bar');
    log('✓ signed in with the printed address; token stripped');

    // A 100,000-character chapter stays responsive: typing into it keeps up.
    const editor = page.getByLabel('Text to speak');
    const chapter = 'The sea rolled in long grey lines, and the lamp turned. '.repeat(1786).slice(0, 99_995);
    await editor.fill(chapter);
    await editor.press('End');
    const typedAt = Date.now();
    await page.keyboard.type('abcde');
    await page.locator('.stat b', { hasText: '100,000' }).first().waitFor({ timeout: 60_000 });
    const typingMs = Date.now() - typedAt;
    assert.ok(typingMs < 2000, `typing 5 characters into 100k took ${typingMs} ms`);
    log(`✓ 100,000-character text: 5 keystrokes and the live count in ${typingMs} ms`);

    // A long job shows a progress bar and can be cancelled (refunded).
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByRole('progressbar', { name: 'Synthesis progress' }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Cancelled. The credits were refunded.').waitFor({ timeout: 60_000 });
    log('✓ a 100,000-character job shows progress and cancels');

    // Compose.
    await editor.fill(SAMPLE_TEXT);
    await page
      .locator('.stat b', { hasText: new RegExp(`^${SAMPLE_TEXT.length}$`) })
      .first()
      .waitFor();
    log('✓ composed text; live character count shown');

    // Pick a voice in the Voices view.
    await nav(page, 'Voices').click();
    await page.getByLabel('Search').fill('elara');
    // Audition: a short sample plays after the click, without a paid request. The button
    // reads "Stop" once the audio element is playing (its `playing` event), "…" until then.
    // How soon is printed, not bounded here (a loaded machine is slow; speed is the benches').
    const clickedAt = Date.now();
    await page.getByRole('button', { name: 'Play a sample of Elara (en_female_elara_br)' }).click();
    const stopElara = page.getByRole('button', { name: 'Stop a sample of Elara (en_female_elara_br)' });
    await stopElara.filter({ hasText: /^Stop$/ }).waitFor({ timeout: 60_000 });
    log(`✓ audition started playing ${Date.now() - clickedAt} ms after the click`);
    // It plays to its end: the button goes back to Play by itself.
    await page
      .getByRole('button', { name: 'Play a sample of Elara (en_female_elara_br)' })
      .waitFor({ timeout: 60_000 });
    log('✓ the audition played to its end');
    await page.getByRole('button', { name: 'Use Elara (en_female_elara_br)' }).click();
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();
    assert.equal(await page.getByLabel('Voice', { exact: true }).inputValue(), 'en_female_elara_br');
    log('✓ picked a voice');

    // Move the speed slider with the keyboard, as a person could.
    const speed = page.getByRole('slider', { name: 'Speed' });
    await speed.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.getByLabel('Speed value').inputValue(), '1.2');
    // Out-of-range input is clamped, not sent.
    await page.getByLabel('Volume value').fill('400');
    await page.getByLabel('Volume value').press('Enter');
    assert.equal(await page.getByLabel('Volume value').inputValue(), '150');
    log('✓ moved the speed slider; volume clamped to 150');

    // Callback to a test receiver.
    await page.getByLabel('Callback URL (optional)').fill(receiver.url);

    // Generate.
    await page.getByRole('button', { name: 'Generate' }).click();
    await page
      .getByRole('button', { name: 'Play' })
      .and(page.locator(':not([disabled])'))
      .waitFor({ timeout: 60_000 });
    await page.locator('.waveform').locator('div').first().waitFor();
    const waveHeight = await page.locator('.waveform').evaluate((el) => el.getBoundingClientRect().height);
    assert.ok(waveHeight >= 90, `waveform rendered (height ${waveHeight})`);
    log('✓ generated; waveform rendered');
    await assertLabelled(page, 'Studio');

    // Subtitles: seek to a cue from the list; the text shown is that cue's.
    const cueButtons = page.getByRole('list', { name: 'Subtitle cues' }).getByRole('button');
    await cueButtons.first().waitFor();
    const cueCount = await cueButtons.count();
    assert.ok(cueCount >= 2, `several cues (${cueCount})`);
    const second = cueButtons.nth(1);
    const secondText = (await second.locator('span').nth(1).innerText()).trim();
    await second.click();
    await assertCurrentCue(page, secondText);
    log(`✓ subtitle cue list seeks; current cue shows "${secondText.slice(0, 40)}…"`);

    // Play: time advances and the shown text is the cue for the current time.
    await page.getByRole('button', { name: 'Play' }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    const t0 = await currentSeconds(page);
    const t1 = await waitUntil(
      'playback to advance',
      async () => {
        const now = await currentSeconds(page);
        return now > t0 ? now : undefined;
      },
      10_000,
      50,
    );
    assert.ok(t1 > t0, `playback advances (${t0} → ${t1})`);
    await page.keyboard.press('Escape');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Play' }).waitFor();
    // The text shown is the SRT's cue for the displayed time (either neighbour within 0.15 s of a boundary).
    const srtHref = await page.getByRole('link', { name: 'Download SRT' }).getAttribute('href');
    const cues = cuesFromSrt(await (await fetch(new URL(srtHref!, studio.url))).text());
    const at = await currentSeconds(page);
    const candidates = cues
      .filter((c) => at >= c.start - 0.15 && at < c.end + 0.15)
      .map((c) => normalise(c.text));
    const shown = normalise(await page.getByTestId('current-cue').innerText());
    assert.ok(
      candidates.includes(shown),
      `at ${at} s the shown subtitle "${shown}" is one of ${JSON.stringify(candidates)}`,
    );
    log('✓ plays; Space pauses; subtitle in sync with the cue list');

    // History lists the request.
    await nav(page, 'History').click();
    const rows = page.getByRole('table', { name: 'Requests' }).getByRole('row');
    await rows.nth(1).waitFor();
    assert.match(await rows.nth(1).innerText(), /Elara/);
    assert.match(await rows.nth(1).innerText(), /done/);
    log('✓ history lists the request');
    await assertLabelled(page, 'History');

    // Callback history shows the delivery with its status.
    await receiver.waitFor(1, undefined, 60_000);
    await nav(page, 'Callbacks').click();
    const attempts = page.getByRole('table', { name: 'Delivery attempts' });
    await attempts.getByText('HTTP 200').first().waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Resend callback' }).click();
    await attempts.getByRole('row').nth(2).waitFor({ timeout: 60_000 });
    log('✓ callback delivery shown with HTTP 200; resend adds an attempt');
    await assertLabelled(page, 'Callbacks');

    // A receiver that refuses connections: the view shows every attempt as "no answer" with the
    // connection error, and the request ends "failed" after the configured attempts (serve runs
    // with --callback-attempts 3 here).
    await generateWithRefusedCallback(page);
    const failedRows = attempts.getByRole('row');
    await failedRows.nth(E2E_CALLBACK_ATTEMPTS).waitFor({ timeout: 60_000 });
    assert.equal(await failedRows.count(), E2E_CALLBACK_ATTEMPTS + 1, 'one row per attempt, plus the header');
    for (let i = 1; i <= E2E_CALLBACK_ATTEMPTS; i++) {
      const text = await failedRows.nth(i).innerText();
      assert.match(text, /no answer/, `attempt row ${i} shows no HTTP status`);
      assert.match(text, /connection refused/, `attempt row ${i} says the connection was refused`);
    }
    log(
      `✓ a refusing receiver: ${E2E_CALLBACK_ATTEMPTS} attempts shown as "no answer" (connection refused), request failed`,
    );

    // API page: create a key (shown once), then revoke it.
    await nav(page, 'API').click();
    await page.getByLabel('New key name').fill('e2e key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const newKey = (await page.getByLabel('New API key', { exact: true }).innerText()).trim();
    assert.match(newKey, /^nsk_/);
    const usage = await fetch(`${studio.url}/api/v1/usage`, {
      headers: { authorization: `Bearer ${newKey}` },
    });
    assert.equal(usage.status, 200, 'the new key works');
    // The ready-to-paste curl example works as shown (it carries the new key now): its submit,
    // the first paragraph of the direct one (test/renderer/api-examples.test.ts runs them all).
    const example = await page
      .getByLabel(`curl example: ${API_LABELS['cloud-direct']}`, { exact: true })
      .innerText();
    const submit = example
      .split(/\n\s*\n/)[0]!
      .split('\n')
      .filter((line) => !line.startsWith('#'))
      .join('\n');
    const curl = spawnSync('sh', ['-c', submit], { encoding: 'utf8' });
    assert.equal(JSON.parse(curl.stdout).status, 1, `curl example answered: ${curl.stdout}${curl.stderr}`);
    log('✓ the curl submit example works as shown');
    await assertCrossOriginRefused(context, page, studio.url, newKey);
    log('✓ a page of another origin can neither submit nor read, with the key or the session cookie');
    await page.getByRole('button', { name: /^Revoke key e2e key/ }).click();
    // Its own question (not the browser's confirm()): an app's key, so nothing about signing out.
    const question = page.getByRole('dialog', { name: 'Revoke this key?' });
    await question.waitFor();
    assert.match(await question.innerText(), /Apps using it stop working at once/);
    assert.doesNotMatch(await question.innerText(), /sign/i);
    await question.getByRole('button', { name: 'Revoke key' }).click();
    await page
      .getByRole('table', { name: 'API keys' })
      .getByRole('row', { name: /e2e key/ })
      .getByText('revoked')
      .waitFor();
    const after = await fetch(`${studio.url}/api/v1/usage`, {
      headers: { authorization: `Bearer ${newKey}` },
    });
    assert.equal(after.status, 401, 'the revoked key is refused');
    log('✓ created a key (shown once) and revoked it');
    await assertLabelled(page, 'API');
    await nav(page, 'Voices').click();
    await assertLabelled(page, 'Voices');
    await nav(page, 'Settings').click();
    await assertLabelled(page, 'Settings');
    log('✓ every visible control on every view has an accessible name');

    // Settings: the port for the next start goes to the (temp) settings file; this run keeps its own.
    const portField = page.getByLabel('Port', { exact: true });
    await portField.fill('70000');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Port must be a whole number from 0 to 65535').waitFor();
    await portField.fill('9345');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('status')
      .getByText('Applies the next time the studio starts (npm start / the desktop app)')
      .waitFor();
    const stored = JSON.parse(readFileSync(join(studio.settingsDir, 'settings.json'), 'utf8')) as {
      port: number;
    };
    assert.equal(stored.port, 9345, 'the settings file holds the new port');
    assert.equal(new URL(page.url()).origin, studio.url, 'the running server keeps its address');
    await page.getByRole('table', { name: 'Running server' }).getByText(studio.url).waitFor();
    log('✓ settings: a new port is saved for the next start, with the note');

    await voiceLibrarySteps(page, voiceMirror.mirror, log);

    assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
  } finally {
    await browser.close();
    await receiver.close();
    await studio.stop();
    await voiceMirror.close();
  }
}

/**
 * A page served from another origin on this machine (127.0.0.1, another port: the same site, so
 * the browser even attaches the SameSite=Strict session cookie) tries to submit and read with a
 * valid bearer key and with the session cookie. It must not read any answer, and nothing may
 * change in the studio.
 */
async function assertCrossOriginRefused(
  context: BrowserContext,
  studioPage: Page,
  studioUrl: string,
  key: string,
): Promise<void> {
  const elsewhere = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Another site</title><h1>Another site</h1>');
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  const sameOrigin = (path: string) =>
    studioPage.evaluate(async (url) => {
      const response = await fetch(url, {
        headers: { 'x-studio-session': localStorage.getItem('narration-studio.session') ?? '' },
      });
      return (await response.json()) as { result: { total?: number; items: unknown[] } };
    }, path);
  const studioTotal = async () => (await sameOrigin('/api/v1/tts?page_size=1')).result.total;
  const keyTotal = async () =>
    (
      (await (
        await fetch(`${studioUrl}/api/v1/tts?page_size=1`, {
          headers: { authorization: `Bearer ${key}` },
        })
      ).json()) as { result: { total: number } }
    ).result.total;
  const keyCount = async () => (await sameOrigin('/api/v1/keys')).result.items.length;
  const before = [await studioTotal(), await keyTotal(), await keyCount()];
  const foreign = await context.newPage();
  try {
    const origin = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    await foreign.goto(`${origin}/`);
    assert.notEqual(origin, studioUrl);
    const outcomes = await foreign.evaluate(
      async ({ target, key }) => {
        const speak = JSON.stringify({
          input_text: 'Sent from another site.',
          voice_code: 'en_female_emily_us',
        });
        const json = { 'content-type': 'application/json' };
        const attempts: [string, string, RequestInit][] = [
          [
            'submit with the key',
            '/api/v1/tts',
            { method: 'POST', headers: { ...json, authorization: `Bearer ${key}` }, body: speak },
          ],
          [
            'submit with the cookie',
            '/api/v1/tts',
            { method: 'POST', headers: json, body: speak, credentials: 'include' },
          ],
          // A "simple" request: no preflight, the browser sends it as it is.
          [
            'submit as a simple request',
            '/api/v1/tts',
            {
              method: 'POST',
              headers: { 'content-type': 'text/plain' },
              body: speak,
              credentials: 'include',
            },
          ],
          [
            'submit without CORS',
            '/api/v1/tts',
            {
              method: 'POST',
              headers: { 'content-type': 'text/plain' },
              body: speak,
              credentials: 'include',
              mode: 'no-cors',
            },
          ],
          [
            'OpenAI speech with the key',
            '/v1/audio/speech',
            {
              method: 'POST',
              headers: { ...json, authorization: `Bearer ${key}` },
              body: JSON.stringify({ model: 'tts-1', input: 'Hi.', voice: 'nova' }),
            },
          ],
          [
            'create a key with the cookie',
            '/api/v1/keys',
            {
              method: 'POST',
              headers: { 'content-type': 'text/plain' },
              body: '{"name":"evil"}',
              credentials: 'include',
            },
          ],
          ['read the history with the key', '/api/v1/tts', { headers: { authorization: `Bearer ${key}` } }],
          ['read the history with the cookie', '/api/v1/tts', { credentials: 'include' }],
          ['read the usage with the cookie', '/api/v1/usage', { credentials: 'include' }],
          ['read the session', '/api/v1/session', { credentials: 'include' }],
          ['read the keys', '/api/v1/keys', { credentials: 'include' }],
        ];
        return Promise.all(
          attempts.map(async ([name, path, init]) => {
            try {
              const response = await fetch(target + path, init);
              return { name, type: response.type, status: response.status, body: await response.text() };
            } catch (error) {
              return { name, type: 'blocked', status: 0, body: String(error) };
            }
          }),
        );
      },
      { target: studioUrl, key },
    );
    for (const outcome of outcomes) {
      // Either the browser refused to hand over the answer (CORS), or it is opaque: no status, no body.
      assert.ok(
        outcome.type === 'blocked' ||
          (outcome.type === 'opaque' && outcome.status === 0 && outcome.body === ''),
        `${outcome.name}: the page read ${outcome.status} ${outcome.body.slice(0, 200)}`,
      );
    }
    assert.equal(outcomes.length, 11);
    // Every attempt has had its answer (or was refused before it was sent), and the server
    // stores what it takes before it answers: nothing changed.
    assert.deepEqual(
      [await studioTotal(), await keyTotal(), await keyCount()],
      before,
      'no request or key was created',
    );
  } finally {
    await foreign.close();
    await new Promise((resolve) => elsewhere.close(resolve));
  }
}

/**
 * The Voice library: the catalogue (from --voice-catalogue) lists the pack; Download shows a
 * progress bar (the mirror holds the model until the bar was seen), then "installed"; the
 * Studio picker says "natural" for an English voice, and the request it makes names the pack
 * as its engine in the preview and in History.
 */
async function voiceLibrarySteps(
  page: Page,
  mirror: { fault: VoiceMirror['fault']; release(): void },
  log: (line: string) => void,
): Promise<void> {
  const id = E2E_PACK.entry.id;
  await nav(page, 'Voice library').click();
  await page.getByRole('heading', { name: 'Voice library' }).waitFor();
  const card = page.getByRole('listitem', { name: `Voice pack ${id}` });
  await card.getByText('available', { exact: true }).waitFor();
  await card.getByText('CC-BY-4.0').waitFor();
  await assertLabelled(page, 'Voice library');
  mirror.fault(E2E_PACK_MODEL, { kind: 'hold' });
  await page.getByRole('button', { name: `Download ${id}` }).click();
  await page.getByRole('progressbar', { name: `Download progress of ${id}` }).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: `Cancel download of ${id}` }).waitFor();
  mirror.fault(E2E_PACK_MODEL, null);
  mirror.release();
  await card.getByText('installed', { exact: true }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: new RegExp(`^Play a sample of ${id}`) }).waitFor();
  log('✓ voice library: downloaded a pack with a progress bar; it shows installed');

  await nav(page, 'Studio').click();
  await page.getByLabel('Callback URL (optional)').fill('');
  await page.getByLabel('Voice', { exact: true }).selectOption('en_female_emily_us');
  await page.getByLabel('Engine of this voice').getByText('natural').waitFor();
  await page.getByLabel('Text to speak').fill('The lamp turned over the quiet sea.');
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByLabel('Spoken by').getByText(`piper:${id}#0`).waitFor({ timeout: 60_000 });
  log('✓ generated with the installed pack: the preview names its engine (natural)');

  await nav(page, 'History').click();
  const newest = page.getByRole('table', { name: 'Requests' }).getByRole('row').nth(1);
  await newest.getByText('natural').waitFor();
  log('✓ history shows the request was spoken by the natural voice');
}

const normalise = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Every visible control has an accessible name (label, aria-label, aria-labelledby or text). */
async function assertLabelled(page: Page, view: string): Promise<void> {
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('input, select, textarea, button, a[href], [role="slider"]')]
      .filter((el) => el.offsetParent !== null || el.getClientRects().length > 0)
      .filter((el) => {
        const labels = (el as HTMLInputElement).labels;
        const name =
          el.getAttribute('aria-label') ??
          (el.getAttribute('aria-labelledby') ?? '')
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join('') ??
          '';
        return !(
          name.trim() ||
          (labels && labels.length > 0) ||
          (el.tagName !== 'INPUT' && el.textContent?.trim())
        );
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
  assert.deepEqual(unnamed, [], `controls without an accessible name on ${view}`);
}

async function currentSeconds(page: Page): Promise<number> {
  const text = await page.getByLabel('Current time and duration').innerText();
  const [m, s] = text.split('/')[0]!.trim().split(':');
  return Number(m) * 60 + Number(s);
}

async function assertCurrentCue(page: Page, expected: string): Promise<void> {
  let shown = '';
  await waitUntil(
    'the current cue',
    async () => {
      shown = normalise(await page.getByTestId('current-cue').innerText());
      return shown === normalise(expected) ? true : undefined;
    },
    5000,
    50,
  ).catch(() => assert.equal(shown, normalise(expected), 'current cue text'));
}
