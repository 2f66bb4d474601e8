/**
 * The Settings view's voice codes of other services, in a real browser against the real
 * headless server: choose "closest", add alias rows (a wrong row is refused with its number,
 * then removed), save; the settings file holds them and the page shows them after a reload.
 * `screenshot`: where to save a PNG of the Server panel.
 */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, nav, startStudio } from './harness';
import { animationsDone } from './waits';

export async function runVoiceMappingE2e(log: (line: string) => void, screenshot?: string): Promise<void> {
  const studio = await startStudio(['--unknown-voices', 'closest']);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1360, height: 1000 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(studio.loginUrl);
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();
    await nav(page, 'Settings').click();

    const form = page.getByRole('form', { name: 'Server settings' });
    const policy = form.getByLabel('A voice code that is not ours');
    await form.getByText('This run: closest voice, 0 aliases.').waitFor();
    assert.equal(await policy.inputValue(), 'refuse');
    await policy.selectOption('closest');
    const table = form.getByRole('table', { name: 'Voice aliases' });
    await table.getByText('No aliases.').waitFor();
    await form.getByRole('button', { name: 'Add alias' }).click();
    await table.getByLabel('Their voice code, row 1').fill('hn_female_ngochuyen_full_48k-fhg');
    await table.getByLabel('Our voice, row 1').selectOption('vi_female_hacuc_mb');
    await form.getByRole('button', { name: 'Add alias' }).click();
    await table.getByLabel('Their voice code, row 2').fill('two words');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('alert').getByText('Row 2: a voice code of 1–200 characters').waitFor();
    log('✓ a wrong alias row is refused with its number before saving');

    await table.getByRole('button', { name: 'Remove row 2' }).click();
    await form.getByRole('button', { name: 'Add alias' }).click();
    await table.getByLabel('Their voice code, row 2').fill('sg_male_trungkien_vdts_48k-fhg');
    await table.getByLabel('Our voice, row 2').selectOption('vi_male_ductrong_mb');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText(/^Saved\./).waitFor();
    const stored = JSON.parse(readFileSync(join(studio.settingsDir, 'settings.json'), 'utf8')) as {
      unknownVoices: string;
      voiceAliases: Record<string, string>;
    };
    assert.equal(stored.unknownVoices, 'closest');
    assert.deepEqual(stored.voiceAliases, {
      'hn_female_ngochuyen_full_48k-fhg': 'vi_female_hacuc_mb',
      'sg_male_trungkien_vdts_48k-fhg': 'vi_male_ductrong_mb',
    });
    log('✓ closest and two aliases are saved to the settings file');

    if (screenshot) {
      await animationsDone(page);
      await page.locator('.panel', { has: form }).screenshot({ path: screenshot });
      log(`  screenshot: ${screenshot}`);
    }

    await page.reload();
    await nav(page, 'Settings').click();
    await table.getByLabel('Their voice code, row 2').waitFor();
    assert.equal(
      await table.getByLabel('Their voice code, row 1').inputValue(),
      'hn_female_ngochuyen_full_48k-fhg',
    );
    assert.equal(await table.getByLabel('Our voice, row 2').inputValue(), 'vi_male_ductrong_mb');
    assert.equal(await policy.inputValue(), 'closest');
    await table.getByRole('button', { name: 'Remove row 1' }).click();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText(/^Saved\./).waitFor();
    const after = JSON.parse(readFileSync(join(studio.settingsDir, 'settings.json'), 'utf8')) as {
      voiceAliases: Record<string, string>;
    };
    assert.deepEqual(after.voiceAliases, { 'sg_male_trungkien_vdts_48k-fhg': 'vi_male_ductrong_mb' });
    log('✓ after a reload the table shows what was saved; removing a row saves the smaller table');
    assert.deepEqual(pageErrors, []);
  } finally {
    await browser.close();
    await studio.stop();
  }
}
