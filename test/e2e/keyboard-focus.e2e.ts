/**
 * The studio by keyboard alone, and where the focus goes after each action: the first-run
 * offer closed by Escape; in the workbench, "Add to the comparison" several times, "Speak with N
 * voices" and blind A/B votes; in Projects, a new project's form (Escape, then Enter), a
 * manuscript imported, "Render whole book", Rename (Escape), the inline delete (Escape, then Delete); in the
 * Lexicon, "Add entry" (its form takes the focus, Escape closes it), an entry saved, its removal
 * asked in a dialog (Escape, then Remove). Only page.keyboard moves the focus and acts (Tab,
 * Shift+Tab, Enter, arrows, Escape; the file chooser is answered as a person would); after each
 * action the focus is on the expected control, never the page's body. A busy button that keeps
 * its focus (aria-disabled, aria-busy) is screenshot in both themes.
 */

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expectFocus, focused, tabTo } from './focus';
import { launchBrowser, startStudio, startVoiceMirror } from './harness';

const SHOTS = join(process.cwd(), 'docs/screenshots');
const MANUSCRIPT = join(process.cwd(), 'test/fixtures/real-manuscripts/pandoc-fb2-reader-poem.fb2');

/** The focused button's aria-disabled and aria-busy. */
const states = (page: Page) =>
  page.evaluate(() => ({
    disabled: document.activeElement?.getAttribute('aria-disabled') ?? null,
    busy: document.activeElement?.getAttribute('aria-busy') ?? null,
  }));

export async function runKeyboardFocusE2e(log: (line: string) => void): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const voiceMirror = await startVoiceMirror();
  // The first-run offer is left unanswered: it is the first thing walked.
  const studio = await startStudio(voiceMirror.args, { firstRun: true });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      colorScheme: 'light',
    });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    // The file chooser answered as a person would (listened for from the start: Playwright
    // intercepts the chooser only once the browser has been told, which takes a round trip).
    page.on('filechooser', (chooser) => void chooser.setFiles(MANUSCRIPT));
    await page.goto(studio.loginUrl);

    // The first-run offer: Escape skips it, and the focus goes to the view.
    const offer = page.getByRole('dialog', { name: 'Natural voices for your languages' });
    await offer.waitFor();
    await page.keyboard.press('Escape');
    await offer.waitFor({ state: 'hidden' });
    await expectFocus(page, /^main /, 'Escape on the first-run offer');
    log('✓ first-run offer: Escape closes it and the focus is on the view (main), not the body');

    await walkWorkbench(page, log);
    await walkProjects(page, log);
    await walkLexicon(page, log);
    assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
  } finally {
    await browser.close();
    await studio.stop();
    await voiceMirror.close();
  }
}

