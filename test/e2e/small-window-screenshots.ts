/**
 * `npx tsx test/e2e/small-window-screenshots.ts` (after `npm run build:ui`): the studio in an
 * 800 × 600 window, light and dark, in docs/screenshots/small-*.png — Studio, Callbacks, History
 * with a request's details, Projects (the list and an open book), and the collapsed sidebar with
 * a label shown on keyboard focus.
 */

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  E2E_SERVE_ARGS,
  generateWithRefusedCallback,
  launchBrowser,
  nav,
  SAMPLE_TEXT,
  startStudio,
} from './harness';
import { importSmallBook } from './small-windows.e2e';
import { shooter, SMALL, THEMES } from './every-view';

const OUT = join(process.cwd(), 'docs/screenshots');
mkdirSync(OUT, { recursive: true });

const studio = await startStudio(E2E_SERVE_ARGS);
const browser = await launchBrowser();
try {
  for (const scheme of THEMES) {
    const context = await browser.newContext({
      viewport: SMALL,
      colorScheme: scheme,
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    const path = (name: string) => join(OUT, `small-${name}-${scheme}.png`);
    // The pointer off the sidebar (its labels show on hover), unless the shot is about that.
    const shot = shooter(page, { beforeSettle: (p) => p.mouse.move(790, 590), path });
    const shotWithHover = shooter(page, { path });
    await page.goto(studio.loginUrl);
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();
    await page.getByLabel('Text to speak').fill(SAMPLE_TEXT);
    await generateWithRefusedCallback(page);
    await shot('callbacks');
    await nav(page, 'Studio').click();
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();
    await shot('studio');
    await nav(page, 'History').click();
    await page
      .getByRole('table', { name: 'Requests' })
      .getByRole('button', { name: /details of request/ })
      .first()
      .click();
    await page.getByRole('heading', { name: /^Request / }).waitFor();
    await shot('history');
    await importSmallBook(page, `Harbour book ${scheme}`);
    await shot('project');
    await nav(page, 'Projects').click();
    await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
    await shot('projects');
    // The collapsed sidebar: a view's label beside its icon while the button has the focus.
    await nav(page, 'Voice library').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await shotWithHover('sidebar-focus');
    await page.goto(`${studio.url}/#/projects/no-such-project`);
    await page.getByRole('alert').waitFor();
    await shot('project-missing');
    await context.close();
  }
} finally {
  await browser.close();
  await studio.stop();
}
