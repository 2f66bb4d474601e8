/**
 * The pronunciation lexicon in a real browser against the real headless server: add an IPA
 * entry on the Lexicon page (a symbol eSpeak cannot read is refused with the server's sentence),
 * test-play it, edit and search; import a CSV file and save an export; select a word in
 * the compose box and add it from there; add an abbreviation and a unit of measure; remove an
 * entry. Role and label selectors throughout.
 */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { launchBrowser, nav, startStudio } from './harness';

export async function runLexiconE2e(log: (line: string) => void): Promise<void> {
  const studio = await startStudio();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(studio.loginUrl);
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();

    await nav(page, 'Lexicon').click();
    await page.getByText('No entries yet.').waitFor();
    await page.getByRole('button', { name: 'Add entry' }).click();
    const form = page.getByRole('form', { name: 'New lexicon entry' });
    await form.getByLabel('Word or phrase').fill('Cholmondeley');
    await form.getByRole('radio', { name: 'IPA' }).check({ force: true });
    const ipa = form.getByRole('textbox', { name: 'IPA' });
    await ipa.fill('ˈtʃʌmliʘ');
    await form.getByRole('button', { name: 'Add to lexicon' }).click();
    await form
      .getByRole('alert')
      .getByText('The IPA symbol "ʘ" (U+0298, character 8) is not supported')
      .waitFor();
    log('✓ an IPA symbol eSpeak cannot read is refused, named with its place');

    // The symbol keys write at the cursor.
    await ipa.fill('tʃʌmli');
    await ipa.press('Home');
    await form.getByRole('button', { name: 'Insert ˈ' }).click();
    assert.equal(await ipa.inputValue(), 'ˈtʃʌmli');
    await form.getByRole('button', { name: 'Add to lexicon' }).click();
    const table = page.getByRole('table', { name: 'Lexicon entries' });
    await table.getByRole('row', { name: /Cholmondeley/ }).waitFor();
    log('✓ added an IPA entry with the symbol keys; it is listed');

    // Test-play the entry: the button reads Stop once the preview plays, Play again at its end.
    await table.getByRole('button', { name: 'Play Cholmondeley' }).click();
    await table
      .getByRole('button', { name: 'Stop Cholmondeley' })
      .filter({ hasText: /^Stop$/ })
      .waitFor({ timeout: 60_000 });
    await table.getByRole('button', { name: 'Play Cholmondeley' }).waitFor({ timeout: 60_000 });
    log('✓ the entry’s preview plays to its end');

    // Edit: match case.
    await table.getByRole('button', { name: 'Edit Cholmondeley' }).click();
    const edit = page.getByRole('form', { name: 'Edit lexicon entry Cholmondeley' });
    await edit.getByLabel('Match case').check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await table
      .getByRole('row', { name: /Cholmondeley/ })
      .getByText('match case')
      .waitFor();
    log('✓ edited the entry');

    // Import a CSV file; search finds its entry; an export link answers the file.
    await page.getByLabel('Import a lexicon file').setInputFiles({
      name: 'names.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('language,match,kind,replacement\nen,Saoirse,ipa,ˈsɪɚʃə\nen,Nguyen,respell,win\n'),
    });
    await page
      .getByRole('status')
      .getByText('Imported names.csv: 2 added, 0 updated, 0 unchanged.')
      .waitFor();
    await page.getByLabel('Search').fill('win');
    await table.getByRole('row', { name: /Nguyen/ }).waitFor();
    assert.equal(await table.getByRole('row').count(), 2, 'the header and one entry');
    await page.getByLabel('Search').fill('');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'lexicon.csv');
    const csv = readFileSync((await download.path())!, 'utf8');
    assert.match(csv, /^\uFEFFlanguage,match,kind,replacement,case_sensitive,whole_word,note\r\n/);
    assert.match(csv, /en,Saoirse,ipa,ˈsɪɚʃə,false,true,/);
    log('✓ imported a CSV file, searched it, and exported the lexicon');

    await addAbbreviationAndUnit(page);
    log(
      '✓ added an abbreviation and a unit (issue 37): kinds chosen, help shown, rules that do not apply hidden',
    );

    await addFromCompose(page);
    log('✓ added a word selected in the compose box');

    await nav(page, 'Lexicon').click();
    await table.getByRole('row', { name: /Featherstonehaugh/ }).waitFor();
    await table.getByRole('button', { name: 'Remove Nguyen' }).click();
    await page
      .getByRole('dialog', { name: 'Remove the pronunciation of “Nguyen”?' })
      .getByRole('button', { name: 'Remove', exact: true })
      .click();
    await table.getByRole('row', { name: /Nguyen/ }).waitFor({ state: 'detached' });
    log('✓ removed an entry');

    assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
  } finally {
    await browser.close();
    await studio.stop();
  }
}

