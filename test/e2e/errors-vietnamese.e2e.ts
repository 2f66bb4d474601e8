/**
 * Errors in the Vietnamese studio (issue 38): Chromium in vi-VN provokes errors through the
 * studio and the real server (SSML that cannot be read, an archive that is no voice pack) and
 * reads the sentence shown: it must be Vietnamese (no English
 * words outside what it quotes) and name no path (not the temporary file of an upload). A spent
 * sign-in address opened in a second browser shows the sign-in page with its refusal.
 */

import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import vi from '../../renderer/src/i18n/messages/vi.json';
import { englishOutsideQuotes } from '../fixtures/english-words';
import { E2E_SERVE_ARGS, launchBrowser, nav, openVietnamese, startStudio } from './harness';

async function expectVietnamese(alert: Locator, what: string, mustSay: string): Promise<string> {
  await alert.waitFor({ timeout: 30_000 });
  const shown = (await alert.innerText()).trim();
  assert.deepEqual(englishOutsideQuotes(shown), [], `${what}: no English in “${shown}”`);
  assert.ok(!/\.import-|\/(tmp|home|var|Users)\//u.test(shown), `${what}: no path in “${shown}”`);
  assert.ok(shown.includes(mustSay), `${what}: “${shown}” says “${mustSay}”`);
  return shown;
}

export async function runErrorsVietnameseE2e(log: (line: string) => void): Promise<void> {
  const studio = await startStudio(E2E_SERVE_ARGS);
  const browser = await launchBrowser();
  try {
    // Kept: `studio.loginUrl` always names the newest address, so reading it again after this
    // sign-in would give a fresh one (which signs in), not this one.
    const spentAddress = studio.loginUrl;
    const { page } = await openVietnamese(browser, spentAddress);

    // SSML that cannot be read, typed in the Studio.
    await nav(page, 'Studio').click();
    await page
      .getByLabel('Văn bản cần đọc')
      .fill('<speak>\n<p>Một.</p>\n<p><prosody rate="9">Hai.</prosody></p>\n</speak>');
    const ssml = page.getByRole('switch', { name: 'SSML' });
    if (!(await ssml.isChecked())) await ssml.check();
    await page.getByRole('button', { name: 'Tạo âm thanh' }).click();
    const said = await expectVietnamese(
      page.getByRole('alert').filter({ hasText: 'SSML' }).first(),
      'SSML',
      'Ở dòng 3, cột 13',
    );
    log(`✓ SSML error in Vietnamese, with its line and column: “${said}”`);

    // An archive that is no voice pack, imported in the Voice library.
    await nav(page, 'Voice library').click();
    await page.getByLabel(vi['voiceLibrary.importFile']).setInputFiles({
      name: 'giong-doc.zip',
      mimeType: 'application/zip',
      buffer: Buffer.from('không phải zip'),
    });
    const pack = await expectVietnamese(
      page.locator('p.error').filter({ hasText: 'giong-doc.zip' }).first(),
      'voice pack import',
      '“giong-doc.zip”',
    );
    log(`✓ a voice-pack archive refused in Vietnamese, by its own name (no temporary path): “${pack}”`);

    // The same sign-in address, spent above, opened in a second browser (its own cookies and storage).
    const { page: second } = await openVietnamese(browser, spentAddress);
    const used = await expectVietnamese(
      second.getByRole('alert').first(),
      'a used sign-in address',
      'đã được dùng',
    );
    assert.equal(await nav(second, 'Studio').count(), 0, 'the second browser is not signed in');
    log(`✓ a spent sign-in address opened in a second browser: signed out, in Vietnamese: “${used}”`);
  } finally {
    await browser.close();
    await studio.stop();
  }
}
