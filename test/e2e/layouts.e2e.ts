/**
 * Layouts that fit, in a real browser against the real headless server, with things made long: a
 * custom voice of an 80-character name and a 64-character code chosen in the Studio, a catalogue pack of a long id in the
 * Voice library, a book of a long title, and History rows with a callback. Every view (each of
 * the sidebar's, an open book, a request's details in History) at 800, 1024, 1280 and 1920 px wide
 * (heights 600, 768, 800, 1080), in the light and the dark theme (and in Vietnamese, whose words
 * are longer, in the light one): the page never scrolls sideways
 * (document.scrollingElement.scrollWidth ≤ clientWidth + 1), no control of the view lies outside
 * the window nor is cut by a box of its own that scrolls sideways (History's Callback column and
 * Open buttons in view at 1024), a text cut with an ellipsis has its whole in a `title`; the Studio's voice picker shows its chosen line whole, and the long pack id is
 * shown whole or cut with its full text in a `title`.
 */

import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { findCatalogueEntry } from '../../electron/core/voices/catalogue';
import { SESSION_STORAGE_KEY } from '../../renderer/src/lib/api-client';
import { STUDIO_SESSION_HEADER } from '../../electron/shared/api';
import {
  E2E_SERVE_ARGS,
  generateWithRefusedCallback,
  launchBrowser,
  openVietnamese,
  SAMPLE_TEXT,
  startStudio,
  startVoiceMirror,
} from './harness';
import { axeViolations, describeViolations } from './axe';
import { NAV_LABELS, THEMES, VIEWS, type Theme } from './every-view';
import { importSmallBook, measure, type Measure } from './small-windows.e2e';

/** The widths of the issue, each with a height of its usual window. */
export const LAYOUT_SIZES = [
  { width: 800, height: 600 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

/** A custom voice's name of the longest length allowed (80 characters). */
export const LONG_VOICE_NAME =
  'Thùy Trang for the northern chapters, read slowly with long pauses between lines';
/** A pack of the catalogue under a long id (listed by the mirror, not downloaded). */
export const LONG_PACK_ID = 'vi_VN-vais1000-medium-northern-narration-long-form-reading-edition-2026';
/** A book's title with a long hyphenated word. */
export const LONG_BOOK_TITLE =
  "The Lighthouse Keeper's Extraordinarily-Long-Hyphenated-Harbour-Chronicle of the Northern Sea Lanes";

/** The catalogue entry of LONG_PACK_ID: a real Vietnamese entry under the long id. */
export function longPackEntry() {
  return { ...findCatalogueEntry('vi_VN-vais1000-medium')!, id: LONG_PACK_ID };
}

/** The Studio's voice picker. */
const studioPicker = (page: Page) =>
  page.getByRole('complementary', { name: 'Voice & output' }).getByLabel('Voice', { exact: true });

/**
 * Long things in a signed-in studio open in the Studio: the custom voice of LONG_VOICE_NAME
 * (made through the API with the page's studio session) chosen in the Studio, and two requests
 * of it with a refused callback.
 */
export async function prepareLongThings(page: Page): Promise<void> {
  const code = 'long_named_voice_for_the_northern_chapters_read_slowly_with_paus';
  const status = await page.evaluate(
    async ({ code, name, storageKey, header }) => {
      const response = await fetch('/api/v1/custom-voices', {
        method: 'POST',
        headers: { 'content-type': 'application/json', [header]: localStorage.getItem(storageKey) ?? '' },
        body: JSON.stringify({ code, name, base: { kind: 'code', voice_code: 'vi_female_thuytrang_mb' } }),
      });
      return response.status;
    },
    { code, name: LONG_VOICE_NAME, storageKey: SESSION_STORAGE_KEY, header: STUDIO_SESSION_HEADER },
  );
  assert.equal(status, 201, 'the custom voice of a long name is made');
  await page.reload();
  const picker = studioPicker(page);
  await picker.locator(`option[value="${code}"]`).waitFor({ state: 'attached' });
  await picker.selectOption(code);
  await page.getByLabel('Text to speak').fill(SAMPLE_TEXT);
  await generateWithRefusedCallback(page);
  await generateWithRefusedCallback(page);
}

/** Opens an address of the studio (`#/history`) and waits for its heading. */
async function open(page: Page, hash: string, heading: string | RegExp): Promise<void> {
  await page.evaluate((h) => (location.hash = h), hash);
  await page.getByRole('heading', { name: heading, exact: typeof heading === 'string', level: 1 }).waitFor();
}

/** The innermost elements and texts of the page reaching past the window's right edge (what makes it scroll). */
async function widest(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.scrollingElement!.clientWidth;
    const past = [...document.body.querySelectorAll<HTMLElement>('*')].filter(
      (el) => el.getBoundingClientRect().right > width + 1,
    );
    const found = past
      .filter((el) => !past.some((other) => other !== el && el.contains(other)))
      .map(
        (el) => `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 40)}"`,
      );
    // Text running out of its element's box (a word that cannot break).
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      range.selectNodeContents(node);
      if (range.getBoundingClientRect().right > width + 1)
        found.push(
          `text in ${node.parentElement?.tagName.toLowerCase()}.${node.parentElement?.className} "${(node.textContent ?? '').trim().slice(0, 40)}"`,
        );
    }
    return found.slice(0, 4);
  });
}