async function walkWorkbench(page: Page, log: (line: string) => void): Promise<void> {
  await tabTo(page, /^a Voices$/);
  await page.keyboard.press('Enter');
  await page.getByRole('region', { name: 'Voice workbench' }).waitFor();
  const cards = page.getByRole('list', { name: 'Voices to compare' }).getByRole('listitem');

  // A short sentence, typed: the voices speak it quickly.
  await tabTo(page, /^textarea Your sentence$/);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('One short line.');

  // Add to the comparison, three times: the voice in use, then the next two of the picker.
  await tabTo(page, /^button Add to the comparison$/);
  for (let n = 1; n <= 3; n++) {
    if (n > 1) {
      await tabTo(page, /^select Voice to compare$/, { back: true });
      await page.keyboard.press('ArrowDown');
      await tabTo(page, /^button Add to the comparison$/);
    }
    await page.keyboard.press('Enter');
    await cards.nth(n - 1).waitFor();
    await expectFocus(page, /^button Add to the comparison$/, `Add to the comparison #${n}`);
    assert.equal(
      (await states(page)).disabled,
      'true',
      'the added voice cannot be added twice: aria-disabled',
    );
  }
  assert.equal(await cards.count(), 3, 'three voices queued');
  log('✓ workbench: 3 × "Add to the comparison" by Enter; the focus stays on the button (aria-disabled)');

  // Speak with 3 voices: busy under the focus, which stays when the figures arrive. The first
  // audition is held until the busy button is screenshot in both themes.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/voices/*/audition*', async (route) => {
    await held;
    await route.continue();
  });
  await tabTo(page, /^button Speak with 3 voices$/);
  await page.keyboard.press('Enter');
  await expectFocus(page, /^button Speaking…$/, 'Speak with 3 voices, while speaking');
  assert.deepEqual(await states(page), { disabled: 'true', busy: 'true' }, 'busy and unavailable, focused');
  const actions = page.locator('.workbench-actions');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
    // A margin around the row, so that the focus ring outside the button shows.
    const box = (await actions.boundingBox())!;
    await page.screenshot({
      path: join(SHOTS, `busy-button-${scheme}.png`),
      clip: { x: box.x - 8, y: box.y - 8, width: box.width + 16, height: box.height + 16 },
    });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  release();
  await page.getByRole('status').filter({ hasText: 'Spoken by 3 voices.' }).waitFor({ timeout: 60_000 });
  await page.unroute('**/api/v1/voices/*/audition*');
  await expectFocus(page, /^button Speak with 3 voices$/, 'Speak with 3 voices, once spoken');
  log('✓ workbench: "Speak with 3 voices" keeps the focus while busy (aria-busy) and after');

  // Blind A/B: two voices chosen by arrows, a round started, two votes.
  const blind = page.getByRole('region', { name: 'Blind A/B test' });
  await tabTo(page, /^select First voice$/);
  await page.keyboard.press('ArrowDown');
  await tabTo(page, /^select Second voice$/);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await tabTo(page, /^button Start a blind round$/);
  await page.keyboard.press('Enter');
  const round = blind.getByRole('group', { name: 'Blind round' });
  for (const [n, vote] of [
    [1, 'A is better'],
    [2, 'No difference'],
  ] as const) {
    await round.getByText('Hidden voice').first().waitFor({ timeout: 60_000 });
    await expectFocus(page, /^button New round$/, `blind round ${n} ready`);
    await tabTo(page, new RegExp(`^button ${vote}$`));
    await page.keyboard.press('Enter');
    await round.getByRole('status').waitFor();
    await expectFocus(page, /^button New round$/, `blind vote ${n} (${vote})`);
    if (n === 1) await page.keyboard.press('Enter');
  }
  log('✓ workbench: two blind A/B votes by Enter; after each the focus is on "New round"');
}

async function walkProjects(page: Page, log: (line: string) => void): Promise<void> {
  await tabTo(page, /^(a|button) Projects$/, { back: true });
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();

  // A new project's form: focus in, Escape back to its button, then created by Enter.
  await tabTo(page, /^button New project$/);
  await page.keyboard.press('Enter');
  await expectFocus(page, /^input Title$/, 'New project opens its form');
  await page.keyboard.press('Escape');
  await expectFocus(page, /^button New project$/, 'Escape on the new project form');
  await page.keyboard.press('Enter');
  await expectFocus(page, /^input Title$/, 'New project again');
  await page.keyboard.type('Keyboard book');
  await page.keyboard.press('Enter');
  await expectFocus(
    page,
    /^h1 Keyboard book$/,
    'a project created by Enter opens with the focus on it',
    15_000,
  );
  log(
    '✓ projects: the new project form takes the focus, Escape gives it back, Enter opens the project on its heading',
  );

  // Back to the list; a manuscript imported by the keyboard (the file chooser answered).
  await tabTo(page, /^(a|button) Projects$/, { back: true });
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
  await tabTo(page, /^button Import manuscript…$/);
  await page.keyboard.press('Enter');
  const opened = await expectFocus(page, /^h1 /, 'an imported manuscript opens with the focus on it', 30_000);
  const title = opened.what.slice('h1 '.length);
  log(`✓ projects: a manuscript imported by Enter opens "${title}" with the focus on its heading`);

  // Render whole book: busy under the focus, which stays when it is done.
  await tabTo(page, /^button Render whole book$/);
  await page.keyboard.press('Enter');
  await expectFocus(page, /^button Render whole book$/, 'Render whole book, right after Enter');
  await page
    .locator('.render-status [role="status"]')
    .getByText('done', { exact: true })
    .waitFor({ timeout: 120_000 });
  await expectFocus(page, /^button Render whole book$/, 'Render whole book, once rendered');
  log('✓ projects: "Render whole book" keeps the focus right after Enter and once rendered');

  // Rename and the inline delete: the field or the question takes the focus (Keep, the safe
  // answer), Escape gives it back, Delete leaves it on the list's heading.
  await tabTo(page, /^(a|button) Projects$/, { back: true });
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
  const escaped = title.slice(0, 30).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Rename: the field takes the focus, Escape gives it back to Rename.
  await tabTo(page, new RegExp(`^button Rename ${escaped}`));
  await page.keyboard.press('Enter');
  await expectFocus(page, new RegExp(`^input New title for ${escaped}`), 'Rename opens its field');
  await page.keyboard.press('Escape');
  await expectFocus(page, new RegExp(`^button Rename ${escaped}`), 'Escape on the rename field');
  const deleteLabel = new RegExp(`^button Delete ${escaped}`);
  await tabTo(page, deleteLabel);
  await page.keyboard.press('Enter');
  await expectFocus(page, /^button Keep$/, 'Delete asks, its focus on Keep');
  await page.keyboard.press('Escape');
  await expectFocus(page, deleteLabel, 'Escape on the delete question');
  await page.keyboard.press('Enter');
  await expectFocus(page, /^button Keep$/, 'Delete asks again');
  await page.keyboard.press('Shift+Tab');
  await expectFocus(page, /^button Delete$/, 'Shift+Tab to Delete');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: title, exact: true }).waitFor({ state: 'detached' });
  await expectFocus(page, /^h1 Projects$/, 'a deleted project leaves the focus on the list heading');
  log(
    '✓ projects: Rename and the inline delete take the focus in (Keep first), Escape gives it back, Delete leaves it on "Projects"',
  );
}

