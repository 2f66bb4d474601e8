/**
 * One keyboard map and addresses people can use, in a real browser against the real server and
 * eSpeak: Ctrl+Enter generates from the Studio's Speed, Pitch and Volume boxes with the value just
 * typed (one POST each), renders the open chapter from a field of a project, and speaks in the
 * workbench; `?` opens the keyboard shortcuts (not while typing), in English and Vietnamese, with
 * the focus in it and, after Escape, back on what opened it; the sidebar's entries are links to
 * each view's address, and a middle click opens the view in a new tab; the document title names
 * the view (and the open project) in both languages, Chromium's history entries keep each its
 * own (its Back menu), and Back brings the previous one back; the dialog passes axe.
 * Screenshots of the dialog, English and Vietnamese, light and dark, in docs/screenshots/.
 */

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { VIEWS } from '../../renderer/src/stores/ui-slice';
import { axeViolations, describeViolations } from './axe';
import { NAV_LABELS } from './every-view';
import { launchBrowser, nav, openVietnamese, startStudio } from './harness';
import { importSmallBook } from './small-windows.e2e';

const SHOTS = join(process.cwd(), 'docs/screenshots');

/** The Vietnamese names of the views, as vi.json has them. */
const VI_VIEW: Readonly<Record<string, string>> = {
  studio: 'Studio',
  library: 'Thư viện giọng đọc',
  projects: 'Dự án',
};

/** Requests of one method and path made by the page, counted as they leave, with their bodies. */
function countPosts(page: Page, path: RegExp) {
  const bodies: unknown[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && path.test(new URL(r.url()).pathname)) bodies.push(r.postDataJSON());
  });
  return bodies;
}

/** What has the focus: tag and accessible-ish name, or 'body'. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'body';
    return `${el.tagName.toLowerCase()} ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}`;
  });

/** Opens the shortcuts with `?` from what has the focus, checks the list, closes with Escape. */
async function helpByKey(page: Page, title: string, rows: string[]): Promise<string> {
  const opener = await focused(page);
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  for (const text of rows) await dialog.getByText(text, { exact: true }).waitFor();
  assert.equal((await focused(page)).startsWith('button'), true, 'the focus went into the dialog');
  assert.ok(await dialog.evaluate((d) => d.contains(document.activeElement)), 'the focus is in the dialog');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(await focused(page), opener, 'Escape closed it and the focus went back to its opener');
  return opener;
}

