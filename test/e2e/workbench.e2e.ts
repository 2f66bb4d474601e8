/**
 * The voice workbench in a real browser against the real headless server: a Vietnamese
 * sentence typed, three voices queued (a catalogue voice spoken by eSpeak, an English voice
 * spoken by an installed pack, one of the user's own voices), three results with figures, Play
 * all, a blind A/B round (names hidden until the vote), a favourite and a note kept across a
 * reload, the comparison exported (3 WAVs that ffmpeg decodes + a CSV of 3 rows), axe-core on
 * the Voices view with 0 violations in both themes, and screenshots of both modes. Honest
 * figures: a voice of another language than the sentence has a hint on its card (and loses it
 * when the sentence is in its language); the same sentence spoken again comes from the sentence
 * cache and its cards say so (the answers' X-Sentence-Cache: hit); with "Measure without the
 * cache" the requests carry X-Sentence-Cache: bypass and the cards are not marked cached; the
 * Studio's voice picker says its price in words, per locale (English and Vietnamese).
 */

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Locator, Page } from 'playwright-core';
import { VOICES } from '../../electron/shared/voices';
import { CSV_HEADER } from '../../renderer/src/features/voices/workbench/logic';
import type { VoicePackList } from '../../electron/shared/voice-packs';
import { probeAudio } from '../fixtures/ffprobe';
import { E2E_PACK, launchBrowser, nav, startStudio, startVoiceMirror } from './harness';
import { sessionHeaders } from './projects.e2e';
import vi from '../../renderer/src/i18n/messages/vi.json';
import { waitUntil } from '../faults/harness';

const VI = 'vi_female_thuytrang_mb';
const EN = 'en_female_emily_us';
const OWN = 'co_lan';
const SENTENCE = 'Chào buổi sáng, hôm nay chúng ta cùng nghe thử ba giọng đọc khác nhau.';
const NOTE = 'Warm, "clear", a little fast';
const SHOTS = join(process.cwd(), 'docs/screenshots');
const nameOf = (code: string) => VOICES.find((v) => v.voice_code === code)!.name;

async function api<T>(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await page.request.fetch(path, {
    method,
    headers: { ...(await sessionHeaders(page)), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { data: JSON.stringify(body) } : {}),
  });
  assert.ok(response.ok(), `${method} ${path}: HTTP ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { result: T }).result;
}

/** axe-core's violations on the page as it is (its source injected; the page's CSP does not apply). */
export async function axeViolations(page: Page): Promise<string[]> {
  const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    const { violations } = await axe.run();
    return violations.map(
      (v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`,
    );
    interface AxeViolation {
      id: string;
      help: string;
      nodes: { target: string[] }[];
    }
  });
}

/** A minimal RFC 4180 reader (quoted fields with commas, doubled quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** The figures a result card shows, by their terms. */
async function figures(card: Locator): Promise<Record<string, string>> {
  const terms = await card.locator('dt').allTextContents();
  const values = await card.locator('dd').allTextContents();
  return Object.fromEntries(terms.map((t, i) => [t, values[i]!]));
}
const number = (text: string) => Number(text.replace(/[^\d.]/g, ''));

/** The audition requests of the page: the X-Sentence-Cache each sent and the one its answer had. */
function watchAuditions(page: Page): { sent: (string | undefined)[]; answered: (string | undefined)[] } {
  const seen = { sent: [] as (string | undefined)[], answered: [] as (string | undefined)[] };
  page.on('request', (r) => {
    if (r.method() === 'GET' && /\/audition\?/.test(r.url())) seen.sent.push(r.headers()['x-sentence-cache']);
  });
  page.on('response', (r) => {
    if (r.request().method() === 'GET' && /\/audition\?/.test(r.url()))
      seen.answered.push(r.headers()['x-sentence-cache']);
  });
  return seen;
}

