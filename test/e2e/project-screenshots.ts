/**
 * `npx tsx test/e2e/project-screenshots.ts`: PNGs of the book projects' views in
 * docs/screenshots/ — the Projects list, the project view with the player, the cast panel, the export tab — at
 * 1280 × 800 and 800 × 600, light and dark, from a DOCX imported, cast and rendered for real.
 */

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { writeDocx, type BookDescription } from '../fixtures/manuscripts';
import { launchBrowser, nav, startStudio } from './harness';
import { PROJECT_BOOK } from '../fixtures/project-book';
import { importAndCast } from './projects.e2e';
import { inEachThemeAndSize, shooter, SMALL, WIDE } from './every-view';

const OUT = join(process.cwd(), 'docs/screenshots');
mkdirSync(OUT, { recursive: true });

const SIZES = [
  { name: '', ...WIDE },
  { name: '-small', ...SMALL },
] as const;

/** A second book, so the list shows more than one. */
const SECOND_BOOK: BookDescription = {
  title: 'Letters from the Harbour',
  author: 'M. Nguyen',
  language: 'en',
  chapters: [
    { title: 'Spring', paragraphs: ['The boats came back with the tide.', 'Nobody spoke of the storm.'] },
    { title: 'Summer', paragraphs: ['The nets dried on the wall.'] },
  ],
};

const studio = await startStudio();
const browser = await launchBrowser();
try {
  const setup = await browser.newPage({ viewport: { width: 1280, height: 800 }, baseURL: studio.url });
  await setup.goto(studio.loginUrl);
  await setup.getByRole('heading', { name: 'Studio', exact: true }).waitFor();
  await nav(setup, 'Projects').click();
  await setup.getByLabel(/^Manuscript file/).setInputFiles({
    name: 'letters.docx',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(await writeDocx(SECOND_BOOK)),
  });
  await setup.getByRole('list', { name: 'Segments of Spring' }).waitFor({ timeout: 30_000 });
  await importAndCast(setup);
  await setup.getByRole('button', { name: 'Render chapter' }).click();
  await setup
    .getByRole('region', { name: 'Render' })
    .getByRole('status')
    .getByText('done', { exact: true })
    .waitFor({ timeout: 180_000 });
  await setup.close();

  await inEachThemeAndSize(
    browser,
    SIZES,
    { deviceScaleFactor: 1, baseURL: studio.url },
    async (page, scheme, size) => {
      const shot = shooter(page, {
        path: (name) => join(OUT, `${name}${size.name}-${scheme}.png`),
        note: async (p) =>
          (await p.evaluate(
            () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
          ))
            ? '  (SCROLLS SIDEWAYS)'
            : '',
      });
      await page.goto(studio.loginUrl);
      await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();
      await nav(page, 'Projects').click();
      await page.getByRole('list', { name: 'Projects' }).getByRole('listitem').nth(1).waitFor();
      await shot('projects');
      await page.getByRole('button', { name: PROJECT_BOOK.title, exact: true }).click();
      await page.getByRole('list', { name: 'Segments of Opening' }).waitFor();
      await playAndOpen(page);
      await shot('project-player');
      await page.getByRole('tab', { name: 'Cast' }).click();
      await page.getByRole('list', { name: 'Characters' }).waitFor();
      await shot('project-cast');
      await page.getByRole('tab', { name: 'Export' }).click();
      await page.getByRole('heading', { name: 'Spoken headings and credits' }).waitFor();
      await shot('project-export');
    },
  );
} finally {
  await browser.close();
  await studio.stop();
}

/** Plays the chapter from its second segment, pauses on a lit word, and opens a segment's editor. */
async function playAndOpen(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Segment 3:/ }).click();
  await page.getByRole('button', { name: 'Play from segment 2' }).click();
  const word = page.getByTestId('current-word');
  await word.waitFor({ timeout: 60_000 });
  // Paused once the playing word has moved on from the first one lit.
  const first = await word.textContent();
  await page.waitForFunction(
    (was) => document.querySelector('[data-testid="current-word"]')?.textContent !== was,
    first,
    { timeout: 60_000 },
  );
  await page.getByRole('button', { name: 'Pause chapter' }).click();
}
