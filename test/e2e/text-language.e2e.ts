/**
 * Issue 38 in the browser: a fresh vi-VN studio starts on a Vietnamese voice; English text typed
 * under a Vietnamese voice gets a quiet notice (in Vietnamese) with a one-click switch to an
 * English voice, and Vietnamese text under an English voice the other way round. A Vietnamese
 * EPUB whose dc:language says en becomes a Vietnamese project with a Vietnamese narrator; its
 * language changed to English, the project view offers to re-cast, and one click does. A
 * screenshot of the notice goes to docs/screenshots/text-language-notice-vi.png, one of the offer
 * to project-recast-offer-vi.png.
 */

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { findVoice } from '../../electron/shared/voices';
import { ENGLISH_LINES, VIETNAMESE_LINES } from '../fixtures/language-samples';
import { VIETNAMESE_BOOK, writeEpub3 } from '../fixtures/manuscripts';
import { E2E_SERVE_ARGS, launchBrowser, nav, openVietnamese, startStudio } from './harness';

const OUT = join(process.cwd(), 'docs/screenshots');

export async function runTextLanguageE2e(log: (line: string) => void): Promise<void> {
  const studio = await startStudio(E2E_SERVE_ARGS);
  const browser = await launchBrowser();
  try {
    const { page, pageErrors } = await openVietnamese(browser, studio.loginUrl);
    const picker = page.getByLabel('Giọng đọc', { exact: true });
    const first = await picker.inputValue();
    assert.equal(findVoice(first)?.language, 'vi', `a fresh vi-VN studio starts on ${first}`);
    log(`✓ a fresh vi-VN studio starts on a Vietnamese voice (${findVoice(first)!.name})`);

    const editor = page.getByLabel('Văn bản cần đọc');
    const notice = page.locator('.text-language-notice');
    await editor.fill(VIETNAMESE_LINES[12]!);
    await page.waitForTimeout(300);
    assert.equal(await notice.count(), 0, 'no notice for Vietnamese text under a Vietnamese voice');

    await editor.fill(ENGLISH_LINES[0]!);
    await notice.getByText('Văn bản này có vẻ là tiếng Anh', { exact: false }).waitFor();
    mkdirSync(OUT, { recursive: true });
    await page
      .locator('.editor')
      .locator('..')
      .screenshot({ path: join(OUT, 'text-language-notice-vi.png') });
    await notice.getByRole('button', { name: 'Dùng Emily' }).click();
    await notice.waitFor({ state: 'detached' });
    assert.equal(await picker.inputValue(), 'en_female_emily_us');
    log('✓ English text under a Vietnamese voice: a notice in Vietnamese; “Dùng Emily” switches the voice');

    await editor.fill(VIETNAMESE_LINES.slice(0, 3).join(' '));
    await notice.getByText('Văn bản này có vẻ là tiếng Việt', { exact: false }).waitFor();
    await notice.getByRole('button', { name: `Dùng ${findVoice(first)!.name}` }).click();
    await notice.waitFor({ state: 'detached' });
    assert.equal(await picker.inputValue(), first);
    log('✓ Vietnamese text under an English voice: the notice offers the Vietnamese voice back');

    await nav(page, 'Projects').click();
    await page.getByLabel(/^Tệp bản thảo/).setInputFiles({
      name: 'truyen-kieu.epub',
      mimeType: 'application/epub+zip',
      buffer: Buffer.from(writeEpub3({ ...VIETNAMESE_BOOK, language: 'en' })),
    });
    const narratorVoice = page.getByLabel('Giọng người dẫn chuyện', { exact: true });
    await narratorVoice.waitFor({ state: 'attached', timeout: 30_000 });
    const languageSelect = page.getByLabel('Ngôn ngữ', { exact: true });
    assert.equal(await languageSelect.inputValue(), 'vi');
    assert.equal(findVoice(await narratorVoice.inputValue())?.language, 'vi');
    const offer = page.locator('.project-recast-offer');
    assert.equal(await offer.count(), 0);
    log('✓ a Vietnamese EPUB saying dc:language en: a Vietnamese project, a Vietnamese narrator, no offer');

    await page.getByText('Cài đặt sách', { exact: false }).click();
    await languageSelect.selectOption('en');
    await offer.waitFor();
    await offer.locator('..').screenshot({ path: join(OUT, 'project-recast-offer-vi.png') });
    await offer.getByRole('button', { name: 'Đổi giọng theo ngôn ngữ của sách' }).click();
    await offer.waitFor({ state: 'detached' });
    assert.equal(findVoice(await narratorVoice.inputValue())?.language, 'en');
    log('✓ the language changed to English: the project view offers to re-cast, and one click does');
    assert.deepEqual(pageErrors, []);
  } finally {
    await browser.close();
    await studio.stop();
  }
}
