/**
 * The Export page in a real browser against the real headless server: a short book with three
 * chapters (a `[chapter: …]` line and two headings), title, author and a cover, exported as an
 * ACX M4B; the page follows the export to its end and shows the chapter list, the loudness report
 * (ACX's checks passing) and the downloads, which answer the book and the report. Then an export
 * is cancelled, and removed from the recent list. The same text generated in the Studio shows
 * its chapters in the preview, which jumps to one. Role and label selectors throughout.
 */

import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { launchBrowser, nav, startStudio } from './harness';

/** The book the page exports: three chapters. */
export const EXPORT_BOOK = `[chapter: Opening]
The lighthouse keeper climbed the stairs at dusk.

# The Storm

Far below, the sea rolled in long grey lines, and the wind rose.

# Morning

She lit the lamp again, and the small boat came home.
`;

export const EXPORT_CHAPTERS = ['Opening', 'The Storm', 'Morning'];

/** A 16 × 16 PNG cover (a plain colour), made here so the test needs no file. */
function coverPng(): Buffer {
  // IHDR, one IDAT of 16 rows of filter byte 0 + 16 RGB pixels (stored deflate), IEND.
  const width = 16;
  const rows = Buffer.alloc((1 + width * 3) * width);
  for (let y = 0; y < width; y++) {
    for (let x = 0; x < width; x++) rows.set([64, 86, 214], y * (1 + width * 3) + 1 + x * 3);
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const adler = (bytes: Buffer) => {
    let a = 1;
    let b = 0;
    for (const byte of bytes) {
      a = (a + byte) % 65521;
      b = (b + a) % 65521;
    }
    return ((b << 16) | a) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(width, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const stored = Buffer.alloc(5);
  stored[0] = 1;
  stored.writeUInt16LE(rows.length, 1);
  stored.writeUInt16LE(~rows.length & 0xffff, 3);
  const zlib = Buffer.concat([Buffer.from([0x78, 0x01]), stored, rows, Buffer.alloc(4)]);
  zlib.writeUInt32BE(adler(rows), zlib.length - 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Opens the Export page, fills the book in and exports it as an ACX M4B; resolves once the page
 * shows the finished export (also used by the screenshots).
 */
export async function showExport(page: Page): Promise<void> {
  await nav(page, 'Export').click();
  await page.getByRole('heading', { name: 'Export', exact: true }).waitFor();
  await page.getByLabel('Book text').fill(EXPORT_BOOK);
  await page.getByLabel('Title').fill('The Lighthouse');
  await page.getByLabel('Author').fill('Ann Author');
  await page.getByLabel('Cover (JPEG or PNG, at most 2 MiB)').setInputFiles({
    name: 'cover.png',
    mimeType: 'image/png',
    buffer: coverPng(),
  });
  await page.getByRole('img', { name: 'Cover: cover.png' }).waitFor();
  await page.getByLabel('Voice', { exact: true }).selectOption('en_female_nova_default');
  await page.getByLabel('Mastering preset').selectOption('acx');
  await page.getByLabel('Format').selectOption('m4b');
  await page.getByRole('button', { name: 'Export book' }).click();
  await page.getByRole('table', { name: 'Chapters' }).waitFor({ timeout: 120_000 });
}

export async function runExportE2e(log: (line: string) => void): Promise<void> {
  const studio = await startStudio();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(studio.loginUrl);
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();

    // The progress shows while the export runs; its status and bar come from the event stream.
    const progressSeen = page
      .getByRole('progressbar', { name: 'Export progress' })
      .waitFor({ timeout: 60_000 })
      .then(() => true);
    await showExport(page);
    assert.equal(await progressSeen, true);
    const result = page.getByRole('region', { name: 'Export result' });
    await result.getByRole('status').getByText('SUCCESS').waitFor();
    log('✓ a three-chapter book exported from the Export page, with live progress');

    const chapters = page.getByRole('table', { name: 'Chapters' });
    const rows = chapters.getByRole('row');
    assert.equal(await rows.count(), 1 + EXPORT_CHAPTERS.length);
    for (const [i, title] of EXPORT_CHAPTERS.entries()) {
      const cells = rows.nth(i + 1).getByRole('cell');
      assert.equal(await cells.nth(1).textContent(), title);
    }
    assert.equal(await rows.nth(1).getByRole('cell').nth(2).textContent(), '0:00.0');
    log('✓ the chapter list shows the three chapters, the first at 0:00.0');

    const report = page.getByRole('table', { name: /^Loudness/ });
    const fileRow = report.getByRole('row').nth(1);
    await fileRow.getByText('pass', { exact: true }).waitFor();
    const rms = (await fileRow.getByRole('cell').nth(2).textContent()) ?? '';
    const rmsDb = Number(/(-?[\d.]+) dBFS/.exec(rms)?.[1]);
    assert.ok(rmsDb >= -23 && rmsDb <= -18, `ACX RMS within −23…−18 dBFS, got ${rms}`);
    log(`✓ the loudness report shows the file passing ACX's checks (RMS ${rms})`);

    // The downloads answer the book and the report.
    const bookHref = await page.getByRole('link', { name: 'Download M4B' }).getAttribute('href');
    const reportHref = await page.getByRole('link', { name: 'Loudness report (JSON)' }).getAttribute('href');
    const book = await page.request.get(bookHref!);
    assert.equal(book.status(), 200);
    assert.equal(book.headers()['content-type'], 'audio/mp4');
    const body = await book.body();
    assert.equal(body.subarray(4, 8).toString('latin1'), 'ftyp');
    const reportJson = (await (await page.request.get(reportHref!)).json()) as {
      preset: string;
      title: string;
      files: { chapters: { title: string }[] }[];
    };
    assert.equal(reportJson.preset, 'acx');
    assert.equal(reportJson.title, 'The Lighthouse');
    assert.deepEqual(
      reportJson.files[0]!.chapters.map((c) => c.title),
      EXPORT_CHAPTERS,
    );
    log('✓ the downloads answer the M4B and its loudness report');

    // A longer book, cancelled while it runs: refunded, shown as cancelled; then removed.
    await page
      .getByLabel('Book text')
      .fill(`# Long\n\n${'The river ran on past the mill and under the old stone bridge. '.repeat(150)}`);
    await page.getByLabel('Title').fill('To Cancel');
    await page.getByRole('button', { name: 'Export book' }).click();
    await page.getByRole('button', { name: 'Cancel export' }).click();
    await page.getByText('Cancelled. The credits were refunded.').waitFor({ timeout: 30_000 });
    const recent = page.getByRole('table', { name: 'Recent exports' });
    await recent
      .getByRole('row', { name: /To Cancel/ })
      .getByText('CANCELLED')
      .waitFor();
    await recent.getByRole('button', { name: 'Remove export To Cancel' }).click();
    await recent.getByRole('row', { name: /To Cancel/ }).waitFor({ state: 'detached' });
    assert.equal(await recent.getByRole('row', { name: /The Lighthouse/ }).count(), 1);
    log('✓ an export is cancelled from the page, then removed from the recent list');

    // The same text as a plain request: the preview lists its chapters and jumps to one.
    await nav(page, 'Studio').click();
    await page.getByLabel('Text to speak').fill(EXPORT_BOOK);
    await page.getByRole('button', { name: 'Generate' }).click();
    await page
      .getByRole('button', { name: 'Play' })
      .and(page.locator(':not([disabled])'))
      .waitFor({ timeout: 60_000 });
    const chapterList = page.getByRole('list', { name: 'Chapters' });
    await chapterList
      .getByRole('button')
      .nth(EXPORT_CHAPTERS.length - 1)
      .waitFor();
    const labels = await chapterList.getByRole('button').allTextContents();
    assert.deepEqual(
      labels.map((l) => l.replace(/^\S+\s+/, '')),
      EXPORT_CHAPTERS,
    );
    const last = chapterList.getByRole('button', { name: /Morning$/ });
    await last.click();
    await page.locator('button[aria-current="true"]', { hasText: 'Morning' }).waitFor();
    const start = /^(\S+)/.exec(labels.at(-1)!)![1]!;
    const shown = await page.getByLabel('Current time and duration').textContent();
    assert.ok(shown?.startsWith(start), `the player moved to the chapter: ${shown} (chapter at ${start})`);
    log('✓ the preview lists the chapters of a plain request and jumps to one');

    // The Export page takes the Studio's text.
    await nav(page, 'Export').click();
    await page.getByLabel('Book text').fill('');
    await page.getByRole('button', { name: 'Use the Studio text' }).click();
    assert.equal(await page.getByLabel('Book text').inputValue(), EXPORT_BOOK);

    assert.deepEqual(pageErrors, []);
  } finally {
    await browser.close();
    await studio.stop();
  }
}
