/**
 * axe-core on every view of the studio, in a real browser against the real headless server:
 * the sign-in page, then Projects (the list and an open project), Studio (with a generated
 * result), Voices, Voice library, Lexicon, Export, History, Callbacks (a request selected), API
 * and Settings, each in the light and the dark theme, at 1280×800 and at 800×600. Every view must
 * have 0 violations; a violation fails the suite with its rule, element and what to fix, after
 * every view has been checked (so one run lists them all).
 */

import assert from 'node:assert/strict';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { findVoice } from '../../electron/shared/voices';
import { describeVoice } from '../../renderer/src/components/VoiceSelect';
import { axeViolations, describeViolations } from './axe';
import {
  E2E_SERVE_ARGS,
  generateWithRefusedCallback,
  launchBrowser,
  nav,
  SAMPLE_TEXT,
  startStudio,
} from './harness';
import { importAndCast } from './projects.e2e';
import { NAV_LABELS, SMALL, THEMES, VIEWS, WIDE } from './every-view';
import { settled } from './waits';

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

const SIZES = [WIDE, SMALL] as const;

/**
 * Each view of the sidebar but Projects (checked first, list and project open), with the heading
 * that says it has opened (the sidebar's label).
 */
const SIDEBAR_VIEWS: readonly { nav: string; heading: string }[] = VIEWS.filter((v) => v !== 'projects').map(
  (v) => ({ nav: NAV_LABELS[v], heading: NAV_LABELS[v] }),
);

const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true, level: 1 });

/** Generates the sample text in Studio and waits for the result's player. */
async function generate(page: Page): Promise<void> {
  await page.getByLabel('Text to speak').fill(SAMPLE_TEXT);
  await page.getByRole('button', { name: 'Generate' }).click();
  await page
    .getByRole('button', { name: 'Play' })
    .and(page.locator(':not([disabled])'))
    .waitFor({ timeout: 60_000 });
}

/**
 * The Studio's voice picker shows the whole choice (name, language, accent, engine) under the
 * <select>, which cuts its own text off: nothing of it clipped or outside the window.
 */
async function wholeChoiceShown(page: Page, width: number): Promise<void> {
  const picker = page.getByLabel('Voice', { exact: true });
  await picker.selectOption('vi_female_nova_default');
  const choice = page.locator('.voice-choice');
  assert.equal(
    await choice.textContent(),
    describeVoice(findVoice('vi_female_nova_default')!),
    'the chosen voice in words',
  );
  assert.match(
    (await page.getByLabel('Engine of this voice').textContent()) ?? '',
    /^basic eSpeak · Would be natural with \S+ installed$/,
  );
  for (const line of [choice, page.getByLabel('Engine of this voice')]) {
    const box = await line.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= width, 'the line is inside the window');
    assert.ok(await line.evaluate((e) => e.scrollWidth <= e.clientWidth), 'the line is not clipped');
  }
  await picker.selectOption('en_female_elara_br');
}

/** A signed-in session with a project, a request in History and a failed callback; its storage. */
export async function prepare(browser: Browser, url: string, loginUrl: string): Promise<StorageState> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: url });
  try {
    const page = await context.newPage();
    await page.goto(loginUrl);
    await heading(page, 'Studio').waitFor();
    await importAndCast(page);
    await nav(page, 'Studio').click();
    await page.getByLabel('Text to speak').fill(SAMPLE_TEXT);
    await generateWithRefusedCallback(page);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

export async function runAccessibilityE2e(log: (line: string) => void): Promise<void> {
  const studio = await startStudio(E2E_SERVE_ARGS);
  const browser = await launchBrowser();
  const found: string[] = [];
  let checked = 0;
  try {
    const storageState = await prepare(browser, studio.url, studio.loginUrl);
    for (const theme of THEMES) {
      for (const size of SIZES) {
        const where = (view: string) => `${view} (${theme}, ${size.width}×${size.height})`;
        const check = async (page: Page, view: string) => {
          await settled(page);
          const violations = await axeViolations(page);
          checked++;
          if (violations.length > 0) found.push(describeViolations(where(view), violations));
        };

        // The sign-in page, in a context without the session.
        const outside = await browser.newContext({ viewport: size, colorScheme: theme, baseURL: studio.url });
        try {
          const page = await outside.newPage();
          await page.goto('/');
          await heading(page, 'Sign in to Narration Studio').waitFor();
          await check(page, 'Sign in');
        } finally {
          await outside.close();
        }

        const context = await browser.newContext({
          viewport: size,
          colorScheme: theme,
          baseURL: studio.url,
          storageState,
        });
        try {
          const page = await context.newPage();
          const pageErrors: string[] = [];
          page.on('pageerror', (e) => pageErrors.push(e.message));
          await page.goto('/');
          await heading(page, 'Studio').waitFor();
          assert.equal(
            await page.evaluate(() => document.documentElement.dataset.theme),
            theme,
            'the studio follows the system theme',
          );

          // Projects: the list, then the project open.
          await nav(page, 'Projects').click();
          await heading(page, 'Projects').waitFor();
          const project = page.getByRole('list', { name: 'Projects' }).getByRole('listitem').first();
          await project.waitFor();
          await check(page, 'Projects list');
          await project.getByRole('button', { name: 'The Lighthouse', exact: true }).click();
          await page.getByRole('list', { name: 'Segments of Opening' }).waitFor({ timeout: 60_000 });
          await check(page, 'Project open');
          await nav(page, 'Projects').click();
          await heading(page, 'Projects').waitFor();

          for (const view of SIDEBAR_VIEWS) {
            await nav(page, view.nav).click();
            await heading(page, view.heading).waitFor();
            if (view.nav === 'Studio') {
              await generate(page);
              await wholeChoiceShown(page, size.width);
            }
            if (view.nav === 'Callbacks') {
              await page
                .getByRole('list', { name: 'Requests with a callback' })
                .getByRole('button')
                .first()
                .click();
              await page.getByRole('heading', { name: /^Deliveries of / }).waitFor();
            }
            await check(page, view.nav);
          }
          assert.deepEqual(pageErrors, [], 'no error on the page');
        } finally {
          await context.close();
        }
        log(`✓ axe checked every view in the ${theme} theme at ${size.width}×${size.height}`);
      }
    }
    if (found.length > 0) throw new Error(`axe-core found violations:\n${found.join('\n')}`);
    log(`✓ axe-core: 0 violations on ${checked} views (every view, both themes, both sizes)`);
  } finally {
    await browser.close();
    await studio.stop();
  }
}
