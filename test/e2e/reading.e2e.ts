/**
 * "How it will be read" in a real browser against the real headless server: Vietnamese text typed
 * in the view is read for Vietnamese, its date and money marked in the written text (Tab reaches
 * a mark and its note says how it is read), the reading beside it, the list naming each rule
 * class; a lexicon entry added on the Lexicon page changes the reading; the Studio editor's
 * button opens the view with its text and voice. axe finds nothing on the view. Screenshots in
 * English and Vietnamese (light and dark) go to /tmp/reading-<lang>-<theme>.png.
 */

import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { writeMarkdown } from '../fixtures/manuscripts';
import {
  READING_BOOK,
  READING_BOOK_FILE,
  READING_CHAPTER,
  READING_CHAPTER_TEXT,
} from '../fixtures/reading-book';
import { axeViolations, describeViolations } from './axe';
import { SMALL, WIDE } from './every-view';
import { launchBrowser, nav, startStudio, type Studio } from './harness';

const TEXT = 'Ngày 21/11/2026, giao 50.000đ cho mỗi hộ của HTX Cần Thơ.';

/** Where the screenshots go. */
export const READING_SHOTS = '/tmp';

/** The view's labels in each language of the interface. */
export const READING_LABELS = {
  en: { text: 'Text', target: 'Read for', show: 'Show the reading' },
  vi: { text: 'Văn bản', target: 'Đọc theo', show: 'Xem cách đọc' },
};

/** Types TEXT in the view, reads it for Vietnamese, waits for the marks. */
export async function readVietnamese(page: Page, labels: { text: string; target: string; show: string }) {
  await page.getByLabel(labels.text, { exact: true }).fill(TEXT);
  await page.getByLabel(labels.target).selectOption('language:vi');
  await page.getByRole('button', { name: labels.show }).click();
  await page.locator('button.reading-mark', { hasText: '21/11/2026' }).waitFor();
}

