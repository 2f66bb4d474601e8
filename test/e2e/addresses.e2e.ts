/**
 * Addresses, in a real browser against the real headless server: every view has its own
 * (`#/<view>`) and a reload stays on it; Back and Forward move between views inside the app; an
 * open project (`#/projects/<id>`) and a request selected in History (`#/history/<id>`) keep
 * theirs through a reload and Back/Forward; an unknown project or request id says so in the
 * view, an unknown view lands on the Studio; a sign-in address with a view's address opens that
 * view.
 */

import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { VIEWS } from '../../renderer/src/stores/ui-slice';
import { launchBrowser, nav, SAMPLE_TEXT, startStudio } from './harness';
import { NAV_LABELS } from './every-view';
import { importSmallBook } from './small-windows.e2e';

const hashOf = (page: Page) => new URL(page.url()).hash;

/** The heading of a view (level 1, as each view names itself). */
const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true, level: 1 });

export async function runAddressesE2e(log: (line: string) => void): Promise<void> {
  const studio = await startStudio();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));

    // A sign-in address with a view's address: the token leaves, the view's address stays.
    await page.goto(`${studio.loginUrl}#/lexicon`);
    await heading(page, 'Lexicon').waitFor();
    assert.equal(new URL(page.url()).search, '', 'the token left the address');
    assert.equal(hashOf(page), '#/lexicon');
    log('✓ a sign-in address with #/lexicon signs in and opens the Lexicon');

    // Every view: its address, and a reload stays on it.
    for (const view of VIEWS) {
      await nav(page, NAV_LABELS[view]).click();
      await heading(page, NAV_LABELS[view]).waitFor();
      assert.equal(hashOf(page), `#/${view}`, `the address of ${view}`);
      await page.reload();
      await heading(page, NAV_LABELS[view]).waitFor();
      assert.equal(hashOf(page), `#/${view}`, `${view} after a reload`);
      assert.equal(
        await page.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]').textContent(),
        NAV_LABELS[view],
        `the sidebar marks ${view} after a reload`,
      );
    }
    log(`✓ every view has its address and a reload stays on it (${VIEWS.map((v) => `#/${v}`).join(' ')})`);

    // Back and Forward between views, inside the app.
    await nav(page, 'Studio').click();
    await nav(page, 'Export').click();
    await nav(page, 'Voices').click();
    await heading(page, 'Voices').waitFor();
    await page.goBack();
    await heading(page, 'Export').waitFor();
    assert.equal(hashOf(page), '#/export');
    await page.goBack();
    await heading(page, 'Studio').waitFor();
    assert.equal(hashOf(page), '#/studio');
    await page.goForward();
    await heading(page, 'Export').waitFor();
    await page.goForward();
    await heading(page, 'Voices').waitFor();
    assert.equal(hashOf(page), '#/voices');
    log('✓ Back and Forward move between Studio, Export and Voices without leaving the app');

    // An open project has its own address.
    await importSmallBook(page);
    const projectHash = hashOf(page);
    assert.match(projectHash, /^#\/projects\/[\w-]+$/, 'an open project has its address');
    await page.reload();
    await page.getByRole('heading', { name: 'Harbour book', exact: true }).waitFor();
    assert.equal(hashOf(page), projectHash);
    await nav(page, 'Projects').click();
    await heading(page, 'Projects').waitFor();
    await page
      .getByRole('list', { name: 'Projects' })
      .getByRole('button', { name: 'Harbour book', exact: true })
      .waitFor();
    assert.equal(hashOf(page), '#/projects');
    await page.goBack();
    await page.getByRole('heading', { name: 'Harbour book', exact: true }).waitFor();
    assert.equal(hashOf(page), projectHash);
    await page.goForward();
    await page
      .getByRole('list', { name: 'Projects' })
      .getByRole('button', { name: 'Harbour book', exact: true })
      .waitFor();
    log(`✓ an open project has its address (${projectHash}); reload, Back and Forward keep it`);

    await page.goto(`${studio.url}/#/projects/no-such-project`);
    await page.getByRole('alert').getByText('The project no-such-project cannot be opened').waitFor();
    await page.getByRole('button', { name: 'Show all projects' }).click();
    await page
      .getByRole('list', { name: 'Projects' })
      .getByRole('button', { name: 'Harbour book', exact: true })
      .waitFor();
    assert.equal(hashOf(page), '#/projects');
    log('✓ an unknown project in the address says so, with the way back to the list');

    // A request selected in History has its own address.
    await nav(page, 'Studio').click();
    await page.getByLabel('Text to speak').fill(SAMPLE_TEXT);
    await page.getByRole('button', { name: 'Generate' }).click();
    await nav(page, 'History').click();
    const table = page.getByRole('table', { name: 'Requests' });
    await table
      .getByRole('button', { name: /details of request/ })
      .first()
      .click();
    const requestHash = hashOf(page);
    const requestId = /^#\/history\/([0-9a-f]+)$/.exec(requestHash)?.[1];
    assert.ok(requestId, `a selected request has its address: ${requestHash}`);
    const details = page.getByRole('region', { name: `Request ${requestId}` });
    await details.getByText(SAMPLE_TEXT).waitFor();
    await page.reload();
    await details.getByText(SAMPLE_TEXT).waitFor();
    assert.equal(hashOf(page), requestHash);
    await details.getByRole('button', { name: 'Close details' }).click();
    await details.waitFor({ state: 'detached' });
    assert.equal(hashOf(page), '#/history');
    await page.goBack();
    await details.getByText(SAMPLE_TEXT).waitFor();
    assert.equal(hashOf(page), requestHash);
    log(
      `✓ a request selected in History has its address (#/history/${requestId.slice(0, 8)}…); reload and Back keep it`,
    );

    await page.goto(`${studio.url}/#/history/no-such-request`);
    await page
      .getByRole('region', { name: 'Request no-such-request' })
      .getByRole('alert')
      .getByText('This request cannot be shown')
      .waitFor();
    log('✓ an unknown request in the address says so in History');

    await page.goto(`${studio.url}/#/nowhere`);
    await heading(page, 'Studio').waitFor();
    assert.equal(hashOf(page), '#/studio', 'an unknown view is replaced by the Studio’s address');
    log('✓ an address that names no view opens the Studio');

    assert.deepEqual(pageErrors, []);
  } finally {
    await browser.close();
    await studio.stop();
  }
}
