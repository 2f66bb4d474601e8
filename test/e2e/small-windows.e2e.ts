/**
 * Small and ordinary windows, in a real browser against the real headless server: at 800 × 600
 * and 1280 × 800, every view (with something in it: a generated request with a refused callback,
 * an imported book opened in Projects) is measured — the page never scrolls sideways
 * (document.scrollingElement.scrollWidth ≤ clientWidth) and every visible control of the view
 * lies inside the window (getBoundingClientRect), with the Studio editor and Callbacks' Resend
 * button and columns checked by name. The sidebar is collapsed to icons at 800 (each button still
 * named, its label shown on focus) and expanded at 1280. "Skip to content" is the first Tab stop
 * and moves the focus to <main>.
 */

import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  E2E_SERVE_ARGS,
  generateWithRefusedCallback,
  launchBrowser,
  nav,
  SAMPLE_TEXT,
  startStudio,
} from './harness';
import { NAV_LABELS, SMALL, VIEWS, WIDE } from './every-view';
import { animationsDone } from './waits';

export const SIZES = [SMALL, WIDE] as const;

/** A Markdown book of two chapters, imported through the Projects view's file input. */
export const SMALL_BOOK = Buffer.from(
  '# The harbour\n\nThe boats came in at dusk. "We are late," said Mara.\n\n# The lamp\n\nShe lit the lamp and watched the beam.\n',
);

/** Imports SMALL_BOOK in Projects; resolves once the book is open. */
export async function importSmallBook(page: Page, title = 'Harbour book'): Promise<void> {
  await nav(page, 'Projects').click();
  await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
  await page
    .getByLabel(/^Manuscript file/)
    .setInputFiles({ name: `${title}.md`, mimeType: 'text/markdown', buffer: SMALL_BOOK });
  await page.getByRole('heading', { name: title, exact: true }).waitFor({ timeout: 30_000 });
}

export interface Measure {
  scrollWidth: number;
  clientWidth: number;
  /** Visible controls of <main> that reach outside the window: "button Resend callback right=812". */
  outside: string[];
}

/** Sideways scroll of the page, and the controls of <main> outside the window. */
export async function measure(page: Page): Promise<Measure> {
  return page.evaluate(() => {
    const root = document.scrollingElement!;
    const width = root.clientWidth;
    const outside: string[] = [];
    const main = document.querySelector('main')!;
    for (const el of main.querySelectorAll<HTMLElement>(
      'button, input, select, textarea, a[href], th, [role="tab"]',
    )) {
      const box = el.getBoundingClientRect();
      // Hidden (display: none, closed <details>) or visually hidden (1 px, clipped) controls.
      if (box.width <= 1 || box.height <= 1) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.clipPath.startsWith('inset')) continue;
      if (box.left < -0.5 || box.right > width + 0.5) {
        const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
        outside.push(
          `${el.tagName.toLowerCase()} "${name}" left=${Math.round(box.left)} right=${Math.round(box.right)}`,
        );
      }
    }
    return { scrollWidth: root.scrollWidth, clientWidth: width, outside };
  });
}

/** The box of a locator's element, asserted inside the window. */
async function assertInside(
  page: Page,
  what: string,
  box: { x: number; width: number } | null,
): Promise<void> {
  assert.ok(box, `${what} is shown`);
  const width = page.viewportSize()!.width;
  assert.ok(
    box.x >= 0 && box.x + box.width <= width + 0.5,
    `${what} lies inside the window: ${box.x}+${box.width} of ${width}`,
  );
}

