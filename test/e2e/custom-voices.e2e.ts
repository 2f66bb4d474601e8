/**
 * Your own voices in a real browser against the real headless server: create one in the Voices
 * view (its code checked as typed, the server's "code taken" shown once), audition it (the
 * sample's pitch measured against its base's), pick it in the Studio and Generate (its audio is
 * shorter than the base voice's at 1.0, measured through the API), cast it in a project, edit
 * it and delete it after the question. Screenshots of the form, light and dark. Its voice deleted
 * elsewhere, a Vietnamese Studio falls back to Lê Hoàng (the interface language's first voice).
 */

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { CreatedKey, RequestDetail, RequestRecord } from '../../electron/shared/api';
import type { CustomVoice } from '../../electron/shared/custom-voices';
import { medianF0, rmsOf, wavSamples } from '../fixtures/audio-analysis';
import { launchBrowser, nav, startStudio } from './harness';
import vi from '../../renderer/src/i18n/messages/vi.json';
import { FIRST_VOICES } from '../../renderer/src/stores/options-slice';
import { LOCALE_KEY } from '../../renderer/src/stores/ui-slice';
import { sessionHeaders } from './projects.e2e';
import { waitUntil } from '../faults/harness';
import { animationsDone } from './waits';

const BASE = 'vi_female_thuytrang_mb';
const TEXT = 'Xin chào các bạn. Hôm nay NXB Trẻ giới thiệu một cuốn sách mới về biển và những ngọn hải đăng.';
const SHOTS = join(process.cwd(), 'docs/screenshots');

