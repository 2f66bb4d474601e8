/**
 * Issue 38 in the browser: a fresh vi-VN studio starts on a Vietnamese voice; English text typed
 * under a Vietnamese voice gets a quiet notice (in Vietnamese) with a one-click switch to an
 * English voice, and Vietnamese text under an English voice the other way round. A Vietnamese
 * EPUB whose dc:language says en becomes a Vietnamese project with a Vietnamese narrator; its
 * language changed to English, the project view offers to re-cast, and one click does. A
 * screenshot of the notice goes to docs/screenshots/text-language-notice-vi.png, one of the offer
 * to project-recast-offer-vi.png. After each import the project view shows the import summary
 * (the language and where from, a legacy encoding's conversion) in Vietnamese and in English;
 * screenshot docs/screenshots/project-import-summary-vi.png. The same notice under a segment's
 * text in the project view (it sets the voice to regenerate with) and under the workbench's
 * sentence (it sets the voice to compare; workbench-text-language-vi.png).
 */

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { findVoice } from '../../electron/shared/voices';
import { ENGLISH_LINES, VIETNAMESE_LINES } from '../fixtures/language-samples';
import { latinBytes, TAT_DEN, toTcvn3 } from '../fixtures/legacy-vietnamese';
import { VIETNAMESE_BOOK, writeEpub3 } from '../fixtures/manuscripts';
import { E2E_SERVE_ARGS, launchBrowser, nav, openVietnamese, startStudio } from './harness';
import { animationsDone } from './waits';

const OUT = join(process.cwd(), 'docs/screenshots');

export async function runTextLanguageE2e(log: (line: string) => void): Promise<void> {
  const studio = await startStudio(E2E_SERVE_ARGS);
  const browser = await launchBrowser();
  try {
    const { context, page, pageErrors } = await openVietnamese(browser, studio.loginUrl);
    const picker = page.getByLabel('Giọng đọc', { exact: true });
    const first = await picker.inputValue();
    assert.equal(findVoice(first)?.language, 'vi', `a fresh vi-VN studio starts on ${first}`);
    log(`✓ a fresh vi-VN studio starts on a Vietnamese voice (${findVoice(first)!.name})`);

    const editor = page.getByLabel('Văn bản cần đọc');
    const notice = page.locator('.text-language-notice');
    await editor.fill(VIETNAMESE_LINES[12]!);
    await animationsDone(page); // the deferred render of the notice has had its frames
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

    const summary = page.locator('.project-import-summary');
    await summary.getByText('Ngôn ngữ: Tiếng Việt (theo nội dung; siêu dữ liệu ghi Tiếng Anh)').waitFor();
    await summary.getByText('Đã nhập “truyen-kieu.epub”').waitFor();
    await summary.screenshot({ path: join(OUT, 'project-import-summary-vi.png') });
    log('✓ the import summary in Vietnamese: the language from the text, the metadata’s English named');

    await page.getByText('Cài đặt sách', { exact: false }).click();
    await languageSelect.selectOption('en');
    await offer.waitFor();
    await offer.locator('..').screenshot({ path: join(OUT, 'project-recast-offer-vi.png') });
    await offer.getByRole('button', { name: 'Đổi giọng theo ngôn ngữ của sách' }).click();
    await offer.waitFor({ state: 'detached' });
    assert.equal(findVoice(await narratorVoice.inputValue())?.language, 'en');
    log('✓ the language changed to English: the project view offers to re-cast, and one click does');

    // A segment's text under the English narrator: the editor's notice offers a Vietnamese voice to regenerate with.
    await page
      .getByRole('button', { name: /^Đoạn 1:/ })
      .first()
      .click();
    const editorNotice = page.locator('.segment-editor .text-language-notice');
    await editorNotice.getByText('Văn bản này có vẻ là tiếng Việt', { exact: false }).waitFor();
    await editorNotice.getByRole('button', { name: `Dùng ${findVoice(first)!.name}` }).click();
    await editorNotice.waitFor({ state: 'detached' });
    assert.equal(await page.getByLabel('Giọng đọc để tạo lại', { exact: true }).inputValue(), first);
    log(
      '✓ a segment being edited: Vietnamese text, an English voice; the notice sets the voice to regenerate with',
    );

    // A TCVN3 text file: the summary says it was converted; dismissed, it is gone.
    await page.getByRole('button', { name: 'Tất cả dự án', exact: false }).first().click();
    await page.getByLabel(/^Tệp bản thảo/).setInputFiles({
      name: 'tat-den.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(latinBytes(toTcvn3(TAT_DEN))),
    });
    await summary.getByText('Chuyển từ bảng mã TCVN3 (ABC) sang Unicode').waitFor({ timeout: 30_000 });
    await summary.getByText('Ngôn ngữ: Tiếng Việt (theo nội dung)').waitFor();
    await summary.screenshot({ path: join(OUT, 'project-import-summary-tcvn3-vi.png') });
    await summary.getByRole('button', { name: 'Đóng' }).click();
    await summary.waitFor({ state: 'detached' });
    log('✓ a TCVN3 text: “Chuyển từ bảng mã TCVN3 (ABC) sang Unicode”; Đóng dismisses the summary');

    // The workbench: an English sentence for a Vietnamese voice to compare; the notice offers Emily.
    await nav(page, 'Voices').click();
    const bench = page.getByRole('region', { name: 'Bàn thử giọng' });
    const toCompare = bench.getByLabel('Giọng đọc để so sánh', { exact: true });
    await toCompare.selectOption(first);
    const benchNotice = bench.locator('.text-language-notice');
    await bench.getByLabel('Câu của bạn', { exact: true }).fill(VIETNAMESE_LINES[12]!);
    await animationsDone(page);
    assert.equal(await benchNotice.count(), 0, 'no notice for a Vietnamese sentence and a Vietnamese voice');
    await bench.getByLabel('Câu của bạn', { exact: true }).fill(ENGLISH_LINES[0]!);
    await benchNotice.getByText('Văn bản này có vẻ là tiếng Anh', { exact: false }).waitFor();
    await bench.screenshot({ path: join(OUT, 'workbench-text-language-vi.png') });
    await benchNotice.getByRole('button', { name: 'Dùng Emily' }).click();
    await benchNotice.waitFor({ state: 'detached' });
    assert.equal(await toCompare.inputValue(), 'en_female_emily_us');
    log('✓ the workbench: an English sentence, a Vietnamese voice to compare; “Dùng Emily” picks Emily');

    // The same EPUB imported in an English studio: the summary in English.
    const english = await browser.newContext({
      baseURL: studio.url,
      locale: 'en-US',
      storageState: await context.storageState(),
      viewport: { width: 1280, height: 800 },
    });
    const enPage = await english.newPage();
    enPage.on('pageerror', (e) => pageErrors.push(e.message));
    await enPage.goto('/#/projects');
    await enPage.getByLabel(/^Manuscript file/).setInputFiles({
      name: 'truyen-kieu.epub',
      mimeType: 'application/epub+zip',
      buffer: Buffer.from(writeEpub3({ ...VIETNAMESE_BOOK, language: 'en' })),
    });
    await enPage
      .locator('.project-import-summary')
      .getByText('Language: Vietnamese (from the text; the metadata says English)')
      .waitFor({ timeout: 30_000 });
    await english.close();
    log('✓ the import summary in English: “Language: Vietnamese (from the text; the metadata says English)”');
    assert.deepEqual(pageErrors, []);
  } finally {
    await browser.close();
    await studio.stop();
  }
}