export async function runShortcutsE2e(log: (line: string) => void): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const studio = await startStudio();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const submits = countPosts(page, /^\/api\/v1\/tts$/);
    await page.goto(studio.loginUrl);
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();

    // Ctrl+Enter from Speed, Pitch and Volume: one request each, with the value just typed.
    await page.getByLabel('Text to speak').fill('The boats came in at dusk.');
    const generate = page.getByRole('button', { name: 'Generate', exact: true });
    for (const [label, field, value, sent] of [
      ['Speed value', 'speed_rate', '1.3', 1.3],
      ['Pitch value', 'pitch_rate', '0.8', 0.8],
      ['Volume value', 'volume', '90', 90],
    ] as const) {
      const before = submits.length;
      const box = page.getByLabel(label, { exact: true });
      await box.fill(value);
      const sentRequest = page.waitForRequest(
        (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/tts',
      );
      await box.press('Control+Enter');
      await sentRequest;
      // One request leaves; Generate is ready again once its result is in.
      await generate.and(page.locator(':not([aria-disabled="true"])')).waitFor({ timeout: 60_000 });
      assert.equal(submits.length, before + 1, `one request from the ${label} box`);
      assert.equal((submits.at(-1) as Record<string, unknown>)[field], sent, `${field} as typed`);
    }
    await page.locator('.result-region').waitFor();
    log('✓ Ctrl+Enter from the Speed, Pitch and Volume boxes generates, once each, with the value typed');

    // `?` from a button opens the shortcuts; typed into a text field it stays a question mark.
    await generate.focus();
    const opener = await helpByKey(page, 'Keyboard shortcuts', [
      'Generate',
      'Render the open chapter',
      'Speak with the voices of the comparison',
      'Show these keyboard shortcuts',
    ]);
    const editor = page.getByLabel('Text to speak');
    await editor.fill('Who is there');
    await editor.press('End');
    await editor.press('?');
    assert.equal(await editor.inputValue(), 'Who is there?', '`?` typed in the editor');
    assert.equal(await page.getByRole('dialog').count(), 0, 'no dialog while typing');
    log(
      `✓ \`?\` opens the keyboard shortcuts from ${opener}; Escape gives the focus back; typing \`?\` types it`,
    );

    // The sidebar's entry opens the same dialog, and the focus comes back to it.
    const entry = page.getByRole('button', { name: 'Keyboard shortcuts', exact: true });
    await entry.click();
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor({ state: 'hidden' });
    assert.equal(await focused(page), 'button Keyboard shortcuts');
    log('✓ the sidebar’s "Keyboard shortcuts" opens them too; Escape returns the focus to it');

    // The sidebar's entries are links to each view's address; titles name the view.
    const sidebar = page.getByRole('navigation', { name: 'Main' });
    for (const view of VIEWS) {
      const link = sidebar.getByRole('link', { name: NAV_LABELS[view], exact: true });
      assert.equal(await link.getAttribute('href'), `#/${view}`, `${view}'s link`);
      await link.click();
      await page.getByRole('heading', { name: NAV_LABELS[view], exact: true, level: 1 }).waitFor();
      assert.equal(await page.title(), `${NAV_LABELS[view]} – Narration Studio`, `${view}'s title`);
      assert.equal(await link.getAttribute('aria-current'), 'page');
    }
    log(
      `✓ the sidebar's ${VIEWS.length} entries are links (#/<view>); each view's title is "<view> – Narration Studio"`,
    );

    // A middle click opens the view in a new tab, signed in, with its title.
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      sidebar.getByRole('link', { name: 'Voice library', exact: true }).click({ button: 'middle' }),
    ]);
    await tab.getByRole('heading', { name: 'Voice library', exact: true, level: 1 }).waitFor();
    assert.equal(new URL(tab.url()).hash, '#/library');
    assert.equal(await tab.title(), 'Voice library – Narration Studio');
    assert.equal(await page.title(), 'Settings – Narration Studio', 'the first tab stayed where it was');
    await tab.close();
    log('✓ a middle click on "Voice library" opens it in a new tab, titled; the first tab stays on Settings');

    // An open project: its title first; Ctrl+Enter from its title box renders the open chapter.
    await nav(page, 'Studio').click();
    await page.waitForFunction(() => document.title === 'Studio – Narration Studio');
    const renders = countPosts(page, /^\/api\/v1\/projects\/[^/]+\/renders$/);
    await importSmallBook(page);
    await page.waitForFunction(() => document.title === 'Harbour book – Projects – Narration Studio');
    await page.getByRole('button', { name: /^1\. The harbour/ }).waitFor();
    const titleBox = page.getByLabel('Book title', { exact: true });
    await titleBox.focus();
    await titleBox.press('Control+Enter');
    const renderStatus = page.getByRole('region', { name: 'Render' }).getByRole('status');
    await renderStatus.getByText('done', { exact: true }).waitFor({ timeout: 120_000 });
    assert.equal(renders.length, 1, 'one render');
    const chapterIds = (renders[0] as { chapter_ids?: string[] }).chapter_ids;
    assert.equal(chapterIds?.length, 1, `the open chapter only: ${JSON.stringify(renders[0])}`);
    log(
      '✓ the project’s title is "Harbour book – Projects – Narration Studio"; Ctrl+Enter from its title box renders the open chapter',
    );

    // What Chromium keeps for each entry of the tab's history (its Back menu): each its own title.
    const cdp = await context.newCDPSession(page);
    const history = (await cdp.send('Page.getNavigationHistory')) as {
      currentIndex: number;
      entries: { url: string; title: string }[];
    };
    const lastThree = history.entries.slice(history.currentIndex - 2, history.currentIndex + 1);
    assert.deepEqual(
      lastThree.map((e) => e.title),
      [
        'Studio – Narration Studio',
        'Projects – Narration Studio',
        'Harbour book – Projects – Narration Studio',
      ],
      JSON.stringify(history.entries.map((e) => [new URL(e.url).hash, e.title])),
    );
    await cdp.detach();
    log(`✓ the tab's history entries read ${lastThree.map((e) => `"${e.title}"`).join(', ')}`);

    // Back: the previous view's title.
    await page.goBack();
    await page.getByRole('heading', { name: 'Projects', exact: true, level: 1 }).waitFor();
    assert.equal(await page.title(), 'Projects – Narration Studio');
    await page.goBack();
    await page.getByRole('heading', { name: 'Studio', exact: true, level: 1 }).waitFor();
    assert.equal(await page.title(), 'Studio – Narration Studio');
    await page.goForward();
    await page.goForward();
    await page.getByRole('heading', { name: 'Harbour book', exact: true }).waitFor();
    assert.equal(await page.title(), 'Harbour book – Projects – Narration Studio');
    log('✓ Back and Forward bring each entry’s own title back (Projects, Studio, Harbour book – Projects)');

    // The workbench: Ctrl+Enter from its sentence speaks.
    await nav(page, 'Voices').click();
    const bench = page.getByRole('region', { name: 'Voice workbench' });
    await bench.getByRole('button', { name: 'Add to the comparison' }).click();
    const sentence = bench.getByLabel('Your sentence');
    await sentence.fill('The lamp was lit.');
    await sentence.press('Control+Enter');
    await bench.getByText('Spoken by 1 voice.').waitFor({ timeout: 60_000 });
    assert.equal(await sentence.inputValue(), 'The lamp was lit.', 'no newline typed');
    log('✓ Ctrl+Enter from the workbench’s sentence speaks with the voices of the comparison');

    // A request selected in History: named by the start of its text.
    await nav(page, 'History').click();
    await page
      .getByRole('table', { name: 'Requests' })
      .getByRole('button', { name: /details of request/ })
      .last()
      .click();
    await page.waitForFunction(
      () => document.title === '“The boats came in at dusk.” – History – Narration Studio',
    );
    log('✓ a request selected in History: "“The boats came in at dusk.” – History – Narration Studio"');

    // Screenshots of the dialog, light and dark.
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.getByRole('button', { name: 'Keyboard shortcuts', exact: true }).click();
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
      await page.screenshot({ path: join(SHOTS, `keyboard-shortcuts-en-${theme}.png`) });
      const violations = await axeViolations(page);
      assert.deepEqual(violations, [], describeViolations(`the shortcuts dialog, ${theme}`, violations));
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
    }
    assert.deepEqual(pageErrors, []);
    log('✓ the shortcuts dialog passes axe in light and dark');

    // Vietnamese: titles and the dialog.
    const vi = await openVietnamese(browser, studio.loginUrl);
    try {
      const viPage = vi.page;
      await viPage.waitForFunction(() => document.title === 'Studio – Narration Studio');
      await nav(viPage, 'Voice library').click();
      await viPage.waitForFunction((t) => document.title === t, `${VI_VIEW.library} – Narration Studio`);
      await nav(viPage, 'Projects').click();
      await viPage.getByRole('button', { name: 'Harbour book', exact: true }).first().click();
      await viPage.waitForFunction(
        (t) => document.title === t,
        `Harbour book – ${VI_VIEW.projects} – Narration Studio`,
      );
      await viPage.goBack();
      await viPage.waitForFunction((t) => document.title === t, `${VI_VIEW.projects} – Narration Studio`);
      log(
        '✓ in Vietnamese: "Thư viện giọng đọc – Narration Studio", "Harbour book – Dự án – Narration Studio", Back to "Dự án – …"',
      );

      await nav(viPage, 'Studio').click();
      await viPage.getByRole('button', { name: 'Phím tắt', exact: true }).focus();
      await helpByKey(viPage, 'Phím tắt', [
        'Tạo âm thanh',
        'Tạo âm thanh chương đang mở',
        'Hiện danh sách phím tắt này',
      ]);
      for (const theme of ['light', 'dark'] as const) {
        await viPage.emulateMedia({ colorScheme: theme });
        await viPage.keyboard.press('?');
        await viPage.getByRole('dialog', { name: 'Phím tắt' }).waitFor();
        await viPage.screenshot({ path: join(SHOTS, `keyboard-shortcuts-vi-${theme}.png`) });
        const violations = await axeViolations(viPage);
        assert.deepEqual(violations, [], describeViolations(`Phím tắt, ${theme}`, violations));
        await viPage.keyboard.press('Escape');
        await viPage.getByRole('dialog').waitFor({ state: 'hidden' });
      }
      assert.deepEqual(vi.pageErrors, []);
      log(
        '✓ in Vietnamese: `?` opens "Phím tắt" with the focus in it, Escape gives it back; axe passes, light and dark',
      );
    } finally {
      await vi.context.close();
    }
  } finally {
    await browser.close();
    await studio.stop();
  }
}