/** Selects a word in the editor, adds it from the popover, after testing the draft. */
async function addFromCompose(page: Page): Promise<void> {
  await nav(page, 'Studio').click();
  const editor = page.getByLabel('Text to speak');
  await editor.fill('Ms Featherstonehaugh waited at the harbour.');
  // Select the word, then release a key (as after Shift+arrows): how the editor notices a selection.
  await editor.evaluate((el: HTMLTextAreaElement) => {
    const start = el.value.indexOf('Featherstonehaugh');
    el.focus();
    el.setSelectionRange(start, start + 'Featherstonehaugh'.length);
  });
  await page.keyboard.press('Shift');
  await page.getByRole('button', { name: 'Add “Featherstonehaugh” to lexicon' }).click();
  const popover = page.getByRole('dialog', { name: 'Add to lexicon' });
  assert.equal(await popover.getByLabel('Word or phrase').inputValue(), 'Featherstonehaugh');
  await popover.getByRole('textbox', { name: 'Respelling' }).fill('fan shaw');
  await popover.getByRole('button', { name: 'Test' }).click();
  await popover.getByRole('button', { name: 'Stop' }).waitFor({ timeout: 60_000 });
  await popover.getByRole('button', { name: 'Test' }).waitFor({ timeout: 60_000 });
  await popover.getByRole('button', { name: 'Add to lexicon' }).click();
  await page.getByRole('status').getByText('“Featherstonehaugh” is in the lexicon').waitFor();
}

/**
 * An abbreviation ("Cty." → "công ty": matched in the case written by default, whole words
 * always) and a unit ("kn" → "hải lý", read after a number: the case and whole-word boxes do not
 * apply), each with its help line; both listed with their kind. The unit's Test plays "2 kn".
 */
async function addAbbreviationAndUnit(page: Page): Promise<void> {
  const table = page.getByRole('table', { name: 'Lexicon entries' });
  const addOne = async (kind: 'Abbreviation' | 'Unit', match: string, words: string, wordsLabel: string) => {
    await page.getByRole('button', { name: 'Add entry' }).click();
    const form = page.getByRole('form', { name: 'New lexicon entry' });
    await form.getByLabel('Language').selectOption('vi');
    await form.getByLabel('Word or phrase').fill(match);
    await form.getByRole('radio', { name: kind }).check({ force: true });
    await form.getByRole('textbox', { name: wordsLabel }).fill(words);
    return form;
  };
  const abbreviation = await addOne('Abbreviation', 'Cty.', 'công ty', 'Its words');
  await abbreviation.getByText('with or without its full stop').waitFor();
  assert.equal(
    await abbreviation.getByLabel('Match case').isChecked(),
    true,
    'an abbreviation matches its case',
  );
  assert.equal(await abbreviation.getByLabel('Whole words only').count(), 0, 'always whole words');
  await abbreviation.getByRole('button', { name: 'Add to lexicon' }).click();
  await table.getByRole('row', { name: /Cty\./ }).getByText('abbreviation', { exact: true }).waitFor();

  const unit = await addOne('Unit', 'kn', 'hải lý', 'Words after a number');
  await unit.getByText('Read after a number').waitFor();
  assert.equal(await unit.getByLabel('Match case').count(), 0, 'a symbol is matched as written');
  assert.equal(await unit.getByLabel('Whole words only').count(), 0);
  await unit.getByRole('button', { name: 'Test' }).click();
  await unit.getByRole('button', { name: 'Stop' }).waitFor({ timeout: 60_000 });
  await unit.getByRole('button', { name: 'Test' }).waitFor({ timeout: 60_000 });
  await unit.getByRole('button', { name: 'Add to lexicon' }).click();
  await table
    .getByRole('row', { name: /hải lý/ })
    .getByText('unit after a number')
    .waitFor();
}
