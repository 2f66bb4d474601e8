/**
 * Dialogue voices in a real browser against the real headless server: a narrator and quoted
 * speech in two voices of different pitch, and one paragraph given its own voice by its marker.
 * Generates, then checks what was sent and what was spoken: the request's input_text is SSML
 * with both voices, and the F0 measured in the WAV over each subtitle cue's time range is the
 * narrator's (low) or the character's (high) as the plan says. Then the SSML toggle: the
 * dialogue as editable SSML, a malformed edit refused by the server with its line and column
 * shown at the editor.
 */

import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { isSsml } from '../../electron/shared/ssml';
import { parseSrt } from '../../electron/shared/srt';
import { medianF0, wavSamples } from '../fixtures/audio-analysis';
import { launchBrowser, startStudio } from './harness';

/** A low male narrator and a high female character (eSpeak `david` and `f3`, ~100 vs ~200 Hz). */
export const NARRATOR = 'en_male_onyx_default';
export const CHARACTER = 'en_female_nova_default';

/** Three paragraphs: narration; quoted speech then narration; a paragraph the character reads whole. */
export const DIALOGUE = [
  'The keeper & her old dog climbed the stairs at dusk and looked out over the water.',
  '“Is anyone out there in the dark?” she called. The wind carried her words far away.',
  'A small boat was rowing hard for the harbour lights.',
].join('\n\n');

/** Who should read each cue, by a word only that part has. */
const EXPECTED = [
  { word: 'keeper', voice: NARRATOR },
  { word: 'anyone', voice: CHARACTER },
  { word: 'wind', voice: NARRATOR },
  { word: 'boat', voice: CHARACTER },
];

/**
 * In the Studio: types the dialogue, opens Dialogue voices, sets the narrator and the quoted
 * speech voice, and gives paragraph 3 the character's voice with its marker. (Also used by
 * `npm run screenshots`.)
 */
export async function showDialogue(page: Page): Promise<void> {
  await page.getByLabel('Text to speak').fill(DIALOGUE);
  await page.getByRole('button', { name: 'Dialogue voices' }).click();
  const panel = page.getByRole('region', { name: 'Dialogue voices' });
  await panel.getByLabel('Narrator voice').selectOption(NARRATOR);
  await panel.getByLabel('Quoted speech').selectOption(CHARACTER);
  await panel.getByRole('button', { name: 'Paragraph 3: dialogue voices' }).click();
  await panel.getByLabel('Voice for paragraph 3').selectOption(CHARACTER);
  await panel.getByRole('button', { name: 'Paragraph 3: Nova' }).waitFor();
  // Away from the markers, so a screenshot shows no hover.
  await page.mouse.move(0, 0);
}

