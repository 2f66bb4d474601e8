/** `npm run screenshots`: PNGs of every view, light and dark, in docs/screenshots/. */

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE } from '../../electron/core/voices/catalogue';
import { startReceiver } from '../fixtures/callback-receiver';
import { showDialogue } from './dialogue.e2e';
import { showExport } from './export.e2e';
import {
  E2E_PACK,
  E2E_PACK_MODEL,
  E2E_SERVE_ARGS,
  generateWithRefusedCallback,
  launchBrowser,
  nav,
  SAMPLE_TEXT,
  startStudio,
  startVoiceMirror,
} from './harness';
import { shooter, THEMES } from './every-view';
import { READING_LABELS, readVietnamese } from './reading.e2e';
import { READING_CHAPTER_TEXT } from '../fixtures/reading-book';

const OUT = join(process.cwd(), 'docs/screenshots');

/** What the Lexicon view shows. */
const LEXICON_ENTRIES = [
  {
    language: 'en',
    match: 'Cholmondeley',
    kind: 'ipa',
    replacement: 'ˈtʃʌmli',
    note: 'Lord Cholmondeley, chapter 3',
  },
  { language: 'en', match: 'Saoirse', kind: 'ipa', replacement: 'ˈsɪɚʃə' },
  { language: 'en', match: 'Nguyen', kind: 'respell', replacement: 'win', case_sensitive: true },
  { language: 'en', match: 'SQL', kind: 'respell', replacement: 'sequel' },
  { language: 'vi', match: 'TP.HCM', kind: 'respell', replacement: 'Thành phố Hồ Chí Minh' },
  { language: 'fr', match: 'Saint-Saëns', kind: 'ipa', replacement: 'sɛ̃sɑ̃s' },
];
mkdirSync(OUT, { recursive: true });

// The synthetic pack to download, beside real catalogue entries that are only listed.
const LISTED = [
  'vi_VN-vais1000-medium',
  'vi_VN-vivos-x_low',
  'fr_FR-siwis-medium',
  'en_GB-alba-medium',
  'kokoro-v1.0-q8',
];
const voiceMirror = await startVoiceMirror(CATALOGUE.filter((e) => LISTED.includes(e.id)));
// The studio's own key: the UI acts with it, and the OpenAI requests below use it too.
const KEY = 'screenshots-key-0123456789abcdef';
const studio = await startStudio([...E2E_SERVE_ARGS, ...voiceMirror.args, '--api-key', KEY]);
const receiver = await startReceiver();
const browser = await launchBrowser();

