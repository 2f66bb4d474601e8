/**
 * A sign-in that lasts, in Chromium against the real headless server: signed in, the server is
 * stopped and started again on the same data folder (it listens on the same port, its last
 * one): a reload is still signed in. Credits added on the API page show in the sidebar's
 * balance. Revoking the studio's own key asks first in a dialog of the page (English and
 * Vietnamese) that says it signs out and that the balance moves; then the sign-in page says why
 * it is shown, and the next sign-in has the same balance on a new studio key. Signed out, then
 * restarted: a reload shows the sign-in page, whose wording fits `npm start` and `serve`.
 * Screenshots of the API page's credit form and of the revoke dialog (en and vi), light and dark.
 */

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { findFreePort, LAST_PORT_FILE } from '../../electron/core/platform/ports';
import vi from '../../renderer/src/i18n/messages/vi.json';
import { launchBrowser, nav, openVietnamese, startStudio, type Studio } from './harness';
import { animationsDone } from './waits';

const SIGN_IN_HEADING = 'Sign in to Narration Studio';

/** The sidebar's balance, in credits. */
async function sidebarBalance(page: Page): Promise<number> {
  const text = await page.locator('.sidebar-foot b').innerText();
  return Number(text.replace(/\D/g, ''));
}

async function signedIn(page: Page): Promise<void> {
  await nav(page, 'API').waitFor({ timeout: 30_000 });
  assert.equal(await page.getByRole('heading', { name: SIGN_IN_HEADING }).count(), 0);
}

