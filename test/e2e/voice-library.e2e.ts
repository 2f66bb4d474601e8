/**
 * The Voice library's facts in a real browser against the real headless server: each pack
 * shows its licence as its model card states it and a link to that card; "Play sample" plays
 * the publisher's recording, fetched from a local sample mirror on the first click (busy until
 * it sounds) and from the data folder on the second (the mirror sees one request); a sample the
 * publisher lacks shows a sentence; an installed pack shows its speed after its first render.
 */

import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { encodeMp3 } from '../../electron/core/engine/audio/mp3';
import { findCatalogueEntry, sampleUrl } from '../../electron/core/voices/catalogue';
import { E2E_PACK, E2E_SERVE_ARGS, launchBrowser, nav, startStudio, startVoiceMirror } from './harness';
import { waitUntil } from '../faults/harness';

const KEY = 'ns_voice_library_e2e_0123456789abcdefghij';

/** A request spoken under std-v1.6 through the API, waited for until it succeeds. */
async function renderWithKey(url: string, voiceCode: string): Promise<void> {
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const submitted = await fetch(`${url}/api/v1/tts`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      input_text: 'The lighthouse keeper climbed the stairs at dusk.',
      voice_code: voiceCode,
      model_id: 'std-v1.6',
      audio_type: 'wav',
    }),
  });
  const id = ((await submitted.json()) as { result: { request_id: string } }).result.request_id;
  const detail = await waitUntil(
    `request ${id} to finish`,
    async () => {
      const read = (await (await fetch(`${url}/api/v1/tts/${id}`, { headers })).json()) as {
        result: { status: string; engine?: string };
      };
      return read.result.status === 'SUCCESS' || read.result.status === 'FAILURE' ? read : undefined;
    },
    60_000,
    200,
  );
  if (detail.result.status !== 'SUCCESS')
    throw new Error(`the render did not succeed: ${JSON.stringify(detail)}`);
  assert.match(detail.result.engine ?? '', /^piper:/);
}

/** One second of a 220 Hz tone as a real MP3, standing for the publisher's recording. */
async function toneMp3(): Promise<Buffer> {
  const rate = 22050;
  const pcm = new Int16Array(rate);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / rate));
  return Buffer.from(await encodeMp3(pcm, { sampleRate: rate, bitrate: 64 }));
}