export async function runSmallWindowsE2e(log: (line: string) => void): Promise<void> {
  const studio = await startStudio(E2E_SERVE_ARGS);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(studio.loginUrl);
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();

    // Something in every list: a request whose callback failed (History, Callbacks) and a book.
    await page.getByLabel('Text to speak').fill(SAMPLE_TEXT);
    await generateWithRefusedCallback(page);
    await importSmallBook(page);
    log('✓ a request with a refused callback and an imported book to look at');

    for (const size of SIZES) {
      await page.setViewportSize(size);
      const sidebar = page.getByRole('navigation', { name: 'Main' });
      const navWidth = (await sidebar.boundingBox())!.width;
      const collapsed = size.width < 1000;
      if (collapsed)
        assert.ok(navWidth <= 72, `the sidebar is collapsed to icons at ${size.width}: ${navWidth} px`);
      else assert.ok(navWidth >= 180, `the sidebar is expanded at ${size.width}: ${navWidth} px`);
      // Every view's button keeps its name; its label shows when it has the focus.
      const label = sidebar.getByText('Export', { exact: true });
      await nav(page, 'Export').focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      const labelBox = await label.boundingBox();
      assert.ok(labelBox && labelBox.width > 20, `the label "Export" is visible on focus at ${size.width}`);
      if (collapsed) {
        await page.mouse.move(size.width - 10, size.height - 10);
        await page.locator('main').click({ position: { x: 5, y: 5 } });
        const hidden = await label.boundingBox();
        assert.ok(!hidden || hidden.width <= 1, 'the label is hidden again without hover or focus');
      }

      const figures: string[] = [];
      const problems: string[] = [];
      for (const view of VIEWS) {
        await nav(page, NAV_LABELS[view]).click();
        if (view === 'projects') {
          // The book, open (Projects clicked in Projects shows the list).
          const allProjects = page.getByRole('button', { name: '← All projects' });
          const title = page
            .getByRole('list', { name: 'Projects' })
            .getByRole('button', { name: 'Harbour book', exact: true });
          await allProjects.or(title).waitFor();
          if (await title.isVisible()) await title.click();
          await allProjects.waitFor();
        } else await page.getByRole('heading', { name: NAV_LABELS[view], exact: true, level: 1 }).waitFor();
        await animationsDone(page);
        const m = await measure(page);
        if (m.scrollWidth > m.clientWidth)
          problems.push(`${view} scrolls sideways: ${m.scrollWidth} > ${m.clientWidth}`);
        for (const control of m.outside) problems.push(`${view}: ${control} is outside the window`);
        figures.push(`${view} ${m.scrollWidth}/${m.clientWidth}`);
      }
      // The list of projects, and a request's details in History.
      await nav(page, 'Projects').click();
      await page.getByRole('button', { name: '← All projects' }).click();
      await page.getByRole('heading', { name: 'Projects', exact: true, level: 1 }).waitFor();
      const projectList = await measure(page);
      await nav(page, 'History').click();
      await page
        .getByRole('table', { name: 'Requests' })
        .getByRole('button', { name: /details of request/ })
        .first()
        .click();
      await page.getByRole('button', { name: 'Close details' }).waitFor();
      await animationsDone(page);
      const requestDetails = await measure(page);
      await page.getByRole('button', { name: 'Close details' }).click();
      for (const [what, m] of [
        ['the project list', projectList],
        ['a request in History', requestDetails],
      ] as const) {
        if (m.scrollWidth > m.clientWidth)
          problems.push(`${what} scrolls sideways: ${m.scrollWidth} > ${m.clientWidth}`);
        for (const control of m.outside) problems.push(`${what}: ${control} is outside the window`);
        figures.push(`${what} ${m.scrollWidth}/${m.clientWidth}`);
      }
      assert.deepEqual(problems, [], `at ${size.width}×${size.height}`);
      log(
        `✓ ${size.width}×${size.height}: sidebar ${collapsed ? 'collapsed' : 'expanded'} (${Math.round(navWidth)} px), ` +
          `no view scrolls sideways, every control inside the window (${figures.join(', ')})`,
      );

      // The named controls of the issue.
      await nav(page, 'Studio').click();
      const editor = page.getByLabel('Text to speak');
      const editorBox = await editor.boundingBox();
      await assertInside(page, 'the Studio editor', editorBox);
      assert.ok(
        editorBox!.width >= 380,
        `the Studio editor is wide enough at ${size.width}: ${editorBox!.width} px`,
      );
      await assertInside(
        page,
        'Generate',
        await page.getByRole('button', { name: 'Generate' }).boundingBox(),
      );
      await nav(page, 'Callbacks').click();
      await page.getByRole('list', { name: 'Requests with a callback' }).getByRole('button').first().click();
      const resend = page.getByRole('button', { name: 'Resend callback' });
      await assertInside(page, 'Resend callback', await resend.boundingBox());
      const columns = page.getByRole('table', { name: 'Delivery attempts' }).getByRole('columnheader');
      assert.ok((await columns.count()) >= 4, 'the attempts table shows its columns');
      for (const header of await columns.all())
        await assertInside(page, `the column ${await header.textContent()}`, await header.boundingBox());
      log(
        `✓ ${size.width}×${size.height}: Studio editor ${Math.round(editorBox!.width)} px wide; Callbacks' Resend and every column inside`,
      );
    }

    // The skip link: the first Tab stop, then the focus on <main>.
    await page.setViewportSize({ width: 800, height: 600 });
    await page.reload();
    await page.getByRole('heading', { name: 'Callbacks', exact: true }).waitFor();
    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => document.activeElement?.textContent);
    assert.equal(first, 'Skip to content', 'the first Tab stop is the skip link');
    const skip = page.getByRole('button', { name: 'Skip to content' });
    await assertInside(page, 'the focused skip link', await skip.boundingBox());
    await page.keyboard.press('Enter');
    assert.equal(
      await page.evaluate(() => document.activeElement?.tagName),
      'MAIN',
      'the focus is on <main>',
    );
    // The next Tab goes into the view, past the sidebar.
    await page.keyboard.press('Tab');
    assert.ok(
      await page.evaluate(() => document.querySelector('main')!.contains(document.activeElement)),
      'the next Tab stop is inside the view',
    );
    log('✓ "Skip to content" is the first Tab stop and moves the focus to <main>');

    assert.deepEqual(pageErrors, []);
  } finally {
    await browser.close();
    await studio.stop();
  }
}