/** A JSON route of the API as the signed-in page calls it; the envelope's `result`. */
async function api<T>(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await page.request.fetch(path, {
    method,
    headers: { ...(await sessionHeaders(page)), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { data: JSON.stringify(body) } : {}),
  });
  assert.ok(response.ok(), `${method} ${path}: HTTP ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { result: T }).result;
}

/** Waits for a request to finish and answers its record. */
async function finished(page: Page, id: string): Promise<RequestDetail> {
  return waitUntil(
    `request ${id} to finish`,
    async () => {
      const detail = await api<RequestDetail>(page, 'GET', `/api/v1/tts/${id}`);
      return detail.status === 'SUCCESS' || detail.status === 'FAILURE' ? detail : undefined;
    },
    60_000,
    100,
  );
}

/** The samples of a WAV answer of an audition route. */
async function auditionSamples(page: Page, path: string) {
  const response = await page.request.post(path, {
    headers: { ...(await sessionHeaders(page)), 'content-type': 'application/json' },
    data: '{}',
  });
  assert.equal(response.status(), 200, `${path}: ${await response.text()}`);
  return wavSamples(new Uint8Array(await response.body()));
}

export async function runCustomVoicesE2e(log: (line: string) => void): Promise<void> {
  const studio = await startStudio();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1360, height: 1000 }, baseURL: studio.url });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(studio.loginUrl);
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();

    // Create opens the form with the focus in its first field; Escape closes it, focus goes back.
    await nav(page, 'Voices').click();
    const section = page.getByRole('region', { name: 'Your voices' });
    await section.getByText('No voices of your own yet.').waitFor();
    await section.getByRole('button', { name: 'Create voice' }).click();
    const form = page.getByRole('form', { name: 'New voice' });
    await form.waitFor();
    assert.equal(
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.id),
      await form.getByLabel('Name', { exact: true }).getAttribute('id'),
      'the name field has the focus',
    );
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Create voice');
    log('✓ Create focuses the form; Escape closes it and gives the focus back');

    // The code is checked as typed.
    await section.getByRole('button', { name: 'Create voice' }).click();
    const code = form.getByLabel('Code', { exact: true });
    await code.fill('Co Lan');
    assert.equal(await code.getAttribute('aria-invalid'), 'true');
    await form.getByText('A code is 3 to 64 characters').waitFor();
    await code.fill(BASE);
    await form.getByText(`${BASE} is a catalogue voice's code`).waitFor();
    await code.fill('co_lan');
    assert.equal(await code.getAttribute('aria-invalid'), 'false');
    log('✓ the code is checked as typed (pattern, catalogue codes)');

    // Fill the rest: base, speed 1.2, pitch 1.1 (Enter commits a slider's box, not the form), one pronunciation.
    await form.getByLabel('Name', { exact: true }).fill('Cô Lan');
    await form.getByLabel('Catalogue voice', { exact: true }).selectOption(BASE);
    for (const [label, value] of [
      ['Speed value', '1.2'],
      ['Pitch value', '1.1'],
    ] as const) {
      await form.getByLabel(label).fill(value);
      await form.getByLabel(label).press('Enter');
    }
    await form.getByRole('button', { name: 'Add a pronunciation' }).click();
    await form.getByLabel('Word 1', { exact: true }).fill('NXB');
    await form.getByLabel('Say word 1 as').fill('nhà xuất bản');
    await form.getByRole('button', { name: 'Create voice' }).click();
    const list = section.getByRole('list', { name: 'Your voices' });
    const card = list.getByRole('listitem').filter({ hasText: 'co_lan' });
    await card.waitFor();
    await section.getByRole('status').getByText('Created Cô Lan (co_lan).').waitFor();
    const stored = await api<CustomVoice>(page, 'GET', '/api/v1/custom-voices/co_lan');
    assert.deepEqual(stored.base, { kind: 'code', voice_code: BASE });
    assert.deepEqual(stored.prosody, { speed: 1.2, pitch: 1.1, volume: 100 });
    assert.deepEqual(
      stored.lexicon.map((e) => [e.match, e.kind, e.replacement]),
      [['NXB', 'respell', 'nhà xuất bản']],
    );
    assert.equal(stored.language, 'vi');
    await card.getByText('Vietnamese').waitFor();
    log(
      '✓ created co_lan over vi_female_thuytrang_mb (speed 1.2, pitch 1.1, one pronunciation): listed and stored',
    );

    // A code taken meanwhile by another client: the server's 409 shows once, in the form.
    await api(page, 'POST', '/api/v1/custom-voices', {
      code: 'co_mai',
      name: 'Cô Mai',
      base: { kind: 'code', voice_code: BASE },
    });
    await section.getByRole('button', { name: 'Create voice' }).click();
    await form.getByLabel('Name', { exact: true }).fill('Another Mai');
    await form.getByLabel('Code', { exact: true }).fill('co_mai');
    await form.getByRole('button', { name: 'Create voice' }).click();
    const alert = form.getByRole('alert');
    await alert.getByText(/co_mai/).waitFor();
    assert.equal(await page.getByRole('alert').filter({ hasText: /\S/ }).count(), 1, 'one error shown');
    const conflict = (await alert.innerText()).trim();
    await form.getByLabel('Code', { exact: true }).fill('co_mai_2');
    assert.equal((await alert.innerText()).trim(), '', 'the answer goes once the form changes');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    log(`✓ a code taken on the server is refused with its sentence, shown once: “${conflict}”`);

    // Audition: the sample plays; it is the base voice with the pitch raised by 1.1.
    const [audition] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/custom-voices/co_lan/audition'),
      card.getByRole('button', { name: 'Play a sample of Cô Lan (co_lan)' }).click(),
    ]);
    assert.equal(audition.status(), 200);
    const played = (await audition.body()).byteLength;
    await card.getByRole('button', { name: 'Stop a sample of Cô Lan (co_lan)' }).waitFor({ timeout: 60_000 });
    await card.getByRole('button', { name: 'Play a sample of Cô Lan (co_lan)' }).waitFor({ timeout: 60_000 });
    const custom = await auditionSamples(page, '/api/v1/custom-voices/co_lan/audition');
    const base = await auditionSamples(page, `/api/v1/voices/${BASE}/audition`);
    const f0Ratio = medianF0(custom.pcm, custom.sampleRate) / medianF0(base.pcm, base.sampleRate);
    assert.ok(rmsOf(custom.pcm) > 300, 'the sample is not silent');
    assert.ok(f0Ratio > 1.04 && f0Ratio < 1.2, `median F0 ratio to the base ${f0Ratio.toFixed(3)}`);
    log(`✓ audition plays (${played} bytes) to its end; median F0 ${f0Ratio.toFixed(3)}× the base voice's`);

    // Screenshots of the form (Edit, filled), light and dark.
    mkdirSync(SHOTS, { recursive: true });
    await card.getByRole('button', { name: 'Edit Cô Lan (co_lan)' }).click();
    const edit = page.getByRole('form', { name: 'Edit voice Cô Lan' });
    await edit.waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await animationsDone(page);
      await section.screenshot({ path: join(SHOTS, `custom-voices-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'detached' });
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      'Edit Cô Lan (co_lan)',
      'Escape gives the focus back to the Edit button that opened the form',
    );
    log('✓ screenshots docs/screenshots/custom-voices-{light,dark}.png; Escape gives the focus back to Edit');

    // The Studio's picker offers it under "Your voices"; Generate speaks with it.
    await nav(page, 'Studio').click();
    const picker = page.getByLabel('Voice', { exact: true });
    assert.equal(await picker.locator('optgroup[label="Your voices"] option[value="co_lan"]').count(), 1);
    await picker.selectOption('co_lan');
    await page.getByLabel('Text to speak').fill(TEXT);
    const [submitted] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/tts') && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Generate' }).click(),
    ]);
    assert.equal(submitted.status(), 200, `Generate with co_lan: ${await submitted.text()}`);
    const record = ((await submitted.json()) as { result: RequestRecord }).result;
    const spoken = await finished(page, record.request_id);
    assert.equal(spoken.status, 'SUCCESS', spoken.error_message ?? '');
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 30_000 });
    // The base voice through the API, at 1.0 and at the custom voice's 1.2, reading what the
    // custom voice's pronunciation says: the same length at 1.2 means speed and lexicon both applied.
    const [atOne, atSpeed] = await Promise.all(
      [1, 1.2].map(async (speed_rate) => {
        const submittedBase = await api<RequestRecord>(page, 'POST', '/api/v1/tts', {
          input_text: TEXT.replace('NXB', 'nhà xuất bản'),
          voice_code: BASE,
          speed_rate,
        });
        const detail = await finished(page, submittedBase.request_id);
        assert.equal(detail.status, 'SUCCESS');
        return detail.duration_ms!;
      }),
    );
    const ratio = spoken.duration_ms! / atOne!;
    assert.ok(ratio < 0.95, `co_lan ${spoken.duration_ms} ms vs ${BASE} ${atOne} ms at 1.0`);
    assert.ok(
      Math.abs(spoken.duration_ms! / atSpeed! - 1) < 0.03,
      `co_lan ${spoken.duration_ms} ms vs ${BASE} ${atSpeed} ms at 1.2`,
    );
    log(
      `✓ picked in the Studio and generated: ${spoken.duration_ms} ms, against ${atOne} ms for the base at 1.0 (×${ratio.toFixed(2)}) and ${atSpeed} ms at 1.2`,
    );

    // A project's character speaks with it.
    await nav(page, 'Projects').click();
    await page.getByRole('button', { name: 'New project' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Hải đăng');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('tab', { name: 'Cast' }).click();
    await page.getByLabel('New character').fill('Lan');
    await page.getByLabel('Their voice').selectOption('co_lan');
    await page.getByRole('button', { name: 'Add character' }).click();
    const castVoice = page.getByLabel('Voice of Lan', { exact: true });
    await castVoice.waitFor();
    assert.equal(await castVoice.inputValue(), 'co_lan');
    log('✓ cast as a project character (Voice of Lan: co_lan)');

    // Edit: a new name and speed, saved and listed.
    await nav(page, 'Voices').click();
    await card.getByRole('button', { name: 'Edit Cô Lan (co_lan)' }).click();
    await edit.getByLabel('Name', { exact: true }).fill('Cô Lan chậm');
    await edit.getByLabel('Speed value').fill('0.9');
    await edit.getByLabel('Speed value').press('Enter');
    await edit.getByRole('button', { name: 'Save' }).click();
    await section.getByRole('status').getByText('Saved Cô Lan chậm (co_lan).').waitFor();
    const edited = await api<CustomVoice>(page, 'GET', '/api/v1/custom-voices/co_lan');
    assert.equal(edited.name, 'Cô Lan chậm');
    assert.equal(edited.prosody.speed, 0.9);
    log('✓ edited: the new name and speed are stored');

    // Delete asks first: Cancel keeps it, Delete voice removes it.
    await card.getByRole('button', { name: 'Delete Cô Lan chậm (co_lan)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Cô Lan chậm?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await card.waitFor();
    await card.getByRole('button', { name: 'Delete Cô Lan chậm (co_lan)' }).click();
    await dialog.getByRole('button', { name: 'Delete voice' }).click();
    await card.waitFor({ state: 'detached' });
    const gone = await page.request.get('/api/v1/custom-voices/co_lan', {
      headers: await sessionHeaders(page),
    });
    assert.equal(gone.status(), 404);
    log('✓ delete asks first (Cancel keeps it); Delete voice removes it (404 after)');

    // Past one page (GET /api/v1/custom-voices answers 50 at most): 310 of the studio's and
    // 310 of another key's; the view lists all 620, the Studio's picker offers the last.
    const other = await api<CreatedKey>(page, 'POST', '/api/v1/keys', { name: 'Voice maker' });
    const many = Array.from({ length: 620 }, (_, i) => `many_${String(i).padStart(3, '0')}`);
    for (let i = 0; i < many.length; i += 20)
      await Promise.all(
        many.slice(i, i + 20).map(async (code, j) => {
          const body = JSON.stringify({
            code,
            name: `Voice ${code}`,
            base: { kind: 'code', voice_code: BASE },
          });
          const headers: Record<string, string> =
            i + j < 310
              ? { ...(await sessionHeaders(page)), 'content-type': 'application/json' }
              : { authorization: `Bearer ${other.key}`, 'content-type': 'application/json' };
          const made = await page.request.post('/api/v1/custom-voices', { headers, data: body });
          assert.equal(made.status(), 201, await made.text());
        }),
      );
    await page.reload();
    await nav(page, 'Voices').click();
    const voiceList = page.getByRole('list', { name: 'Your voices' });
    await voiceList.getByText('Voice many_619').waitFor();
    // co_mai, made on the server above, is the 621st.
    assert.equal(
      await voiceList
        .getByRole('listitem')
        .filter({ hasText: /Voice many_/ })
        .count(),
      620,
    );
    await nav(page, 'Studio').click();
    const offered = page
      .getByLabel('Voice', { exact: true })
      .locator('optgroup[label="Your voices"] option[value^="many_"]');
    assert.equal(await offered.count(), 620);
    await page.getByLabel('Voice', { exact: true }).selectOption('many_619');
    log('✓ 620 voices (50 an answer): the view lists all 620 and the Studio picks the last');

    // The Studio's voice deleted elsewhere (the API) while the interface is in Vietnamese: on the
    // next load the Studio is back on that language's first voice (Lê Hoàng), not on Emily.
    await page.evaluate((key) => localStorage.setItem(key, '"vi"'), LOCALE_KEY);
    const removed = await page.request.delete('/api/v1/custom-voices/many_619', {
      headers: await sessionHeaders(page),
    });
    assert.equal(removed.status(), 204, await removed.text());
    await page.reload();
    await nav(page, 'Studio').click();
    const viPicker = page.getByLabel(vi['controls.voice'], { exact: true });
    // The list of custom voices is read after the page loads: the picker moves when it arrives.
    await waitUntil(
      'the picker to move to the first Vietnamese voice',
      async () => ((await viPicker.inputValue()) === FIRST_VOICES.vi ? true : undefined),
      10_000,
      100,
    ).catch(() => undefined);
    assert.equal(await viPicker.inputValue(), FIRST_VOICES.vi);
    log(`✓ its voice deleted elsewhere, the Vietnamese Studio is back on ${FIRST_VOICES.vi}, not Emily`);

    assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
  } finally {
    await browser.close();
    await studio.stop();
  }
}