try {
  for (const scheme of THEMES) {
    const context = await browser.newContext({
      viewport: { width: 1360, height: 1000 },
      colorScheme: scheme,
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    const shot = shooter(page, {
      afterSettle: (p) => p.evaluate(() => window.scrollTo(0, 0)),
      path: (name) => join(OUT, `${name}-${scheme}.png`),
    });

    await page.goto(`${studio.url}/`);
    await page.getByRole('heading', { name: 'Sign in to Narration Studio' }).waitFor();
    await shot('sign-in');

    await page.goto(studio.loginUrl);
    await page.getByLabel('Text to speak').fill(SAMPLE_TEXT);
    await page.getByLabel('Voice', { exact: true }).selectOption('en_female_elara_br');
    await page.getByLabel('Callback URL (optional)').fill(receiver.url);
    await page.getByRole('button', { name: 'Generate' }).click();
    await page
      .getByRole('button', { name: 'Play' })
      .and(page.locator(':not([disabled])'))
      .waitFor({ timeout: 60_000 });
    await page.getByRole('list', { name: 'Subtitle cues' }).getByRole('button').nth(1).click();
    await shot('studio');
    // Dialogue voices: narrator, quoted speech and a paragraph's own voice, before the next views.
    await showDialogue(page);
    await shot('dialogue');
    await page.getByRole('button', { name: 'Dialogue voices', exact: true }).click();
    await page.getByLabel('Voice', { exact: true }).selectOption('en_female_elara_br');

    // The voice library: a download in progress (held by the mirror), then installed.
    await nav(page, 'Voice library').click();
    const id = E2E_PACK.entry.id;
    const card = page.getByRole('listitem', { name: `Voice pack ${id}` });
    if (await card.getByRole('button', { name: `Remove ${id}` }).isVisible()) {
      await card.getByRole('button', { name: `Remove ${id}` }).click();
    }
    voiceMirror.mirror.fault(E2E_PACK_MODEL, { kind: 'hold' });
    await card.getByRole('button', { name: `Download ${id}` }).click();
    await page.getByRole('progressbar', { name: `Download progress of ${id}` }).waitFor();
    await shot('voice-library-downloading');
    voiceMirror.mirror.fault(E2E_PACK_MODEL, null);
    voiceMirror.mirror.release();
    await card.getByText('installed', { exact: true }).waitFor({ timeout: 30_000 });
    await shot('voice-library');

    await nav(page, 'Voices').click();
    await shot('voices');
    if (scheme === 'light') {
      // An app using OpenAI's client: its requests, in OpenAI's formats, show in History.
      await page.evaluate(async (key) => {
        for (const [voice, response_format] of [
          ['nova', 'opus'],
          ['onyx', 'flac'],
          ['alloy', 'pcm'],
        ]) {
          const speech = await fetch('/v1/audio/speech', {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: JSON.stringify({
              model: 'tts-1',
              voice,
              input: 'Chapter one. The harbour.',
              response_format,
            }),
          });
          await speech.arrayBuffer();
        }
      }, KEY);
    }
    await nav(page, 'History').click();
    await page.getByRole('table', { name: 'Requests' }).waitFor();
    await shot('history');
    await nav(page, 'Callbacks').click();
    await page.getByRole('table', { name: 'Delivery attempts' }).waitFor({ timeout: 60_000 });
    await page.getByText('Payload').first().click();
    await shot('callbacks');
    // A receiver that refuses connections: every attempt, no HTTP status, the request failed.
    await generateWithRefusedCallback(page);
    await page.getByRole('table', { name: 'Delivery attempts' }).getByText('no answer').first().waitFor();
    await shot('callbacks-failed');
    if (scheme === 'light') {
      // A few pronunciations, added as the studio adds them.
      await page.evaluate(async (entries) => {
        for (const entry of entries) {
          await fetch('/api/v1/lexicon', {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-studio-session': localStorage.getItem('narration-studio.session') ?? '',
            },
            body: JSON.stringify(entry),
          });
        }
      }, LEXICON_ENTRIES);
    }
    await nav(page, 'Lexicon').click();
    await page.getByRole('table', { name: 'Lexicon entries' }).waitFor();
    await page.getByRole('button', { name: 'Add entry' }).click();
    const entryForm = page.getByRole('form', { name: 'New lexicon entry' });
    await entryForm.getByLabel('Word or phrase').fill('Siobhan');
    await entryForm.getByRole('radio', { name: 'IPA' }).check({ force: true });
    await entryForm.getByRole('textbox', { name: 'IPA' }).fill('ʃɪˈvɔːn');
    await shot('lexicon');
    await entryForm.getByRole('button', { name: 'Cancel' }).click();
    // A finished export: the form, the chapter list and the loudness report.
    await showExport(page);
    await shot('export');
    await nav(page, 'API').click();
    await page.getByRole('table', { name: 'API keys' }).waitFor();
    await shot('api');
    await nav(page, 'Settings').click();
    await shot('settings');
    // How it will be read: a Vietnamese sentence's reading, its date and money marked.
    await nav(page, 'How it will be read').click();
    await readVietnamese(page, READING_LABELS.en);
    await shot('reading');
    await context.close();

    // The studio in Vietnamese: the Studio with its "Xem cách đọc" button, and the reading view.
    const vi = await browser.newContext({
      viewport: { width: 1360, height: 1000 },
      colorScheme: scheme,
      deviceScaleFactor: 1,
      locale: 'vi-VN',
    });
    const viPage = await vi.newPage();
    const viShot = shooter(viPage, {
      beforeSettle: (p) => p.mouse.move(0, 0),
      afterSettle: (p) => p.evaluate(() => window.scrollTo(0, 0)),
      path: (name) => join(OUT, `${name}-vi-${scheme}.png`),
    });
    await viPage.goto(studio.loginUrl);
    await viPage.locator('nav.sidebar').waitFor();
    await nav(viPage, 'Studio').click();
    await viPage.getByLabel('Giọng đọc', { exact: true }).selectOption('vi_female_thuytrang_mb');
    await viPage.locator('#main textarea').first().fill(READING_CHAPTER_TEXT);
    await viPage.locator('#main textarea').first().blur();
    await viPage.locator('#main').getByRole('button', { name: 'Xem trước cách đọc' }).waitFor();
    await viShot('studio');
    await nav(viPage, 'How it will be read').click();
    await readVietnamese(viPage, READING_LABELS.vi);
    await viShot('reading');
    await vi.close();
  }
} finally {
  await browser.close();
  await receiver.close();
  await studio.stop();
  await voiceMirror.close();
}