/**
 * What does not fit in the view shown, as lines added to `problems` (`at` names where): the page
 * scrolling sideways, controls outside the window or cut by a box that scrolls. Returns the page's
 * widths.
 */
async function fitProblems(page: Page, at: string, problems: string[]): Promise<Measure> {
  const m = await measure(page);
  if (m.scrollWidth > m.clientWidth + 1)
    problems.push(
      `${at} scrolls sideways: ${m.scrollWidth} > ${m.clientWidth}, past the window: ${(await widest(page)).join(', ')}`,
    );
  for (const control of m.outside) problems.push(`${at}: ${control} is outside the window`);
  for (const control of await clippedSideways(page))
    problems.push(`${at}: ${control} is cut by a box that scrolls sideways`);
  for (const text of await cutWithoutTitle(page)) problems.push(`${at}: ${text} is cut without a title`);
  return m;
}

/**
 * Whether the voice picker labelled "Voice" in the Studio shows its chosen line whole: the
 * select's own text measured against its room when the select is what is seen, else the element
 * beside it that shows the same line, measured against its box. Returns what was cut, or null.
 */
async function pickerCut(page: Page): Promise<string | null> {
  return studioPicker(page).evaluate((el) => {
    const sel = el as HTMLSelectElement;
    const text = sel.selectedOptions[0]?.text ?? '';
    const style = getComputedStyle(sel);
    if (style.opacity !== '0') {
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = style.font;
      const need = context.measureText(text).width;
      // The room beside the select's arrow (about 20 px in Chromium).
      const room = sel.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      return need <= room
        ? null
        : `the select shows "${text}" in ${Math.round(room)} px of ${Math.round(need)}`;
    }
    const shown = [...sel.parentElement!.querySelectorAll<HTMLElement>('*')].find(
      (e) => e !== sel && !sel.contains(e) && e.textContent === text,
    );
    if (!shown) return `"${text}" is shown nowhere beside the invisible select`;
    const box = shown.getBoundingClientRect();
    if (shown.scrollWidth > shown.clientWidth + 1 || box.right > sel.getBoundingClientRect().right + 1)
      return `"${text}" is cut: ${shown.scrollWidth} px in ${shown.clientWidth}`;
    return null;
  });
}

/**
 * Controls of <main> cut sideways by a box of theirs that scrolls or clips (a table's own scroller):
 * shown only after scrolling that box, e.g. "button Open right=1005 > 978".
 */
async function clippedSideways(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cut: string[] = [];
    const main = document.querySelector('main')!;
    for (const el of main.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href], th')) {
      const box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      for (let up = el.parentElement; up && up !== main; up = up.parentElement) {
        if (getComputedStyle(up).overflowX === 'visible') continue;
        const room = up.getBoundingClientRect();
        if (box.right > room.right + 0.5 || box.left < room.left - 0.5) {
          const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
          cut.push(
            `${el.tagName.toLowerCase()} "${name}" right=${Math.round(box.right)} > ${Math.round(room.right)}`,
          );
          break;
        }
      }
    }
    return cut;
  });
}

/** Texts of <main> cut with an ellipsis with no `title` on them (nor around them) giving the whole. */
async function cutWithoutTitle(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cut: string[] = [];
    for (const el of document.querySelector('main')!.querySelectorAll<HTMLElement>('*')) {
      if (getComputedStyle(el).textOverflow !== 'ellipsis' || el.scrollWidth <= el.clientWidth + 1) continue;
      if (el.getBoundingClientRect().width <= 1 || (el.textContent ?? '').trim() === '') continue;
      if (el.closest('[title]')?.getAttribute('title')) continue;
      cut.push(`${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 50)}"`);
    }
    return cut;
  });
}

/** The long pack id in its card: whole, or cut with the whole id as its `title`. Returns what is wrong, or null. */
async function packNameCut(page: Page): Promise<string | null> {
  const card = page.getByRole('listitem', { name: `Voice pack ${LONG_PACK_ID}` });
  return card.evaluate((el, id) => {
    const name = [...el.querySelectorAll<HTMLElement>('*')].find((e) => e.textContent === id);
    if (!name) return 'the pack id is not in its card';
    if (name.scrollWidth <= name.clientWidth + 1) return null;
    return name.title === id
      ? null
      : `the pack id is cut (${name.scrollWidth} px in ${name.clientWidth}) without a title`;
  }, LONG_PACK_ID);
}

