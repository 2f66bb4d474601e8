/** `npx tsx test/e2e/picker-shots.ts`: the Studio voice picker and the Voice library at 800×600 and 1280×800, light and dark, in /tmp/shots. */

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, nav, startStudio } from './harness';
import { inEachThemeAndSize, SMALL, WIDE } from './every-view';
import { animationsDone } from './waits';

const OUT = process.env.SHOTS_DIR ?? '/tmp/shots';
mkdirSync(OUT, { recursive: true });
const studio = await startStudio();
const browser = await launchBrowser();
try {
  const first = await browser.newContext({ baseURL: studio.url });
  const signIn = await first.newPage();
  await signIn.goto(studio.loginUrl);
  await signIn.getByRole('heading', { name: 'Studio', exact: true }).waitFor();
  const storageState = await first.storageState();
  await first.close();
  await inEachThemeAndSize(
    browser,
    [SMALL, WIDE],
    { baseURL: studio.url, storageState },
    async (page, theme, size) => {
      await page.goto('/');
      await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();
      const picker = page.getByLabel('Voice', { exact: true });
      await picker.selectOption('vi_female_nova_default');
      await picker.scrollIntoViewIfNeeded();
      await animationsDone(page);
      await page.screenshot({ path: join(OUT, `studio-picker-${theme}-${size.width}.png`) });
      await nav(page, 'Voice library').click();
      await page.getByRole('heading', { name: 'Voice library', exact: true }).waitFor();
      await animationsDone(page);
      await page.screenshot({ path: join(OUT, `voice-library-${theme}-${size.width}.png`) });
    },
  );
} finally {
  await browser.close();
  await studio.stop();
}
