/**
 * The first run, in a real browser against the real headless server, from fresh data and
 * settings folders: the studio offers natural voices (the browser's language and Vietnamese
 * ticked, each pack with its size, licence and source); Vietnamese alone is downloaded from a
 * local mirror with visible progress and installed; after a reload nothing is offered again. A
 * second fresh install is skipped (the Skip button), a third with Escape: neither offers again
 * after a reload. A fourth, whose mirror cannot be reached, shows the sentence saying so and
 * how to import instead, in the offer and in the Voice library. The third is in Vietnamese (interface
 * and browser): its offer is read with the `vietnamese` suite's judge (no English word in its
 * text, titles, aria names, placeholders; each label contained in its accessible name); so is a
 * fifth's, whose mirror cannot be reached, the dialog saying its voices were not downloaded.
 *
 * The catalogue is the real one, except that its Vietnamese default pack is a synthetic one
 * that speaks (test/fixtures/neural-pack.ts) served by the mirror; the other packs are listed
 * with their real sizes and licences and never downloaded.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page, Response } from 'playwright-core';
import vi from '../../renderer/src/i18n/messages/vi.json';
import { readSettings } from '../../electron/core/platform/settings-store';
import { CATALOGUE } from '../../electron/core/voices/catalogue';
import { cannotReachMessage } from '../../electron/core/voices/download';
import { englishProblems, labelNotInName, type NamedControl, type SeenText } from '../fixtures/english-words';
import { speakingPiperPack } from '../fixtures/neural-pack';
import { VoiceMirror } from '../fixtures/voice-mirror';
import { seenScript } from './every-view-vietnamese';
import { launchBrowser, nav, startStudio, type Studio } from './harness';
import { animationsDone, settled } from './waits';

const VI_PACK = speakingPiperPack('vi_VN-vais1000-medium', { cardBytes: 1_000_000 });
const VI_ID = VI_PACK.entry.id;
/** The last and largest file of the pack (1 MB): paused half-way by the mirror, so the bar stands half-way. */
const VI_CARD = VI_PACK.entry.files.find((f) => f.role === 'card')!.url;
const OFFER_TITLE = 'Natural voices for your languages';

/** `docs/screenshots` (or another folder) to save the offer's screenshots in; none when undefined. */
export async function runFirstRunE2e(log: (line: string) => void, screenshotDir?: string): Promise<void> {
  const mirror = await VoiceMirror.start();
  mirror.serve(VI_PACK);
  const work = mkdtempSync(join(tmpdir(), 'first-run-e2e-'));
  const catalogue = join(work, 'catalogue.json');
  writeFileSync(catalogue, JSON.stringify([VI_PACK.entry, ...CATALOGUE.filter((e) => e.id !== VI_ID)]));
  const studios: Studio[] = [];
  const start = async (voiceMirror: string) => {
    const studio = await startStudio(['--voice-mirror', voiceMirror, '--voice-catalogue', catalogue], {
      firstRun: true,
    });
    studios.push(studio);
    return studio;
  };
  const browser = await launchBrowser();
  try {
    await downloadVietnamese(browser, await start(mirror.url), mirror, log, screenshotDir);
    await skipped(browser, await start(mirror.url), 'Skip', log);
    await skipped(browser, await start(mirror.url), 'Escape', log);
    const unreachable = await closedHost();
    await offline(browser, await start(`http://${unreachable}`), unreachable, log, screenshotDir);
    await offlineInVietnamese(browser, await start(`http://${unreachable}`), unreachable, log);
  } finally {
    await browser.close();
    mirror.release();
    await mirror.close();
    for (const studio of studios) await studio.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

/** `127.0.0.1:<port>` where nothing listens (a server was started there and closed). */
async function closedHost(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `127.0.0.1:${port}`;
}

/** The offer's dialog (its title in the interface's language). */
const offerDialog = (page: Page, title = OFFER_TITLE): Locator => page.getByRole('dialog', { name: title });

/** The first-run answer in the studio's settings file, as the app reads it (no file: pending). */
const storedAnswer = (studio: Studio) => readSettings(studio.settingsDir).firstRunVoiceOffer;

/** Signs in (or reloads) and waits until the studio has read its settings and voice packs. */
async function openStudio(page: Page, url: string | null): Promise<void> {
  const read = (path: string) => (r: Response) => new URL(r.url()).pathname === path && r.ok();
  const settings = page.waitForResponse(read('/api/v1/settings'));
  const packs = page.waitForResponse(read('/api/v1/voice-packs'));
  if (url) await page.goto(url);
  else await page.reload();
  await Promise.all([settings, packs]);
  // The offer opens in the render after both answers arrived (their bodies read, nothing in flight).
  await settled(page);
}

/** No offer after a reload (the answer was remembered); the reload stays on its view's address. */
async function assertNoOfferAfterReload(page: Page): Promise<void> {
  await openStudio(page, null);
  await nav(page, 'Studio').waitFor();
  assert.equal(await page.getByRole('dialog').count(), 0, 'no dialog is open after the reload');
}

async function newPage(browser: Browser, locale: string, interfaceLanguage: 'en' | 'vi' = 'en') {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale,
    colorScheme: 'light',
    deviceScaleFactor: 1,
  });
  // The browser's language picks the ticked languages; the interface is English, which the
  // assertions read, except in the pass that judges the offer in Vietnamese.
  await context.addInitScript(
    (language) => localStorage.setItem('narration-studio.locale', JSON.stringify(language)),
    interfaceLanguage,
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors };
}