export async function runLayoutsE2e(log: (line: string) => void): Promise<void> {
  const voiceMirror = await startVoiceMirror([longPackEntry()]);
  const studio = await startStudio([...E2E_SERVE_ARGS, ...voiceMirror.args]);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: LAYOUT_SIZES[2] });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(studio.loginUrl);
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();

    // Long things: a voice's name, a book's title, History rows with a callback, a pack's id.
    await prepareLongThings(page);
    await importSmallBook(page, LONG_BOOK_TITLE);
    const projectHash = new URL(page.url()).hash;
    assert.match(projectHash, /^#\/projects\/./, 'the book has its address');
    await open(page, '#/history', 'History');
    const requestLink = page
      .getByRole('table', { name: 'Requests' })
      .getByRole('button', { name: /details of request/ });
    await requestLink.first().waitFor();
    const requestId = /details of request (\S+)/.exec((await requestLink.first().textContent()) ?? '')![1]!;
    log(
      `✓ long things to lay out: a voice of ${[...LONG_VOICE_NAME].length} characters, a pack id of ${LONG_PACK_ID.length}, a book title of ${LONG_BOOK_TITLE.length}, two requests with a callback`,
    );

    /** Every address to check: each view, the open book, a request's details. */
    const addresses: [string, string, string | RegExp][] = [
      ...VIEWS.map((v): [string, string, string] => [v, `#/${v}`, NAV_LABELS[v]]),
      ['project', projectHash, LONG_BOOK_TITLE],
      ['request', `#/history/${encodeURIComponent(requestId)}`, 'History'],
    ];

    const problems: string[] = [];
    for (const theme of THEMES as readonly Theme[]) {
      await page.emulateMedia({ colorScheme: theme });
      for (const size of LAYOUT_SIZES) {
        await page.setViewportSize(size);
        const figures: string[] = [];
        for (const [name, hash, heading] of addresses) {
          await open(page, hash, heading);
          if (name === 'library')
            await page.getByRole('listitem', { name: `Voice pack ${LONG_PACK_ID}` }).waitFor();
          if (name === 'history' || name === 'request')
            await page.getByRole('table', { name: 'Requests' }).getByRole('row').nth(2).waitFor();
          const at = `${name} at ${size.width} (${theme})`;
          const m = await fitProblems(page, at, problems);
          if (name === 'studio') {
            const cut = await pickerCut(page);
            if (cut) problems.push(`${at}: the voice picker cuts its line: ${cut}`);
          }
          // What changed for the fit (the picker's shown line, History's scroller, whole pack ids), checked by axe.
          if (size.width === 1024 && (name === 'studio' || name === 'history' || name === 'library')) {
            const violations = await axeViolations(page);
            if (violations.length > 0) problems.push(describeViolations(at, violations));
          }
          if (name === 'library') {
            const cut = await packNameCut(page);
            if (cut) problems.push(`${at}: ${cut}`);
          }
          figures.push(`${name} ${m.scrollWidth}/${m.clientWidth}`);
        }
        log(`  ${size.width}×${size.height} ${theme}: ${figures.join(', ')}`);
      }
    }
    // Vietnamese words are longer: the same addresses in a vi-VN browser (light).
    const vi = await openVietnamese(browser, `${studio.url}/#/studio`, {
      baseURL: studio.url,
      storageState: await page.context().storageState(),
    });
    try {
      for (const size of LAYOUT_SIZES) {
        await vi.page.setViewportSize(size);
        for (const [name, hash] of addresses) {
          // The address changed and the view drawn: its hashchange handled, then two frames.
          await vi.page.evaluate(async (h) => {
            if (location.hash !== h) {
              const changed = new Promise((resolve) =>
                addEventListener('hashchange', resolve, { once: true }),
              );
              location.hash = h;
              await changed;
            }
            for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame);
          }, hash);
          await vi.page.locator('main h1').first().waitFor();
          if (name === 'library') await vi.page.locator('main li.pack-card').nth(1).waitFor();
          if (name === 'history' || name === 'request')
            await vi.page.locator('main table tbody tr').nth(1).waitFor();
          if (name === 'project')
            await vi.page.getByRole('heading', { name: LONG_BOOK_TITLE, level: 1 }).waitFor();
          await fitProblems(vi.page, `${name} at ${size.width} (Vietnamese)`, problems);
        }
      }
      assert.deepEqual(vi.pageErrors, []);
    } finally {
      await vi.context.close();
    }
    assert.deepEqual(problems, [], 'every view fits at every width');
    log(
      `✓ ${addresses.length} addresses × ${LAYOUT_SIZES.map((s) => s.width).join('/')} px × light and dark, and in Vietnamese: ` +
        'no page scrolls sideways, every control inside the window, every text cut with an ellipsis has a title, ' +
        'the voice picker and the long pack id whole; ' +
        'no axe violation in the Studio, History and the Voice library at 1024',
    );
    assert.deepEqual(pageErrors, []);
  } finally {
    await browser.close();
    await studio.stop();
    await voiceMirror.close();
  }
}