export async function runWorkbenchE2e(log: (line: string) => void): Promise<void> {
  const voiceMirror = await startVoiceMirror();
  const studio = await startStudio(voiceMirror.args);
  const browser = await launchBrowser();
  const scratch = mkdtempSync(join(tmpdir(), 'workbench-e2e-'));
  mkdirSync(SHOTS, { recursive: true });
  try {
    const context = await browser.newContext({
      viewport: { width: 1360, height: 1000 },
      colorScheme: 'light',
      baseURL: studio.url,
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const auditions = watchAuditions(page);
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(studio.loginUrl);
    await page.getByRole('heading', { name: 'Studio', exact: true }).waitFor();

    // An installed pack (it speaks the English voices) and a voice of the user's own.
    await api(page, 'POST', '/api/v1/voice-packs/install', { id: E2E_PACK.entry.id });
    await waitUntil(
      'the pack to install',
      async () => {
        const list = await api<VoicePackList>(page, 'GET', '/api/v1/voice-packs');
        return list.voices.find((v) => v.voice_code === EN)?.engine?.includes(E2E_PACK.entry.id) || undefined;
      },
      60_000,
      100,
    );
    await api(page, 'POST', '/api/v1/custom-voices', {
      code: OWN,
      name: 'Cô Lan',
      base: { kind: 'code', voice_code: VI },
      prosody: { speed: 1.3, pitch: 1.1 },
    });
    await page.reload();
    await nav(page, 'Voices').click();
    const bench = page.getByRole('region', { name: 'Voice workbench' });
    await bench.waitFor();
    // The voice in use says so, in its name too (axe: label-content-name-mismatch).
    await page.getByRole('button', { name: `In use: ${nameOf(EN)} (${EN})`, exact: true }).waitFor();

    // The sentence starts in the language of the voice in use (English: Emily), then of the first
    // voice queued (Vietnamese); the tester writes their own.
    const sentence = bench.getByLabel('Your sentence');
    assert.match(await sentence.inputValue(), /lighthouse/);
    for (const code of [VI, EN, OWN]) {
      await bench.getByLabel('Voice to compare').selectOption(code);
      await bench.getByRole('button', { name: 'Add to the comparison' }).click();
    }
    assert.match(await sentence.inputValue(), /^Xin chào/);
    await sentence.fill(SENTENCE);
    const cards = bench.getByRole('list', { name: 'Voices to compare' }).getByRole('listitem');
    assert.equal(await cards.count(), 3);
    await bench.getByRole('button', { name: 'Speak with 3 voices' }).click();
    const card = (code: string, name: string) =>
      bench.getByRole('listitem', { name: `${name} (${code})`, exact: true });
    const shown: Record<string, Record<string, string>> = {};
    for (const [code, name] of [
      [VI, nameOf(VI)],
      [EN, nameOf(EN)],
      [OWN, 'Cô Lan'],
    ] as const) {
      const c = card(code, name);
      await c.getByText('Real-time factor').waitFor({ timeout: 60_000 });
      const f = await figures(c);
      shown[code] = f;
      assert.match(f.Duration!, /^[\d.,]+ s$/);
      assert.match(f['First audio']!, /^[\d,]+ ms$/);
      assert.ok(number(f.Duration!) > 0.5, `${code}: ${f.Duration}`);
      assert.ok(number(f['First audio']!) <= number(f.Total!), `${code}: first audio ≤ total`);
      assert.ok(number(f['Real-time factor']!) > 0, `${code}: RTF`);
      assert.equal(
        await c.locator('.workbench-wave canvas').first().isVisible(),
        true,
        `${code}: a waveform`,
      );
    }
    // Said the first time: nothing came from the cache, and no card says so.
    assert.deepEqual(auditions.answered, ['miss', 'miss', 'miss']);
    assert.equal(await bench.locator('.workbench-cache').count(), 0, 'no card marked cached');
    // The English voice on the Vietnamese sentence has a hint; the Vietnamese voices have none.
    assert.equal(
      await card(EN, nameOf(EN)).locator('.workbench-language').textContent(),
      `This text looks Vietnamese, but ${nameOf(EN)} speaks another language.`,
    );
    assert.equal(await card(VI, nameOf(VI)).locator('.workbench-language').count(), 0);
    assert.equal(await card(OWN, 'Cô Lan').locator('.workbench-language').count(), 0);
    // What speaks each: eSpeak for the Vietnamese voice, the installed pack for the English one.
    assert.equal(await card(EN, nameOf(EN)).locator('.badge.engine').textContent(), 'natural');
    assert.equal(await card(VI, nameOf(VI)).locator('.badge.engine').textContent(), 'basic');
    // The user's voice is its base at speed 1.3: shorter than the base.
    assert.ok(
      number(shown[OWN]!.Duration!) < number(shown[VI]!.Duration!),
      'Cô Lan speaks faster than her base',
    );
    log(
      `✓ three voices speak the tester's sentence with figures (${Object.entries(shown)
        .map(([c, f]) => `${c}: ${f.Duration}, first audio ${f['First audio']}, RTF ${f['Real-time factor']}`)
        .join('; ')})`,
    );

    // Play all: one after another, the status says which.
    await bench.getByRole('button', { name: 'Play all' }).click();
    const status = bench.locator('.workbench-actions [role="status"]');
    for (const [i, name] of [nameOf(VI), nameOf(EN), 'Cô Lan'].entries()) {
      await status.getByText(`Playing ${i + 1} of 3: ${name}`).waitFor({ timeout: 60_000 });
    }
    await bench.getByRole('button', { name: 'Play all' }).waitFor({ timeout: 60_000 });
    log('✓ Play all plays the three in turn');

    // Favourite and note.
    const own = card(OWN, 'Cô Lan');
    const star = own.getByRole('button', { name: `Favourite Cô Lan (${OWN})` });
    await star.click();
    assert.equal(await star.getAttribute('aria-pressed'), 'true');
    await own.getByLabel('Note').fill(NOTE);

    // Screenshots: three results, light and dark.
    await bench.getByRole('heading', { name: 'Voice workbench' }).scrollIntoViewIfNeeded();
    await bench.screenshot({ path: join(SHOTS, 'voice-workbench-light.png') });

    // Blind A/B: the names hidden until the vote.
    const blind = bench.getByRole('region', { name: 'Blind A/B test' });
    await blind.getByLabel('First voice').selectOption(VI);
    await blind.getByLabel('Second voice').selectOption(OWN);
    await blind.getByRole('button', { name: 'Start a blind round' }).click();
    const round = blind.getByRole('group', { name: 'Blind round' });
    await round.waitFor({ timeout: 30_000 });
    const hidden = (await round.textContent()) ?? '';
    assert.ok(!hidden.includes(nameOf(VI)) && !hidden.includes('Cô Lan') && !hidden.includes(VI), hidden);
    assert.equal(await round.getByText('Hidden voice').count(), 2);
    await round.getByRole('button', { name: 'Play A' }).click();
    await round.getByRole('button', { name: 'Stop A' }).waitFor({ timeout: 60_000 });
    await blind.screenshot({ path: join(SHOTS, 'voice-workbench-ab-light.png') });
    await round.getByRole('button', { name: 'A is better' }).click();
    const reveal = round.getByRole('status');
    const revealed = (await reveal.textContent()) ?? '';
    const m = /^A was (.+) \((\S+)\), B was (.+) \((\S+)\)\. You preferred (.+)\.$/.exec(revealed);
    assert.ok(m, revealed);
    assert.deepEqual([m[2], m[4]].sort(), [OWN, VI].sort());
    assert.equal(m[5], m[1]);
    const winner = m[2]!;
    const tallyRow = blind.getByRole('row', { name: new RegExp(winner) });
    assert.deepEqual(await tallyRow.getByRole('cell').allTextContents(), ['1', '1']);
    log(`✓ a blind round hides the names, takes the vote and reveals them (A was ${m[2]}; tally 1 win)`);

    // axe-core on the Voices view, results and round shown, light.
    assert.deepEqual(await axeViolations(page), [], 'axe-core, light');

    // Dark: the same view, axe and screenshots.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    assert.deepEqual(await axeViolations(page), [], 'axe-core, dark');
    await bench.getByRole('heading', { name: 'Voice workbench' }).scrollIntoViewIfNeeded();
    await bench.locator('.workbench-results').screenshot({ path: join(SHOTS, 'voice-workbench-dark.png') });
    await blind.getByRole('button', { name: 'New round' }).click();
    await round.getByText('Hidden voice').first().waitFor({ timeout: 30_000 });
    await blind.screenshot({ path: join(SHOTS, 'voice-workbench-ab-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    log('✓ axe-core: 0 violations on the Voices view in both themes; screenshots of both modes');

    // Export: 3 WAVs that decode, with the durations shown, and a CSV of 3 rows.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      bench.getByRole('button', { name: 'Export comparison (.zip)' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^voice-comparison-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
    const names = Object.keys(files).sort();
    assert.deepEqual(names, [`01-${VI}.wav`, `02-${EN}.wav`, `03-${OWN}.wav`, 'comparison.csv']);
    for (const [i, code] of [VI, EN, OWN].entries()) {
      const path = join(scratch, `${i}.wav`);
      writeFileSync(path, files[names[i]!]!);
      const probed = await probeAudio(path);
      assert.equal(probed.errors, '', `${code} decodes`);
      assert.equal(probed.codec, 'pcm_s16le');
      assert.ok(
        Math.abs(probed.durationMs / 1000 - number(shown[code]!.Duration!)) < 0.01,
        `${code}: ${probed.durationMs} ms vs ${shown[code]!.Duration}`,
      );
    }
    const csvBytes = files['comparison.csv']!;
    assert.deepEqual(
      [...csvBytes.subarray(0, 3)],
      [0xef, 0xbb, 0xbf],
      'the CSV starts with a UTF-8 byte-order mark',
    );
    const csv = parseCsv(strFromU8(csvBytes.subarray(3)));
    assert.equal(csv.length, 4, 'a header and 3 rows');
    const header = csv[0]!;
    assert.equal(header.join(','), CSV_HEADER.join(','), 'the stable English column names');
    const rows = csv.slice(1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
    assert.deepEqual(
      rows.map((r) => r.voice_code),
      [VI, EN, OWN],
    );
    const ownRow = rows[2]!;
    assert.equal(ownRow.note, NOTE);
    assert.equal(ownRow.favourite, 'yes');
    assert.equal(ownRow.sentence, SENTENCE);
    assert.equal(rows[0]!.favourite, 'no');
    assert.deepEqual(
      rows.map((r) => r.sentence_cache),
      ['miss', 'miss', 'miss'],
    );
    assert.equal(Number(ownRow.first_audio_ms), number(shown[OWN]!['First audio']!));
    assert.equal(rows.find((r) => r.voice_code === winner)!.ab_wins, '1');
    log('✓ the export holds 3 WAVs that ffmpeg decodes (durations as shown) and a CSV of 3 rows with notes');

    // Reload: sentence, voices, favourite, note and tally kept.
    await page.reload();
    await nav(page, 'Voices').click();
    await bench.waitFor();
    assert.equal(await bench.getByLabel('Your sentence').inputValue(), SENTENCE);
    assert.equal(await cards.count(), 3);
    assert.equal(
      await own.getByRole('button', { name: `Favourite Cô Lan (${OWN})` }).getAttribute('aria-pressed'),
      'true',
    );
    assert.equal(await own.getByLabel('Note').inputValue(), NOTE);
    assert.deepEqual(
      await blind
        .getByRole('row', { name: new RegExp(winner) })
        .getByRole('cell')
        .allTextContents(),
      ['1', '1'],
    );
    log('✓ after a reload the sentence, the three voices, the favourite, the note and the tally are kept');

    // The same sentence again: every voice answered from the sentence cache, and marked so.
    const speakAgain = async (name: string, mark: string) => {
      auditions.sent.length = 0;
      auditions.answered.length = 0;
      await bench.getByRole('button', { name }).click();
      for (const [code, voice] of [
        [VI, nameOf(VI)],
        [EN, nameOf(EN)],
        [OWN, 'Cô Lan'],
      ] as const)
        await card(code, voice).locator('.workbench-cache .badge').getByText(mark, { exact: true }).waitFor({
          timeout: 60_000,
        });
      return Object.fromEntries(
        await Promise.all(
          [VI, EN, OWN].map(
            async (code) =>
              [code, await figures(card(code, code === OWN ? 'Cô Lan' : nameOf(code)))] as const,
          ),
        ),
      );
    };
    const cached = await speakAgain('Speak with 3 voices', 'From the cache');
    assert.deepEqual(auditions.sent, [undefined, undefined, undefined], 'no bypass asked');
    assert.deepEqual(auditions.answered, ['hit', 'hit', 'hit']);
    assert.match(
      (await card(EN, nameOf(EN)).locator('.workbench-cache').textContent()) ?? '',
      /Every sentence was read back from the sentence cache: these figures time stored audio, not the voice speaking\./,
    );
    assert.deepEqual(await axeViolations(page), [], 'axe-core, cached cards');
    await bench
      .locator('.workbench-results')
      .screenshot({ path: join(SHOTS, 'voice-workbench-cached-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    assert.deepEqual(await axeViolations(page), [], 'axe-core, cached cards, dark');
    await bench
      .locator('.workbench-results')
      .screenshot({ path: join(SHOTS, 'voice-workbench-cached-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    log(
      `✓ spoken again, the three cards say "From the cache" (X-Sentence-Cache: hit; ${Object.entries(cached)
        .map(([c, f]) => `${c}: first audio ${f['First audio']}, RTF ${f['Real-time factor']}`)
        .join('; ')})`,
    );

    // Measured without the cache: the requests ask for it, and no card is marked cached.
    const noCache = bench.getByRole('switch', { name: 'Measure without the cache' });
    await noCache.check();
    const measured = await speakAgain('Speak with 3 voices', 'Measured without the cache');
    assert.deepEqual(auditions.sent, ['bypass', 'bypass', 'bypass'], 'every request asked for no cache');
    assert.deepEqual(auditions.answered, ['bypass', 'bypass', 'bypass']);
    assert.equal(await bench.locator('.workbench-cache.cached').count(), 0, 'no card marked cached');
    log(
      `✓ with "Measure without the cache" the requests carry X-Sentence-Cache: bypass and the cards are measured (${Object.entries(
        measured,
      )
        .map(([c, f]) => `${c}: first audio ${f['First audio']}, RTF ${f['Real-time factor']}`)
        .join('; ')})`,
    );

    // An English sentence: the hint moves to the Vietnamese voices.
    await bench
      .getByLabel('Your sentence')
      .fill('The lighthouse keeper climbed the stairs at dusk and lit the lamp.');
    await card(VI, nameOf(VI))
      .locator('.workbench-language')
      .getByText(`This text looks English, but ${nameOf(VI)} speaks another language.`)
      .waitFor();
    assert.equal(await card(EN, nameOf(EN)).locator('.workbench-language').count(), 0);
    log(
      '✓ the language hint follows the sentence: on the English voice for Vietnamese, on the Vietnamese ones for English',
    );
    await bench.getByLabel('Your sentence').fill(SENTENCE);

    // Prices in words, per locale: the Studio's voice picker and its estimate.
    await nav(page, 'Studio').click();
    const priced = page.locator(`select option[value="${VI}"]`, { hasText: 'credits per' }).first();
    const priceEn = (await priced.textContent()) ?? '';
    assert.match(priceEn, / · 1,000 credits per 1,000 characters\b/);
    log(`✓ the voice picker's price in English: "${priceEn}"`);

    // In Vietnamese: the price with vi's separators, the cached mark and the hint in Vietnamese.
    await nav(page, 'Settings').click();
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('vi');
    await page.waitForFunction(() => document.documentElement.lang === 'vi');
    await nav(page, 'Studio').click();
    const pricedVi = page.locator(`select option[value="${VI}"]`, { hasText: 'tín dụng' }).first();
    const priceVi = (await pricedVi.textContent()) ?? '';
    assert.match(priceVi, / · 1\.000 tín dụng cho 1\.000 ký tự(?: · |$)/);
    await nav(page, 'Voices').click();
    const benchVi = page.getByRole('region', { name: vi['voices.workbench.title'] });
    await benchVi.waitFor();
    // The switch is off again (it is the workbench's own, not kept): the cache answers.
    await benchVi.getByRole('switch', { name: vi['voices.workbench.noCache'] }).uncheck();
    await benchVi.getByRole('button', { name: 'Đọc bằng 3 giọng đọc' }).click();
    const enVi = benchVi.getByRole('listitem', { name: `${nameOf(EN)} (${EN})`, exact: true });
    await enVi
      .locator('.workbench-cache .badge')
      .getByText('Từ bộ nhớ đệm', { exact: true })
      .waitFor({ timeout: 60_000 });
    assert.equal(
      await enVi.locator('.workbench-language').textContent(),
      `Văn bản này có vẻ là tiếng Việt, nhưng ${nameOf(EN)} đọc ngôn ngữ khác.`,
    );
    for (const code of [VI, OWN])
      await benchVi
        .getByRole('listitem', { name: `${code === OWN ? 'Cô Lan' : nameOf(code)} (${code})`, exact: true })
        .locator('.workbench-cache .badge')
        .getByText('Từ bộ nhớ đệm', { exact: true })
        .waitFor({ timeout: 60_000 });
    await benchVi
      .locator('.workbench-results')
      .screenshot({ path: join(SHOTS, 'voice-workbench-cached-vi-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await benchVi
      .locator('.workbench-results')
      .screenshot({ path: join(SHOTS, 'voice-workbench-cached-vi-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    log(`✓ in Vietnamese: the price "${priceVi}", "Từ bộ nhớ đệm" and the hint in Vietnamese`);

    assert.deepEqual(pageErrors, []);
    await context.close();
  } finally {
    await browser.close();
    await studio.stop();
    await voiceMirror.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