async function walkLexicon(page: Page, log: (line: string) => void): Promise<void> {
  await tabTo(page, /^a Lexicon$/, { back: true });
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Lexicon', exact: true }).waitFor();
  const form = page.getByRole('form', { name: 'New lexicon entry' });

  await tabTo(page, /^button Add entry$/);
  await page.keyboard.press('Enter');
  await form.waitFor();
  const inside = await focused(page);
  assert.ok(
    await form.evaluate((f) => f.contains(document.activeElement)),
    `Add entry moves the focus into its form (${inside.what})`,
  );
  await page.keyboard.press('Escape');
  await form.waitFor({ state: 'detached' });
  await expectFocus(page, /^button Add entry$/, 'Escape on the new entry form');
  log(`✓ lexicon: "Add entry" takes the focus into its form (${inside.what}); Escape closes it, focus back`);

  await page.keyboard.press('Enter');
  await tabTo(page, /^input Word or phrase$/);
  await page.keyboard.type('Nguyen');
  // The kind's radio (checked: Respelling), then the respelling's own field.
  await tabTo(page, /^input Respelling$/);
  await tabTo(page, /^input Respelling$/);
  assert.equal(await page.evaluate(() => (document.activeElement as HTMLInputElement).type), 'text');
  await page.keyboard.type('Nwen');
  await tabTo(page, /^button Add to lexicon$/);
  await page.keyboard.press('Enter');
  await form.waitFor({ state: 'detached' });
  await page.getByRole('status').filter({ hasText: 'Added “Nguyen”.' }).waitFor();
  await expectFocus(page, /^button Add entry$/, 'an entry added');
  log('✓ lexicon: an entry saved by Enter; the focus goes back to "Add entry"');

  // Its removal is asked in a dialog: Escape keeps it (focus back), Remove removes it.
  const question = page.getByRole('dialog', { name: 'Remove the pronunciation of “Nguyen”?' });
  await tabTo(page, /^button Remove Nguyen$/);
  await page.keyboard.press('Enter');
  await question.waitFor();
  await expectFocus(page, /^button Cancel$/, 'the removal question, its focus on Cancel');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
    await page.screenshot({ path: join(SHOTS, `lexicon-remove-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.keyboard.press('Escape');
  await question.waitFor({ state: 'hidden' });
  await expectFocus(page, /^button Remove Nguyen$/, 'Escape on the removal question');
  await page.keyboard.press('Enter');
  await question.waitFor();
  await tabTo(page, /^button Remove$/);
  await page.keyboard.press('Enter');
  await page.getByRole('cell', { name: 'Nguyen', exact: true }).waitFor({ state: 'detached' });
  await expectFocus(page, /^h1 Lexicon$/, 'an entry removed');
  log(
    '✓ lexicon: removing asks in a dialog (Cancel focused, Escape gives the focus back); once removed, focus on "Lexicon"',
  );
}