export async function runVoiceLibraryE2e(log: (line: string) => void): Promise<void> {
  const vivos = findCatalogueEntry('vi_VN-vivos-x_low')!;
  const vais = findCatalogueEntry('vi_VN-vais1000-medium')!;
  const voiceMirror = await startVoiceMirror([vivos, vais]);
  const samplePath = (url: string) => new URL(url).pathname.replace(/^\//, '');
  const vivosSample = samplePath(sampleUrl(voiceMirror.mirror.url, vivos, 0)!);
  voiceMirror.mirror.put(vivosSample, await toneMp3());
  // The mirror holds the answer of the first click until the busy state has been seen.
  voiceMirror.mirror.fault(vivosSample, { kind: 'hold' });
  const studio = await startStudio([
    ...E2E_SERVE_ARGS,
    ...voiceMirror.args,
    '--voice-sample-mirror',
    voiceMirror.mirror.url,
    '--api-key',
    KEY,
  ]);
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(studio.loginUrl);
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();
    await nav(page, 'Voice library').click();
    await page.getByRole('heading', { name: 'Voice library' }).waitFor();

    const card = (id: string) => page.getByRole('listitem', { name: `Voice pack ${id}` });
    /** A card's sample button showing `text` ("Play sample", "Loading sample…", "Stop sample"). */
    const sampleButton = (id: string, text: string) =>
      card(id)
        .getByRole('button', { name: new RegExp(`sample…? of ${id}, as its publisher recorded it$`) })
        .filter({ hasText: text });
    const vivosCard = card(vivos.id);
    await vivosCard.getByText(`Licence: ${vivos.licence}`).waitFor();
    const link = vivosCard.getByRole('link', { name: `Model card of ${vivos.id}` });
    assert.equal(
      await link.getAttribute('href'),
      'https://huggingface.co/rhasspy/piper-voices/blob/v1.0.0/vi/vi_VN/vivos/x_low/MODEL_CARD',
    );
    assert.equal(
      await vivosCard.locator('.licence').getAttribute('title'),
      'MODEL_CARD: "* License: CC BY-NC-SA 4.0"',
    );
    log("✓ each pack shows its model card's licence and a link to the card");

    // First click: busy while the local server fetches the sample, then it plays.
    await vivosCard
      .getByRole('button', { name: `Play sample of ${vivos.id}, as its publisher recorded it` })
      .click();
    const busy = vivosCard.getByRole('button', {
      name: `Loading sample… of ${vivos.id}, as its publisher recorded it`,
    });
    await busy.waitFor();
    assert.equal(await busy.getAttribute('aria-busy'), 'true');
    assert.match((await busy.textContent()) ?? '', /^Loading sample… of /);
    await voiceMirror.mirror.whenHeld();
    voiceMirror.mirror.release();
    // "Stop sample" is shown once the audio element fires `playing`: the browser decoded it.
    await sampleButton(vivos.id, 'Stop sample').waitFor({ timeout: 60_000 });
    // Ends by itself (one second), back to "Play sample".
    await sampleButton(vivos.id, 'Play sample').waitFor({ timeout: 60_000 });
    log('✓ Play sample shows loading, plays the sample fetched through the local server');

    // Second click: from the data folder; the mirror is not asked again.
    await sampleButton(vivos.id, 'Play sample').click();
    await sampleButton(vivos.id, 'Stop sample').waitFor({ timeout: 60_000 });
    await sampleButton(vivos.id, 'Stop sample').click();
    assert.equal(voiceMirror.mirror.requestsFor(vivosSample).length, 1, 'one request for two clicks');
    log('✓ the second play comes from the cache (the mirror saw one request)');

    // A sample the publisher does not have: a sentence, not a broken button.
    const vaisCard = card(vais.id);
    await sampleButton(vais.id, 'Play sample').click();
    const alert = vaisCard.getByRole('alert');
    await alert.waitFor({ timeout: 60_000 });
    assert.match((await alert.textContent()) ?? '', /No sample is published for vi_VN-vais1000-medium/);
    log('✓ a missing sample shows why');

    // An installed pack shows its speed once it has spoken.
    const pack = card(E2E_PACK.entry.id);
    await pack.getByRole('button', { name: `Download ${E2E_PACK.entry.id}` }).click();
    await pack.getByText('installed', { exact: true }).waitFor({ timeout: 60_000 });
    await pack.getByText('Speed here: measured on its first use').waitFor();
    await renderWithKey(studio.url, 'en_female_emily_us');
    await waitForSpeed(page, E2E_PACK.entry.id);
    log('✓ an installed pack shows its speed measured on its first render');
    // E2E_SHOTS=<dir>: the view as it now looks, for a person to check.
    if (process.env.E2E_SHOTS) {
      await page
        .getByRole('heading', { name: 'English voice packs' })
        .or(page.locator('h3', { hasText: 'English' }))
        .first()
        .scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(process.env.E2E_SHOTS, 'voice-library-facts.png'), fullPage: true });
    }

    assert.deepEqual(pageErrors, []);
    await context.close();
  } finally {
    await browser.close();
    await studio.stop();
    await voiceMirror.close();
  }
}

/** Re-opens the Voice library until the pack's speed is shown. */
async function waitForSpeed(page: Page, id: string): Promise<void> {
  let text = '';
  const match = await waitUntil(
    `the speed of ${id}`,
    async () => {
      await nav(page, 'Voice library').click();
      const speed = page.getByRole('listitem', { name: `Voice pack ${id}` }).locator('.pack-speed');
      text = (await speed.textContent()) ?? '';
      const found =
        /Speed here: RTF ([\d.]+) \((?:[\d.]+× faster|slower) than real time\) · first audio ([\d,]+) ms/.exec(
          text,
        );
      if (!found) await nav(page, 'Studio').click();
      return found ?? undefined;
    },
    60_000,
    500,
  ).catch(() => {
    throw new Error(`no speed shown for ${id}: "${text}"`);
  });
  assert.ok(Number(match[1]) > 0 && Number(match[2]!.replace(/,/g, '')) > 0, text);
}