/** Focuses the first mark from the keyboard (Tab from the written text) and shoots the view. */
async function shoot(page: Page, name: string): Promise<string> {
  await page.getByRole('button', { name: /^(Show the reading|Xem cách đọc)$/ }).focus();
  await page.keyboard.press('Tab');
  await page.getByRole('tooltip').first().waitFor();
  await page.mouse.move(0, 0);
  const path = `${READING_SHOTS}/${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}

async function inLocale(
  browser: Browser,
  studio: Studio,
  locale: string,
  theme: 'light' | 'dark',
  body: (page: Page) => Promise<void>,
  viewport: { width: number; height: number } = WIDE,
) {
  const context = await browser.newContext({ locale, colorScheme: theme, viewport });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(studio.loginUrl);
    await page.locator('nav.sidebar').waitFor();
    await body(page);
    assert.deepEqual(errors, [], 'no errors on the page');
  } finally {
    await context.close();
  }
}

export async function runReadingE2e(log: (line: string) => void): Promise<void> {
  const studio = await startStudio();
  const browser = await launchBrowser();
  const english = READING_LABELS.en;
  try {
    await inLocale(browser, studio, 'en-US', 'light', async (page) => {
      await nav(page, 'How it will be read').click();
      await page.getByRole('heading', { name: 'How it will be read', level: 1 }).waitFor();
      await readVietnamese(page, english);
      const written = page.getByRole('group', { name: 'As written' });
      await written.getByRole('button', { name: '50.000đ' }).waitFor();
      const spoken = page.getByRole('group', { name: 'As it will be read' });
      assert.match(await spoken.innerText(), /hai mươi mốt tháng mười một năm .*năm mươi nghìn đồng/s);
      log('✓ Vietnamese text typed in the view: its date and money marked, the reading beside it');

      // Keyboard: Tab from the button that read it reaches the first mark; its note says how it is read.
      await page.getByRole('button', { name: english.show }).focus();
      await page.keyboard.press('Tab');
      const date = written.getByRole('button', { name: '21/11/2026' });
      assert.equal(await date.evaluate((e) => e === document.activeElement), true);
      const note = page.getByRole('tooltip').filter({ hasText: 'hai mươi mốt tháng mười một năm' });
      await note.waitFor({ state: 'visible' });
      assert.match(await note.innerText(), /Date/);
      assert.equal(await date.getAttribute('aria-describedby'), await note.getAttribute('id'));
      await page.keyboard.press('Tab');
      await page
        .getByRole('tooltip')
        .filter({ hasText: 'năm mươi nghìn đồng' })
        .waitFor({ state: 'visible' });
      log('✓ Tab goes from mark to mark, each note shows its reading and rule class');

      const list = page.getByRole('table', { name: 'Changes' });
      await list.getByRole('row', { name: /21\/11\/2026 hai mươi mốt tháng mười một năm .* Date/ }).waitFor();
      await list.getByRole('row', { name: /50\.000đ năm mươi nghìn đồng Money/ }).waitFor();
      await list.getByRole('button', { name: '50.000đ' }).click();
      assert.equal(
        await written.getByRole('button', { name: '50.000đ' }).evaluate((e) => e === document.activeElement),
        true,
        'the list shows the change in the text',
      );
      log('✓ the list names each rule class and shows a change in the text');

      // Edited since: the view says so, and reading again clears it.
      const stale = page.getByText('The text or the voice changed since: show the reading again.');
      await page.getByLabel('Text', { exact: true }).press('End');
      await page.getByLabel('Text', { exact: true }).pressSequentially(' Xin chào.');
      await stale.waitFor();
      await page.getByRole('button', { name: english.show }).click();
      await stale.waitFor({ state: 'detached' });
      await page.getByLabel('Text', { exact: true }).fill(TEXT);
      await page.getByRole('button', { name: english.show }).click();
      await stale.waitFor({ state: 'detached' });
      log('✓ a text edited after its reading is marked stale until it is read again');

      const violations = await axeViolations(page);
      assert.equal(violations.length, 0, describeViolations('reading view', violations));
      log('✓ axe: no violation on the view with a reading');
      log(`  screenshot ${await shoot(page, 'reading-en-light')}`);

      // A lexicon entry changes the reading.
      await nav(page, 'Lexicon').click();
      await page.getByRole('button', { name: 'Add entry' }).click();
      const form = page.getByRole('form', { name: 'New lexicon entry' });
      await form.getByLabel('Language').selectOption('vi');
      await form.getByLabel('Word or phrase').fill('HTX');
      await form.getByRole('textbox', { name: 'Respelling' }).fill('hợp tác xã');
      await form.getByRole('button', { name: 'Add to lexicon' }).click();
      await page.getByRole('table', { name: 'Lexicon entries' }).getByRole('row', { name: /HTX/ }).waitFor();
      await nav(page, 'How it will be read').click();
      await page.getByRole('button', { name: 'Show the reading' }).click();
      // The reading shown before stays until the new one arrives: wait for HTX marked as the lexicon's.
      await written.locator('button.reading-mark.lexicon', { hasText: 'HTX' }).waitFor();
      await page
        .getByRole('table', { name: 'Changes' })
        .getByRole('row', { name: /HTX hợp tác xã Your lexicon/ })
        .waitFor();
      assert.match(await spoken.innerText(), /hợp tác xã Cần Thơ/);
      log('✓ an entry added on the Lexicon page changes the reading, marked as the lexicon’s');

      // The Studio editor's button: its text and voice.
      await nav(page, 'Studio').click();
      await page.getByLabel('Text to speak').fill('Vé giá 50.000đ.');
      const studioShot = `${READING_SHOTS}/reading-studio-button.png`;
      await page.screenshot({ path: studioShot });
      log(`  screenshot ${studioShot}`);
      await page.locator('#main').getByRole('button', { name: 'How it will be read' }).click();
      await page.getByRole('heading', { name: 'How it will be read', level: 1 }).waitFor();
      assert.equal(await page.getByLabel('Text', { exact: true }).inputValue(), 'Vé giá 50.000đ.');
      await page.getByText('the Studio’s text').waitFor();
      await written.getByRole('button', { name: '50.000đ' }).waitFor();
      log('✓ the Studio’s “How it will be read” opens the view with the editor’s text, read for its voice');

      // A book project's chapter: its text, read for the narrator.
      await nav(page, 'Projects').click();
      await page.getByLabel(/^Manuscript file/).setInputFiles({
        name: READING_BOOK_FILE,
        mimeType: 'text/markdown',
        buffer: Buffer.from(writeMarkdown(READING_BOOK)),
      });
      await page
        .getByRole('list', { name: `Segments of ${READING_CHAPTER.title}` })
        .waitFor({ timeout: 30_000 });
      const chapterShot = `${READING_SHOTS}/reading-chapter-button.png`;
      await page.screenshot({ path: chapterShot });
      log(`  screenshot ${chapterShot}`);
      await page.locator('#main').getByRole('button', { name: 'How it will be read' }).click();
      await page.getByRole('heading', { name: 'How it will be read', level: 1 }).waitFor();
      await page.getByText(`chapter “${READING_CHAPTER.title}”`).waitFor();
      await written.getByRole('button', { name: '50.000đ' }).waitFor();
      const chapterText = await page.getByLabel('Text', { exact: true }).inputValue();
      assert.ok(chapterText.includes(READING_CHAPTER_TEXT), `the chapter's text in the view: ${chapterText}`);
      log('✓ a book chapter’s “How it will be read” opens the view with the chapter’s text');
    });

    await inLocale(browser, studio, 'en-US', 'dark', async (page) => {
      await nav(page, 'How it will be read').click();
      await readVietnamese(page, english);
      log(`  screenshot ${await shoot(page, 'reading-en-dark')}`);
    });

    const vietnamese = READING_LABELS.vi;
    for (const theme of ['light', 'dark'] as const)
      await inLocale(browser, studio, 'vi-VN', theme, async (page) => {
        await nav(page, 'How it will be read').click();
        await page.getByRole('heading', { name: 'Xem trước cách đọc', level: 1 }).waitFor();
        await readVietnamese(page, vietnamese);
        const list = page.getByRole('table', { name: 'Các chỗ thay đổi' });
        await list.getByRole('row', { name: /Ngày tháng/ }).waitFor();
        await list.getByRole('row', { name: /Tiền tệ/ }).waitFor();
        await list.getByRole('row', { name: /Từ điển phát âm của bạn/ }).waitFor();
        if (theme === 'light') {
          const violations = await axeViolations(page);
          assert.equal(violations.length, 0, describeViolations('reading view (vi)', violations));
          log('✓ in Vietnamese: the view, its rule classes (“Ngày tháng”, “Tiền tệ”) and axe 0');
        }
        log(`  screenshot ${await shoot(page, `reading-vi-${theme}`)}`);
      });

    // The small window: one column, nothing scrolls sideways.
    await inLocale(
      browser,
      studio,
      'vi-VN',
      'light',
      async (page) => {
        await nav(page, 'How it will be read').click();
        await readVietnamese(page, vietnamese);
        const sideways = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.equal(sideways, 0, 'nothing scrolls sideways at 800 × 600');
        log(`✓ 800 × 600: nothing scrolls sideways; screenshot ${await shoot(page, 'reading-vi-small')}`);
      },
      SMALL,
    );
  } finally {
    await browser.close();
    await studio.stop();
  }
}
