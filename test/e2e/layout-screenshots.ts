/**
 * `npx tsx test/e2e/layout-screenshots.ts` (after `npm run build:ui`): History (two requests with
 * a callback), the Studio (a custom voice of an 80-character name chosen) and the Voice library
 * (a pack of a long id) at 800, 1024, 1280 and 1920 px wide, light and dark, in
 * docs/screenshots/layout-<view>-<width>-<theme>.png, with the data of the layouts e2e.
 */

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { E2E_SERVE_ARGS, launchBrowser, startStudio, startVoiceMirror } from './harness';
import { shooter, THEMES } from './every-view';
import { LAYOUT_SIZES, LONG_PACK_ID, longPackEntry, prepareLongThings } from './layouts.e2e';

const OUT = join(process.cwd(), 'docs/screenshots');
mkdirSync(OUT, { recursive: true });

const voiceMirror = await startVoiceMirror([longPackEntry()]);
const studio = await startStudio([...E2E_SERVE_ARGS, ...voiceMirror.args]);
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: LAYOUT_SIZES[2], deviceScaleFactor: 1 });
  await page.goto(studio.loginUrl);
  await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();
  await prepareLongThings(page);
  const views = [
    ['history', 'History'],
    ['studio', 'Studio'],
    ['library', 'Voice library'],
  ] as const;
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    for (const size of LAYOUT_SIZES) {
      await page.setViewportSize(size);
      const shot = shooter(page, {
        // The pointer off the sidebar (its labels show on hover in a small window).
        beforeSettle: (p) => p.mouse.move(size.width - 10, size.height - 10),
        path: (name) => join(OUT, `layout-${name}-${size.width}-${theme}.png`),
        note: async (p) =>
          p.evaluate(() => {
            const root = document.scrollingElement!;
            return root.scrollWidth > root.clientWidth ? ` (scrolls sideways: ${root.scrollWidth})` : '';
          }),
      });
      for (const [view, heading] of views) {
        await page.evaluate((h) => (location.hash = h), `#/${view}`);
        await page.getByRole('heading', { name: heading, exact: true, level: 1 }).waitFor();
        if (view === 'history')
          await page.getByRole('table', { name: 'Requests' }).getByRole('row').nth(2).waitFor();
        if (view === 'library')
          await page.getByRole('listitem', { name: `Voice pack ${LONG_PACK_ID}` }).waitFor();
        await shot(view);
      }
    }
  }
} finally {
  await browser.close();
  await studio.stop();
  await voiceMirror.close();
}
