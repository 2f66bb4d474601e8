/**
 * The interface in Vietnamese: Chromium with the vi-VN locale opens the studio in Vietnamese
 * (Settings, Lexicon and Projects; `<html lang="vi">`; numbers written 1.234); choosing English
 * in Settings changes the views at once and is kept across a reload. Screenshots of the three
 * views in Vietnamese, light and dark, go to docs/screenshots/*-vi-{light,dark}.png. Then every
 * view in Vietnamese (every-view-vietnamese.ts): no English sentence, axe 0, no sideways scrolling,
 * screenshots in docs/screenshots/vi/. Then every dialog, prompt, disclosure and tooltip
 * (dialogs-vietnamese.ts).
 */

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { prepare } from './accessibility.e2e';
import { dialogsInVietnamese } from './dialogs-vietnamese';
import { everyViewInVietnamese } from './every-view-vietnamese';
import { E2E_SERVE_ARGS, launchBrowser, nav, openVietnamese, startStudio } from './harness';

const OUT = join(process.cwd(), 'docs/screenshots');

/** 1,234 lexicon entries as CSV, so the count shows a thousands separator. */
function bigLexiconCsv(): string {
  const rows = ['language,match,kind,replacement,case_sensitive,whole_word,note'];
  for (let i = 0; i < 1234; i++) rows.push(`vi,từ${i},respell,từ số ${i},false,true,`);
  rows[1] = 'vi,TP.HCM,respell,Thành phố Hồ Chí Minh,false,true,Viết tắt';
  return `${rows.join('\n')}\n`;
}

const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

export async function runVietnameseE2e(log: (line: string) => void): Promise<void> {
  const studio = await startStudio(E2E_SERVE_ARGS);
  const browser = await launchBrowser();
  try {
    const { context, page, pageErrors } = await openVietnamese(browser, studio.loginUrl);
    log('✓ a vi-VN browser gets <html lang="vi">');

    // Settings in Vietnamese; the language follows the system.
    await nav(page, 'Settings').click();
    await page.getByRole('heading', { name: 'Cài đặt', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Bộ nhớ đệm câu' }).waitFor();
    await page.getByRole('radio', { name: 'Theo hệ thống' }).waitFor();
    const language = page.getByRole('combobox', { name: 'Ngôn ngữ' });
    assert.equal(await language.inputValue(), 'system');
    log('✓ Settings in Vietnamese: “Cài đặt”, “Bộ nhớ đệm câu”, the language “Theo hệ thống”');

    // Lexicon: 1,234 entries imported; the count reads 1.234 (vi-VN's thousands separator).
    await nav(page, 'Lexicon').click();
    await page.getByRole('heading', { name: 'Từ điển phát âm', level: 1 }).waitFor();
    await page.getByText('Chưa có mục nào.', { exact: false }).waitFor();
    await page.getByLabel('Nhập tệp từ điển').setInputFiles({
      name: 'tu-dien.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(bigLexiconCsv()),
    });
    await page
      .getByRole('status')
      .getByText('Đã nhập tu-dien.csv: thêm 1.234, cập nhật 0, giữ nguyên 0.')
      .waitFor({ timeout: 60_000 });
    await page.getByText('1.234 / 1.234 mục').waitFor();
    await page.getByLabel('Tìm kiếm').fill('TP.HCM');
    await page.getByText('1 / 1.234 mục').waitFor();
    const table = page.getByRole('table', { name: 'Các mục từ điển' });
    await table.getByRole('columnheader', { name: 'Từ hoặc cụm từ' }).waitFor();
    await table.getByRole('button', { name: 'Sửa TP.HCM' }).waitFor();
    log('✓ Lexicon in Vietnamese; 1,234 entries counted as “1.234 / 1.234 mục”');

    // Projects: the empty list in Vietnamese.
    await nav(page, 'Projects').click();
    await page.getByRole('heading', { name: 'Dự án', level: 1 }).waitFor();
    await page.getByText('Chưa có dự án nào.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Nhập bản thảo…' }).waitFor();
    log('✓ Projects in Vietnamese');

    // Screenshots in both themes.
    mkdirSync(OUT, { recursive: true });
    for (const theme of ['light', 'dark'] as const) {
      await nav(page, 'Settings').click();
      await page.getByRole('radio', { name: theme === 'light' ? 'Sáng' : 'Tối' }).check({ force: true });
      await page.screenshot({ path: join(OUT, `settings-vi-${theme}.png`), fullPage: true });
      await nav(page, 'Lexicon').click();
      await page.getByLabel('Tìm kiếm').fill('');
      await page.getByRole('heading', { name: 'Từ điển phát âm', level: 1 }).waitFor();
      await page.screenshot({ path: join(OUT, `lexicon-vi-${theme}.png`) });
      await nav(page, 'Projects').click();
      await page.getByRole('heading', { name: 'Dự án', level: 1 }).waitFor();
      await page.screenshot({ path: join(OUT, `projects-vi-${theme}.png`) });
    }
    log('✓ screenshots of Settings, Lexicon and Projects in Vietnamese, light and dark');

    // No view scrolls sideways in Vietnamese (longer words than English).
    for (const view of ['Settings', 'Lexicon', 'Projects']) {
      await nav(page, view).click();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `${view} scrolls sideways by ${overflow} px in Vietnamese`);
    }

    // English from Settings: at once, and kept across a reload.
    await nav(page, 'Settings').click();
    await page.getByRole('combobox', { name: 'Ngôn ngữ' }).selectOption('en');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Sentence cache' }).waitFor();
    assert.equal(await htmlLang(page), 'en');
    log('✓ choosing English in Settings changes the view at once (<html lang="en">)');
    await page.reload();
    await nav(page, 'Lexicon').click();
    await page.getByText('1,234 of 1,234 entries').waitFor({ timeout: 60_000 });
    assert.equal(await htmlLang(page), 'en');
    await nav(page, 'Settings').click();
    assert.equal(await page.getByRole('combobox', { name: 'Language' }).inputValue(), 'en');
    log('✓ after a reload the vi-VN browser still shows English (“1,234 of 1,234 entries”)');

    // Back to following the system: Vietnamese again.
    await page.getByRole('combobox', { name: 'Language' }).selectOption('system');
    await page.getByRole('heading', { name: 'Cài đặt', level: 1 }).waitFor();
    assert.equal(await htmlLang(page), 'vi');
    log('✓ “Follow the system” brings Vietnamese back');
    assert.deepEqual(pageErrors, []);
    await context.close();

    // Every view, with a project, a request and a failed callback to show.
    const storageState = await prepare(browser, studio.url, studio.loginUrl);
    await everyViewInVietnamese(browser, studio.url, storageState, log);
    // Every dialog, prompt, disclosure and tooltip (dialogs-vietnamese.ts).
    await dialogsInVietnamese(browser, studio.url, storageState, log);
  } finally {
    await browser.close();
    await studio.stop();
  }
}
