/**
 * The quick studio text in a real browser against the real headless server: Clear asks first
 * (a modal dialog), empties the draft and Undo brings it back; a reload keeps it. Opening a DOCX
 * (written by the docx package) asks before replacing the draft and shows its chapters as `#`
 * headings and text, never zip bytes; Undo brings the draft back; a picture gets the server's
 * message and the draft stays. The Export page keeps its text and title across views.
 * Screenshots of the dialog and of the Undo toast: docs/screenshots/quick-studio-*.png.
 */

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latinBytes, TAT_DEN, toTcvn3 } from '../fixtures/legacy-vietnamese';
import { expectedParagraph, VIETNAMESE_BOOK, writeDocx } from '../fixtures/manuscripts';
import { launchBrowser, nav, startStudio } from './harness';

const DRAFT = 'The lighthouse keeper climbed the stairs at dusk.\n\nShe lit the lamp and watched the sea.';
const SHOTS = join(process.cwd(), 'docs/screenshots');

export async function runQuickStudioE2e(log: (line: string) => void): Promise<void> {
  const studio = await startStudio();
  const browser = await launchBrowser();
  const files = mkdtempSync(join(tmpdir(), 'quick-studio-e2e-'));
  try {
    const docxPath = join(files, 'Truyện Kiều.docx');
    writeFileSync(docxPath, await writeDocx(VIETNAMESE_BOOK));
    const pngPath = join(files, 'cover.png');
    writeFileSync(pngPath, readFileSync(join(process.cwd(), 'assets/icons/32x32.png')));

    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    // A native confirm() would be a dialog event: the studio asks with its own modal instead.
    page.on('dialog', (d) => {
      pageErrors.push(`unexpected native ${d.type()} dialog: ${d.message()}`);
      void d.dismiss();
    });
    await page.goto(studio.loginUrl);
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();
    const editor = page.getByLabel('Text to speak');

    // Clear asks; Cancel keeps the draft.
    await editor.fill(DRAFT);
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    const clearDialog = page.getByRole('dialog', { name: 'Clear the draft?' });
    await clearDialog.waitFor();
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'quick-studio-clear-dialog.png') });
    await clearDialog.getByRole('button', { name: 'Cancel' }).click();
    await clearDialog.waitFor({ state: 'hidden' });
    assert.equal(await editor.inputValue(), DRAFT);
    log('✓ Clear asks first (a modal dialog); Cancel keeps the draft');

    // Clear → confirm → empty → Undo → back, and the toast said what happened.
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await clearDialog.getByRole('button', { name: 'Clear draft' }).click();
    await page.getByText('Draft cleared.').waitFor();
    assert.equal(await editor.inputValue(), '');
    // Once autosave has stored the empty draft (the old one is kept apart from it), a reload still offers Undo.
    await page.waitForFunction(() => localStorage.getItem('narration-studio.draft') === '');
    await page.reload();
    await page.getByText('Draft cleared.').waitFor();
    assert.equal(await editor.inputValue(), '');
    await page.screenshot({ path: join(SHOTS, 'quick-studio-undo-toast.png') });
    await page.getByRole('button', { name: 'Undo' }).click();
    assert.equal(await editor.inputValue(), DRAFT);
    await page.getByText('Draft cleared.').waitFor({ state: 'hidden' });
    log(
      '✓ confirmed Clear empties the draft; Undo brings it back, even after a reload (autosave did not lose it)',
    );

    // The editor's own Ctrl+Z takes a Clear back too.
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await clearDialog.getByRole('button', { name: 'Clear draft' }).click();
    assert.equal(await editor.inputValue(), '');
    await editor.focus();
    await page.keyboard.press('Control+z');
    assert.equal(await editor.inputValue(), DRAFT);
    await page.getByText('Draft cleared.').waitFor({ state: 'hidden' });
    log('✓ Ctrl+Z in the editor undoes Clear as well');

    // Opening a DOCX asks, then shows its chapters as # headings and their text.
    const opener = page.getByRole('button', { name: 'Open DOCX, EPUB, PDF, text…' });
    await opener.waitFor();
    await page.getByLabel(/Open a manuscript/).setInputFiles(docxPath);
    const replaceDialog = page.getByRole('dialog', { name: 'Replace the draft?' });
    await replaceDialog.waitFor({ timeout: 60_000 });
    assert.match((await replaceDialog.textContent()) ?? '', /Truyện Kiều\.docx/);
    await page.screenshot({ path: join(SHOTS, 'quick-studio-replace-dialog.png') });
    await replaceDialog.getByRole('button', { name: 'Replace draft' }).click();
    await page.getByText('Draft replaced by the text of “Truyện Kiều.docx”.').waitFor();
    const opened = await editor.inputValue();
    for (const chapter of VIETNAMESE_BOOK.chapters) {
      assert.ok(
        opened.includes(`# ${chapter.title}\n\n${expectedParagraph(chapter.paragraphs[0]!).text}`),
        chapter.title,
      );
    }
    assert.ok(!opened.includes('PK') && !opened.includes('word/'), 'no zip bytes in the editor');
    await page.screenshot({ path: join(SHOTS, 'quick-studio-opened-docx.png') });
    await page.getByRole('button', { name: 'Undo' }).click();
    assert.equal(await editor.inputValue(), DRAFT);
    log(
      `✓ a DOCX opens as ${VIETNAMESE_BOOK.chapters.length}+ chapters with # headings after asking; Undo brings the draft back`,
    );

    // A picture: the server's message, the draft untouched, no question asked.
    await page.getByLabel(/Open a manuscript/).setInputFiles(pngPath);
    const alert = page.getByRole('alert').filter({ hasText: 'cover.png' });
    await alert.waitFor({ timeout: 60_000 });
    assert.match((await alert.textContent()) ?? '', /"cover\.png" is not a manuscript we can read/);
    assert.equal(await editor.inputValue(), DRAFT);
    assert.equal(await page.getByRole('dialog').count(), 0);
    log('✓ a .png gets the server’s message; the draft stays as it was');

    /** Opens a file written with `bytes` in place of the draft and waits for the note saying how it was read. */
    const openReplacing = async (name: string, bytes: Uint8Array, note: string | RegExp) => {
      const path = join(files, name);
      writeFileSync(path, bytes);
      await page.getByLabel(/Open a manuscript/).setInputFiles(path);
      await page
        .getByRole('dialog', { name: 'Replace the draft?' })
        .getByRole('button', { name: 'Replace draft' })
        .click();
      await page.getByRole('status').getByText(note).waitFor({ timeout: 60_000 });
    };

    // A TCVN3 text file (an old Vietnamese encoding): converted to Unicode, and the studio says so.
    await openReplacing(
      'tat-den.txt',
      latinBytes(toTcvn3(TAT_DEN)),
      '“tat-den.txt” was in TCVN3 (ABC), an old Vietnamese encoding: its text was converted to Unicode.',
    );
    // The paragraph in Unicode after its chapter line (whose name the book's language decides).
    assert.ok((await editor.inputValue()).endsWith(`\n\n${TAT_DEN}`), 'the Unicode paragraph');
    await page.screenshot({ path: join(SHOTS, 'quick-studio-opened-tcvn3.png') });
    await page.getByRole('button', { name: 'Undo' }).click();
    assert.equal(await editor.inputValue(), DRAFT);
    assert.equal(await page.getByText('an old Vietnamese encoding').count(), 0, 'the note goes with Undo');
    log('✓ a TCVN3 .txt opens as Unicode Vietnamese with a note that it was converted');

    // A Windows-1252 text file (as older Windows editors save): read, and the studio names the encoding.
    await openReplacing(
      'cafe.txt',
      Buffer.from('The caf\xe9 was quiet \x97 na\xefve, \x93kind\x94 and d\xe9j\xe0 vu.\n', 'latin1'),
      /^“cafe\.txt” was read as Windows-1252 text \(the file is not UTF-8/,
    );
    assert.ok(
      (await editor.inputValue()).endsWith('The café was quiet — naïve, “kind” and déjà vu.'),
      'the Windows-1252 letters and punctuation',
    );
    await page.screenshot({ path: join(SHOTS, 'quick-studio-opened-cp1252.png') });
    await page.getByRole('button', { name: 'Undo' }).click();
    assert.equal(await editor.inputValue(), DRAFT);
    log('✓ a Windows-1252 .txt opens with a note naming its encoding');

    // The Export page keeps its text and title across views (and a reload).
    await nav(page, 'Export').click();
    await page.getByLabel('Book text').fill('# One\n\nA book that must not be forgotten.');
    await page.getByLabel('Title').fill('The Kept Book');
    await page.getByLabel('Author').fill('Ann Author');
    await nav(page, 'Voices').click();
    await nav(page, 'Export').click();
    assert.equal(
      await page.getByLabel('Book text').inputValue(),
      '# One\n\nA book that must not be forgotten.',
    );
    assert.equal(await page.getByLabel('Title').inputValue(), 'The Kept Book');
    assert.equal(await page.getByLabel('Author').inputValue(), 'Ann Author');
    // Reloaded once autosave has stored the draft.
    await page.waitForFunction(() => {
      const stored = localStorage.getItem('narration-studio.export-draft') ?? '';
      return (
        stored.includes('The Kept Book') &&
        stored.includes('Ann Author') &&
        stored.includes('must not be forgotten')
      );
    });
    await page.reload();
    await nav(page, 'Export').click();
    assert.equal(await page.getByLabel('Title').inputValue(), 'The Kept Book');
    log('✓ the Export page keeps text, title and author after visiting Voices (and a reload)');

    assert.deepEqual(pageErrors, []);
  } finally {
    await browser.close();
    await studio.stop();
    rmSync(files, { recursive: true, force: true });
  }
}

// `npx tsx test/e2e/quick-studio.e2e.ts`: this file alone.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/test\//, 'test/'))) {
  await runQuickStudioE2e((line) => process.stdout.write(`${line}\n`));
}