async function downloadVietnamese(
  browser: Browser,
  studio: Studio,
  mirror: VoiceMirror,
  log: (line: string) => void,
  screenshotDir: string | undefined,
): Promise<void> {
  // A French browser: French and Vietnamese are ticked at first.
  const { page, errors } = await newPage(browser, 'fr-FR');
  await openStudio(page, studio.loginUrl);
  const dialog = offerDialog(page);
  await dialog.waitFor();
  const box = (name: string) => dialog.getByRole('checkbox', { name, exact: true });
  assert.equal(await box('Vietnamese').isChecked(), true, 'Vietnamese is ticked');
  assert.equal(await box('French').isChecked(), true, "the browser's language is ticked");
  assert.equal(await box('English').isChecked(), false);
  assert.equal(await box('Korean').isDisabled(), true, 'Korean has no natural voice');
  // Each chosen language's pack, once: the default assignment's, with its size, licence and source.
  const packsList = dialog.getByRole('list', { name: 'To download' });
  const packItem = (id: string) => packsList.getByRole('listitem', { name: `Voice pack ${id}` });
  assert.equal(await packsList.getByRole('listitem').count(), 2);
  const vietnamese = packItem(VI_ID);
  await vietnamese.getByText(/^Piper, medium quality · for Vietnamese$/).waitFor();
  await vietnamese.getByText(/^\d+([.,]\d)? (kB|MB)$/).waitFor();
  await vietnamese.getByText(/^Licence: CC-BY-4\.0/).waitFor();
  const source = vietnamese.getByRole('link', { name: 'example.invalid/vi_VN-vais1000-medium' });
  assert.equal(await source.getAttribute('href'), VI_PACK.entry.source_url);
  const kokoro = packItem('kokoro-v1.0-q8');
  // Sizes are written in the browser's language: "110,5 MB" in Vietnamese.
  await kokoro.getByText(/^110[.,]5 MB$/).waitFor();
  await kokoro.getByText(/^Kokoro, high quality · for French$/).waitFor();
  await kokoro.getByText(/^Licence: Apache-2\.0/).waitFor();
  await kokoro.getByRole('link', { name: 'huggingface.co/onnx-community/Kokoro-82M-v1.0-ONNX' }).waitFor();
  await dialog.getByText(/^2 voice packs, \d+[.,]\d MB in all\.$/).waitFor();
  // English shares French's pack: ticking it adds a language to that pack, not a download.
  await box('English').check();
  await kokoro.getByText(/^Kokoro, high quality · for English, French$/).waitFor();
  assert.equal(await packsList.getByRole('listitem').count(), 2);
  await box('English').uncheck();
  if (screenshotDir) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await animationsDone(page);
      const path = join(screenshotDir, `first-run-offer-${scheme}.png`);
      await page.screenshot({ path });
      log(`  screenshot: ${path}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  // Focus is inside the dialog and stays there.
  const focusInside = () => page.evaluate(() => document.activeElement?.closest('dialog') !== null);
  assert.equal(await focusInside(), true, 'the dialog has the focus when it opens');
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    const where = await page.evaluate(() => {
      const active = document.activeElement;
      return active === document.body || active === null
        ? 'none'
        : active.closest('dialog')
          ? 'dialog'
          : 'page';
    });
    assert.notEqual(where, 'page', `Tab ${i + 1} leaves the dialog`);
  }
  log(
    '✓ a fresh install offers natural voices: browser language and Vietnamese ticked, size, licence, source',
  );

  await box('French').uncheck();
  await dialog.getByText(/^1 voice pack, [\d.,]+ (kB|MB) in all\.$/).waitFor();
  mirror.fault(VI_CARD, { kind: 'pause', afterBytes: 500_000 });
  await dialog.getByRole('button', { name: 'Download', exact: true }).click();
  const downloading = page.getByRole('dialog', { name: 'Downloading natural voices' });
  const bar = downloading.getByRole('progressbar', { name: `Download progress of ${VI_ID}` });
  await bar.waitFor({ timeout: 60_000 });
  await mirror.whenHeld();
  // The model, the config and half the card are in: the bar stands between 0 and 100.
  await downloading.getByText(/^Downloading… [\d.]+ kB of [\d.]+ kB$/).waitFor();
  await page.waitForFunction(
    (name) => {
      const el = document.querySelector(`[role="progressbar"][aria-label="${name}"]`);
      const now = Number(el?.getAttribute('aria-valuenow'));
      return now > 0 && now < 100;
    },
    `Download progress of ${VI_ID}`,
    { timeout: 60_000 },
  );
  const percent = await bar.getAttribute('aria-valuenow');
  await animationsDone(page); // the bar's width transition
  assert.equal(storedAnswer(studio), 'accepted', 'the answer is stored when the download starts');
  if (screenshotDir) {
    const path = join(screenshotDir, 'first-run-downloading.png');
    await page.screenshot({ path });
    log(`  screenshot: ${path}`);
  }
  mirror.fault(VI_CARD, null);
  mirror.release();
  const done = page.getByRole('dialog', { name: 'Natural voices installed' });
  await done.getByText('installed', { exact: true }).waitFor({ timeout: 60_000 });
  log(`✓ Vietnamese downloaded from the local mirror with visible progress (${percent} % while held)`);
  await done.getByRole('button', { name: 'Done' }).click();
  assert.equal(await page.getByRole('dialog').count(), 0);
  await nav(page, 'Voice library').click();
  const card = page.getByRole('listitem', { name: `Voice pack ${VI_ID}` });
  await card.getByText('installed', { exact: true }).waitFor();
  log('✓ the pack is installed (the Voice library says so)');

  await assertNoOfferAfterReload(page);
  assert.deepEqual(errors, []);
  log('✓ after a reload the offer does not come back');
  await page.context().close();
}

async function skipped(
  browser: Browser,
  studio: Studio,
  how: 'Skip' | 'Escape',
  log: (line: string) => void,
): Promise<void> {
  // Escape is pressed in a Vietnamese interface, whose offer is judged first.
  const language = how === 'Escape' ? 'vi' : 'en';
  const { page, errors } = await newPage(browser, 'vi-VN', language);
  await openStudio(page, studio.loginUrl);
  const dialog = offerDialog(page, language === 'vi' ? vi['firstRun.title'] : OFFER_TITLE);
  await dialog.waitFor();
  if (language === 'vi') await assertOfferInVietnamese(page, log);
  else {
    assert.equal(await dialog.getByRole('checkbox', { name: 'Vietnamese', exact: true }).isChecked(), true);
    assert.equal(await dialog.getByRole('checkbox', { name: 'English', exact: true }).isChecked(), false);
  }
  assert.equal(storedAnswer(studio), 'pending');
  if (how === 'Skip') await dialog.getByRole('button', { name: 'Skip' }).click();
  else await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(storedAnswer(studio), 'skipped');
  await assertNoOfferAfterReload(page);
  assert.deepEqual(errors, []);
  log(
    `✓ ${how === 'Skip' ? 'Skip' : 'Escape'} on a second fresh install: remembered, no offer after a reload`,
  );
  await page.context().close();
}

/**
 * The open dialog in a Vietnamese interface, read as the `vietnamese` suite reads a dialog: no
 * English word in what it shows (text, titles, aria names, placeholders), each label contained in
 * its accessible name. How many pieces of text it read.
 */
async function assertDialogInVietnamese(page: Page, where: string): Promise<number> {
  await page.waitForFunction(() => document.documentElement.lang === 'vi');
  const { seen, controls } = (await page.evaluate(seenScript('dialog[open]'))) as {
    seen: SeenText[];
    controls: NamedControl[];
  };
  assert.ok(seen.length > 5, `${where} has text to read (${seen.length} pieces)`);
  assert.deepEqual([...englishProblems(where, seen), ...labelNotInName(where, controls)], []);
  return seen.length;
}

/** The open offer in a Vietnamese interface: judged, and Vietnamese ticked (named in Vietnamese). */
async function assertOfferInVietnamese(page: Page, log: (line: string) => void): Promise<void> {
  const pieces = await assertDialogInVietnamese(page, 'first-run offer (vi)');
  const ticked = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLInputElement>('dialog[open] input[type=checkbox]:checked')].map(
      (box) => box.labels?.[0]?.textContent ?? '',
    ),
  );
  assert.deepEqual(ticked, ['Tiếng Việt'], 'Vietnamese is ticked, named in Vietnamese');
  log(`✓ the offer in Vietnamese: ${pieces} pieces of text, no English word, labels in names`);
}

/**
 * An unreachable mirror in a Vietnamese interface: the dialog saying some voices were not
 * downloaded is Vietnamese too, its sentence the offline one written from the error's host.
 */
async function offlineInVietnamese(
  browser: Browser,
  studio: Studio,
  host: string,
  log: (line: string) => void,
): Promise<void> {
  const { page, errors } = await newPage(browser, 'vi-VN', 'vi');
  await openStudio(page, studio.loginUrl);
  const dialog = offerDialog(page, vi['firstRun.title']);
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Tải xuống', exact: true }).click();
  const failed = page.getByRole('dialog', { name: vi['firstRun.someFailed'] });
  const alert = failed.getByRole('alert');
  await alert.waitFor({ timeout: 60_000 });
  assert.equal(await alert.textContent(), vi['errors.download.offline'].replace('{host}', host));
  const pieces = await assertDialogInVietnamese(page, 'first-run failed download (vi)');
  assert.deepEqual(errors, []);
  log(`✓ an unreachable mirror in Vietnamese: ${pieces} pieces of text, no English word, labels in names`);
  await page.context().close();
}

async function offline(
  browser: Browser,
  studio: Studio,
  host: string,
  log: (line: string) => void,
  screenshotDir: string | undefined,
): Promise<void> {
  const { page, errors } = await newPage(browser, 'vi-VN');
  await openStudio(page, studio.loginUrl);
  const dialog = offerDialog(page);
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Download', exact: true }).click();
  const failed = page.getByRole('dialog', { name: 'Some voices were not downloaded' });
  const alert = failed.getByRole('alert');
  await alert.waitFor({ timeout: 60_000 });
  assert.equal(await alert.textContent(), cannotReachMessage(host));
  await failed.getByText('not downloaded', { exact: true }).waitFor();
  if (screenshotDir) {
    const path = join(screenshotDir, 'first-run-offline.png');
    await page.screenshot({ path });
    log(`  screenshot: ${path}`);
  }
  log('✓ an unreachable mirror: the offer says so in one sentence, with how to import instead');
  await failed.getByRole('button', { name: 'Open the Voice library' }).click();
  await page.getByRole('heading', { name: 'Voice library' }).waitFor();
  const card = page.getByRole('listitem', { name: `Voice pack ${VI_ID}` });
  await card.getByText(cannotReachMessage(host), { exact: true }).waitFor();
  assert.deepEqual(errors, []);
  log('✓ the Voice library shows the same sentence on the pack');
  await page.context().close();
}
