/**
 * The studio under a reverse proxy's sub-path, in Chromium: `serve --public-url
 * http://127.0.0.1:<nginx>/tts` behind a real nginx with `location /tts/ { proxy_pass
 * http://127.0.0.1:<port>/; }` (test/fixtures/nginx.ts). The printed sign-in address is under
 * /tts; the page loads there (the sign-in page first, not a blank one), signs in, lists voices,
 * plays an audition, generates a line and plays it; every request the page makes stays under
 * /tts/; a reload is still signed in (the cookie's Path is /tts). A screenshot is kept. The same
 * server opened directly (no proxy) still signs in and lists voices. Opened under a name it was not
 * told about, it shows a page (English or Vietnamese first) naming the options to set.
 */

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startNginx, type Nginx } from '../fixtures/nginx';
import { freePort } from '../fixtures/postgres';
import { launchBrowser, nav, startStudio, type Studio } from './harness';

const LINE = 'The lighthouse keeper climbed the stairs at dusk, under a sub-path.';

/** Waits until the studio's first view shows after a sign-in. */
async function studioShows(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor({ timeout: 30_000 });
}

/** `test/e2e/run.ts sub-path`; screenshots go to `shotDir` (default: a folder in the temp folder). */
export async function runSubPathE2e(log: (line: string) => void, shotDir?: string): Promise<void> {
  const shots = shotDir ?? join(tmpdir(), 'sub-path-shots');
  mkdirSync(shots, { recursive: true });
  const nginxPort = await freePort();
  const publicUrl = `http://127.0.0.1:${nginxPort}/tts`;
  let studio: Studio | undefined;
  let nginx: Nginx | undefined;
  const browser = await launchBrowser();
  try {
    studio = await startStudio(['--public-url', publicUrl], { poolSize: 1 });
    nginx = await startNginx(Number(new URL(studio.url).port), nginxPort, { subPath: '/tts/' });
    const printed = studio.loginUrl;
    assert.match(printed, new RegExp(`^${publicUrl.replace(/[.]/g, '\\.')}/\\?token=[0-9a-f]+$`));
    log('✓ serve prints the sign-in address under --public-url, sub-path included');

    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const outside: string[] = [];
    const refused: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith('http') && !url.pathname.startsWith('/tts/')) outside.push(request.url());
    });
    // Once signed in (before, the session check's 401 is what shows the sign-in page).
    let signedIn = false;
    page.on('response', (response) => {
      if (signedIn && response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
    });

    // Without a session: the sign-in page (the assets loaded from /tts/), naming the address under /tts.
    await page.goto(`${publicUrl}/`);
    await page.getByRole('heading', { name: 'Sign in to Narration Studio' }).waitFor({ timeout: 30_000 });
    assert.match(await page.locator('pre.payload').innerText(), new RegExp(`open ${publicUrl}/\\?token=`));
    log('✓ the page loads under /tts/ (sign-in page, not blank)');

    // Signed in with the printed address: the token leaves the address bar, the path stays.
    await page.goto(printed);
    await studioShows(page);
    signedIn = true;
    assert.equal(new URL(page.url()).pathname, '/tts/');
    assert.equal(new URL(page.url()).search, '');
    log('✓ signed in through nginx; the address stays under /tts/');

    // Voices listed; an audition plays (an audio element's address under /tts).
    await nav(page, 'Voices').click();
    await page.getByLabel('Search').fill('elara');
    await page.getByRole('button', { name: 'Play a sample of Elara (en_female_elara_br)' }).click();
    await page
      .getByRole('button', { name: 'Stop a sample of Elara (en_female_elara_br)' })
      .filter({ hasText: /^Stop$/ })
      .waitFor({ timeout: 60_000 });
    log('✓ voices listed; an audition plays through nginx');

    // One line generated and played.
    await nav(page, 'Studio').click();
    await page.getByLabel('Text to speak').fill(LINE);
    await page.getByRole('button', { name: 'Generate' }).click();
    const play = page.getByRole('button', { name: 'Play' }).and(page.locator(':not([disabled])'));
    await play.waitFor({ timeout: 60_000 });
    await page.locator('.waveform').locator('div').first().waitFor();
    await play.click();
    await page.getByRole('button', { name: 'Pause' }).waitFor({ timeout: 60_000 });
    // Playing: the time shown moves on.
    const clock = page.getByLabel('Current time and duration');
    await page.waitForFunction(
      (el) => !/^\s*0:00\.0\s*\//.test(el?.textContent ?? ''),
      await clock.elementHandle(),
      { timeout: 60_000 },
    );
    log(`✓ a line generated through nginx and playing (${await clock.innerText()})`);
    await page.screenshot({ path: join(shots, 'studio-under-tts.png') });
    log(`✓ screenshot ${join(shots, 'studio-under-tts.png')}`);

    // A reload is still signed in: the session cookie (Path=/tts) goes with the calls.
    const cookies = await context.cookies();
    assert.ok(
      cookies.some((c) => c.name.startsWith('ns_session_') && c.path === '/tts'),
      JSON.stringify(cookies),
    );
    await page.reload();
    await studioShows(page);
    log('✓ the session cookie is for /tts; a reload stays signed in');

    assert.deepEqual(outside, [], 'every request of the page stays under /tts/');
    assert.deepEqual(refused, [], 'no request of the signed-in page was refused');
    assert.deepEqual(pageErrors, [], 'no error in the page');
    log('✓ every request the page made was under /tts/, none refused once signed in, no page error');
    await context.close();

    // The same server directly (no proxy): still the studio at the root.
    const direct = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const directPage = await direct.newPage();
    const token = new URL(studio.loginUrl).searchParams.get('token')!;
    await directPage.goto(`${studio.url}/?token=${token}`);
    await studioShows(directPage);
    await nav(directPage, 'Voices').click();
    await directPage.getByLabel('Search').fill('elara');
    await directPage
      .getByRole('button', { name: 'Play a sample of Elara (en_female_elara_br)' })
      .waitFor({ timeout: 60_000 });
    const directCookies = await direct.cookies();
    assert.ok(directCookies.some((c) => c.name.startsWith('ns_session_') && c.path === '/'));
    await direct.close();
    log('✓ the same server opened directly signs in and lists voices (cookie for /)');

    // A name the server was not told about (Chromium resolves *.localhost to 127.0.0.1): a page
    // saying what to set, in the browser's language first, not a blank page.
    for (const [locale, first] of [
      ['en-US', 'does not answer to the name'],
      ['vi-VN', 'Máy chủ này không nhận tên'],
    ] as const) {
      const other = await browser.newContext({ viewport: { width: 900, height: 640 }, locale });
      const refusedPage = await other.newPage();
      const answer = await refusedPage.goto(`http://studio.localhost:${new URL(studio.url).port}/`);
      assert.equal(answer?.status(), 403);
      const text = await refusedPage.locator('body').innerText();
      assert.match(text, /--allowed-host studio\.localhost/);
      assert.match(text, new RegExp(`--public-url http://studio\\.localhost:${new URL(studio.url).port}`));
      assert.ok(text.indexOf(first) >= 0 && text.indexOf(first) < text.length / 2, `${locale}: ${text}`);
      await refusedPage.screenshot({ path: join(shots, `host-refused-${locale}.png`) });
      await other.close();
      log(
        `✓ ${locale}: a refused Host shows a page naming --allowed-host and --public-url (${locale} first)`,
      );
    }
  } finally {
    await browser.close();
    await nginx?.close();
    await studio?.stop();
  }
}