/** Screenshots of the page with its open revoke dialog, light and dark, as `<name>-<scheme>.png`. */
async function shootBothSchemes(page: Page, dir: string, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction(
      (dark) => matchMedia('(prefers-color-scheme: dark)').matches === dark,
      scheme === 'dark',
    );
    await page.screenshot({ path: join(dir, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** `docs/screenshots` (or another folder) for the credit form's screenshots; none when undefined. */
export async function runSignInLastsE2e(log: (line: string) => void, screenshotDir?: string): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'sign-in-lasts-e2e-'));
  const dataDir = join(work, 'data');
  const settingsDir = join(work, 'settings');
  mkdirSync(dataDir);
  mkdirSync(settingsDir);
  // Below Linux's ephemeral ports (32768 up), which other tests' connections and port-0 servers take.
  const port = await findFreePort(20_000 + Math.floor(Math.random() * 12_000));
  writeFileSync(join(dataDir, LAST_PORT_FILE), JSON.stringify({ port }));
  // Kept after the run (outside the work folder), to be looked at.
  const shots = screenshotDir ?? join(tmpdir(), 'sign-in-lasts-shots');
  mkdirSync(shots, { recursive: true });

  /** `serve` without --port on the same folders: it takes the data folder's last port. */
  const serve = (data: string, settings: string) =>
    startStudio([], { folders: { dataDir: data, settingsDir: settings }, lastPort: true, poolSize: 1 });
  let server: Studio | undefined;
  const browser = await launchBrowser();
  try {
    server = await serve(dataDir, settingsDir);
    assert.equal(server.url, `http://127.0.0.1:${port}`);
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      colorScheme: 'light',
    });
    const page = await context.newPage();
    await page.goto(server.loginUrl);
    await signedIn(page);
    log('✓ signed in with the printed address');

    await server.stop();
    server = await serve(dataDir, settingsDir);
    assert.equal(server.url, `http://127.0.0.1:${port}`, 'the restarted server listens on the same port');
    await page.reload();
    await signedIn(page);
    log('✓ after a restart on the same data folder (same port), a reload is still signed in');

    // Credits on the API page: the sidebar's balance follows.
    await nav(page, 'API').click();
    const form = page.getByRole('form', { name: 'Add credits' });
    await form.waitFor();
    const before = await sidebarBalance(page);
    await form.getByLabel('Credits').fill('2.5');
    await form.getByText('Enter a whole number of credits above 0.').waitFor();
    assert.equal(await form.getByRole('button', { name: 'Add credits' }).isDisabled(), true);
    await form.getByLabel('Credits').fill('1500');
    await form.scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await animationsDone(page);
      await page
        .locator('.panel', { has: form })
        .screenshot({ path: join(shots, `api-credits-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await form.getByRole('button', { name: 'Add credits' }).click();
    await form.getByRole('status').filter({ hasText: 'Added 1,500 credits' }).waitFor();
    await page.waitForFunction(
      (expected) => document.querySelector('.sidebar-foot b')?.textContent?.replace(/\D/g, '') === expected,
      String(before + 1500),
    );
    assert.equal(await sidebarBalance(page), before + 1500);
    log(`✓ 1,500 credits added on the API page: the sidebar shows ${before} → ${before + 1500}`);

    // Revoking the studio's own key: first the question, in Vietnamese (cancelled)…
    const balance = before + 1500;
    const vietnamese = await openVietnamese(browser, server.loginUrl);
    await vietnamese.page.goto(`${server.url}/#/api`);
    await vietnamese.page
      .getByRole('button', { name: new RegExp(`^${vi['api.keys.revoke.label'].split(' {')[0]} Studio`) })
      .click();
    const viDialog = vietnamese.page.getByRole('dialog', { name: vi['api.keys.revoke.studio.title'] });
    await viDialog.waitFor();
    const viText = await viDialog.innerText();
    assert.match(viText, /đăng xuất studio ngay/);
    assert.equal(/(\S+) tín dụng còn lại/.exec(viText)?.[1]?.replace(/\D/g, ''), String(balance));
    await shootBothSchemes(vietnamese.page, shots, 'api-revoke-studio-key-vi');
    await viDialog.getByRole('button', { name: vi['common.cancel'], exact: true }).click();
    await viDialog.waitFor({ state: 'hidden' });
    assert.deepEqual(vietnamese.pageErrors, []);
    await vietnamese.context.close();
    log('✓ revoking the studio’s key asks in Vietnamese: it signs out, the balance moves (cancelled)');

    // …then in English, confirmed: the studio signs out and the sign-in page says why.
    await page.reload();
    await signedIn(page);
    await nav(page, 'API').click();
    await page.getByRole('button', { name: /^Revoke key Studio/ }).click();
    const dialog = page.getByRole('dialog', { name: "Revoke the studio's key?" });
    await dialog.waitFor();
    const text = await dialog.innerText();
    assert.match(text, /Revoking it signs the studio out at once/);
    assert.equal(
      /the (\S+) credits left on this one move to it/.exec(text)?.[1]?.replace(/\D/g, ''),
      String(balance),
    );
    await shootBothSchemes(page, shots, 'api-revoke-studio-key');
    await dialog.getByRole('button', { name: 'Revoke and sign out' }).click();
    await page.getByRole('heading', { name: SIGN_IN_HEADING }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: "You revoked the studio's key, so the studio signed out." })
      .waitFor();
    log('✓ revoked from its own dialog: the sign-in page says the studio’s key was revoked');
    // The next sign-in: a new studio key with the balance the revoked one had left.
    await page.goto(server.loginUrl);
    await signedIn(page);
    await page.waitForFunction(
      (expected) => document.querySelector('.sidebar-foot b')?.textContent?.replace(/\D/g, '') === expected,
      String(balance),
    );
    await nav(page, 'API').click();
    const keys = page.getByRole('table', { name: 'API keys' });
    await keys
      .getByRole('row', { name: /Studio/ })
      .filter({ hasText: 'revoked' })
      .waitFor();
    await keys
      .getByRole('row', { name: /Studio/ })
      .filter({ hasText: 'studio' })
      .filter({ hasNotText: 'revoked' })
      .waitFor();
    log(`✓ signed in again: a new studio key with the ${balance} credits the revoked one had left`);

    // Signed out, then restarted: signed out for good.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: SIGN_IN_HEADING }).waitFor();
    await server.stop();
    server = await serve(dataDir, settingsDir);
    await page.reload();
    await page.getByRole('heading', { name: SIGN_IN_HEADING }).waitFor({ timeout: 30_000 });
    const wording = await page.locator('main.signin').innerText();
    assert.match(wording, /npm start/);
    assert.match(wording, /npm run serve/);
    assert.doesNotMatch(wording, /the address that serve printed/);
    log('✓ signed out, then restarted: the sign-in page, naming npm start and npm run serve');
    await context.close();
  } finally {
    await browser.close();
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