export async function runDialogueE2e(log: (line: string) => void): Promise<void> {
  const studio = await startStudio();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1360, height: 1000 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(studio.loginUrl);
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();

    await showDialogue(page);
    const panel = page.getByRole('region', { name: 'Dialogue voices' });
    // The main voice is the narrator: the Controls' picker follows the panel's.
    assert.equal(await page.getByLabel('Voice', { exact: true }).inputValue(), NARRATOR);
    const legend = panel.getByRole('list', { name: 'Voices in this text' });
    assert.deepEqual(await legend.getByRole('listitem').allInnerTexts(), [
      'Onyx (narrator)',
      'Nova (quoted speech)',
    ]);
    // The preview colours the quote of paragraph 2 as the character's, the rest as the narrator's.
    const rows = panel.getByRole('list', { name: 'Who reads each paragraph' }).getByRole('listitem');
    const classOf = (row: number, text: string) =>
      rows.nth(row).locator('.voice-span', { hasText: text }).getAttribute('class');
    const narratorClass = await classOf(0, 'keeper');
    const characterClass = await classOf(1, 'anyone');
    assert.notEqual(narratorClass, characterClass);
    assert.equal(await classOf(1, 'she called'), narratorClass);
    assert.equal(await classOf(2, 'boat'), characterClass);
    assert.equal(await legend.getByText('Nova (quoted speech)').getAttribute('class'), characterClass);
    log('✓ dialogue panel: narrator, quoted speech and a paragraph’s voice, colour-coded in the preview');

    await page.getByRole('radio', { name: 'WAV' }).check({ force: true });
    await page.getByRole('button', { name: 'Generate' }).click();
    await page
      .getByRole('button', { name: 'Play' })
      .and(page.locator(':not([disabled])'))
      .waitFor({ timeout: 60_000 });
    const detail = await page.evaluate(async () => {
      // As the studio calls: its cookie, and its session's value from this origin's storage.
      const response = await fetch('/api/v1/tts?page_size=1', {
        headers: { 'x-studio-session': localStorage.getItem('narration-studio.session') ?? '' },
      });
      const body = (await response.json()) as {
        result?: {
          items: { input_text: string; voice_code: string; audio_link: string; srt_link: string }[];
        };
      };
      const newest = body.result?.items[0];
      if (!newest) throw new Error(`HTTP ${response.status}: ${JSON.stringify(body)}`);
      return newest;
    });
    assert.ok(isSsml(detail.input_text), `input_text is SSML: ${detail.input_text}`);
    assert.equal(detail.voice_code, NARRATOR);
    assert.deepEqual(
      [...detail.input_text.matchAll(/<voice name="([^"]+)">/g)].map((m) => m[1]),
      [CHARACTER, CHARACTER],
    );
    assert.match(detail.input_text, /The keeper &amp; her old dog/);
    log('✓ the request’s input_text is SSML: the narrator’s voice_code, <voice> for the character');

    // What was spoken: F0 over each cue, low for the narrator's parts and high for the character's.
    const wav = wavSamples(
      new Uint8Array(await (await fetch(new URL(detail.audio_link, studio.url))).arrayBuffer()),
    );
    const cues = parseSrt(await (await fetch(new URL(detail.srt_link, studio.url))).text());
    const f0 = (word: string) => {
      const cue = cues.find((c) => c.text.includes(word));
      assert.ok(cue, `a cue with "${word}" in ${JSON.stringify(cues.map((c) => c.text))}`);
      const from = Math.floor((cue.startMs / 1000) * wav.sampleRate);
      const to = Math.ceil((cue.endMs / 1000) * wav.sampleRate);
      return medianF0(wav.pcm.subarray(from, to), wav.sampleRate);
    };
    const measured = EXPECTED.map((e) => ({ ...e, hz: f0(e.word) }));
    const figures = measured.map((m) => `${m.word} ${m.hz.toFixed(0)} Hz`).join(', ');
    const narratorHz = measured.filter((m) => m.voice === NARRATOR).map((m) => m.hz);
    const characterHz = measured.filter((m) => m.voice === CHARACTER).map((m) => m.hz);
    // Octaves apart in eSpeak (~100 vs ~200 Hz): every narrator cue well below every character cue.
    assert.ok(
      Math.max(...narratorHz) * 1.4 < Math.min(...characterHz),
      `the narrator's cues are lower than the character's: ${figures}`,
    );
    log(`✓ two voices heard: F0 per cue ${figures}`);

    // Edit as SSML: the dialogue's SSML in the editor, SSML on, the dialogue panel closed.
    await panel.getByRole('button', { name: 'Edit as SSML' }).click();
    const editor = page.getByLabel('Text to speak');
    assert.equal(await editor.inputValue(), detail.input_text);
    assert.ok(await page.getByRole('switch', { name: 'SSML' }).isChecked());
    assert.ok(await page.getByRole('button', { name: 'Dialogue voices' }).isDisabled());
    await panel.waitFor({ state: 'detached' });

    // A malformed edit: the server's error, with its line and column, shows at the editor.
    await editor.fill(detail.input_text.replace('</voice> she called', ' she called'));
    await page.getByRole('button', { name: 'Generate' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'SSML:' });
    await alert.waitFor();
    const message = await alert.locator('span').innerText();
    const place = /\(line (\d+), column (\d+)\)/.exec(message);
    assert.ok(place, `the error names a line and column: ${message}`);
    assert.equal(place[1], '3', `the error is on the dialogue's line: ${message}`);
    await alert.getByRole('button', { name: `Show line ${place[1]}, column ${place[2]}` }).click();
    const caret = await editor.evaluate((el: HTMLTextAreaElement) => ({
      line: el.value.slice(0, el.selectionStart).split('\n').length,
      column: el.selectionStart - el.value.lastIndexOf('\n', el.selectionStart - 1),
      focused: document.activeElement === el,
    }));
    assert.deepEqual(caret, { line: 3, column: Number(place[2]), focused: true });
    log(`✓ SSML as typed: the server's error shows at the editor, the cursor goes to it (${message})`);

    // SSML off with a <speak> text: the studio says why it cannot send it as plain text.
    await page.getByRole('switch', { name: 'SSML' }).uncheck();
    await page.getByText('The text starts with <speak>: the service reads it as SSML.').waitFor();
    await page.getByRole('button', { name: 'Switch SSML on' }).click();
    assert.ok(await page.getByRole('switch', { name: 'SSML' }).isChecked());
    log('✓ SSML toggle: a <speak> text with SSML off is explained, one click turns it on');

    assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
  } finally {
    await browser.close();
    await studio.stop();
  }
}
