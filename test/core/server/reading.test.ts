/**
 * POST /api/v1/reading over real HTTP on the core (the fake engine, whose reading is the engine's
 * own `readingOf`; the real engine host reads in the last test): the reading of a Vietnamese and
 * an English text with its changes (offsets in UTF-16 code units of the text), by voice or language; the
 * data directory's lexicon applied as a render applies it (an entry added through the lexicon
 * API changes the reading); every refusal in the API's error shape; a key or the studio session
 * needed.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READING_MAX_CHARS, type Reading } from '../../../electron/shared/api';
import { textBodyLimit } from '../../../electron/core/server/body-limits';
import { createEngineHost } from '../../../electron/core/engine';
import { startFakeEngineStudio, type SignedInTestCore } from './helpers';
import { buildTestApp } from './inject';

let t: SignedInTestCore;
/** Cookie and X-Studio-Session: a signed-in call. */
let signedIn: Record<string, string>;

beforeAll(async () => {
  t = await startFakeEngineStudio();
  ({ headers: signedIn } = t.studio);
});
afterAll(async () => t?.close());

const read = (body: unknown, options: { key?: string | null; headers?: Record<string, string> } = {}) =>
  t.call('POST', '/api/v1/reading', { body, ...options });

/** Each change's written part is the text's slice at its offsets. */
function expectOffsetsOf(text: string, reading: Reading) {
  for (const change of reading.changes) expect(text.slice(change.from, change.to)).toBe(change.written);
}

/** How the Vietnamese rules read 21/11/2026. */
const VI_DATE = 'hai mươi mốt tháng mười một năm hai nghìn không trăm hai mươi sáu';

describe('POST /api/v1/reading', () => {
  it('reads a Vietnamese text for a voice: dates and money in words, each change located', async () => {
    const text = 'Ngày 21/11/2026, vé giá 50.000đ.';
    const res = await read({ text, voice_code: 'vi_female_thuytrang_mb' });
    expect(res.status).toBe(200);
    const reading = res.json.result as Reading;
    expect(reading).toMatchObject({ language: 'vi', voice_code: 'vi_female_thuytrang_mb' });
    expect(reading).not.toHaveProperty('text');
    expect(reading.reading).toContain(VI_DATE);
    expect(reading.reading).toContain('năm mươi nghìn đồng');
    expect(reading.changes).toEqual([
      {
        from: 5,
        to: 15,
        written: '21/11/2026',
        spoken: VI_DATE,
        source: 'rule',
        rule: 'date',
      },
      { from: 24, to: 31, written: '50.000đ', spoken: 'năm mươi nghìn đồng', source: 'rule', rule: 'money' },
    ]);
  });

  it('reads an English text for a language, the date order as asked or as the voice reads it', async () => {
    const text = 'On 05/06/2026 it cost $5.';
    const us = (await read({ text, language: 'en' })).json.result as Reading;
    expect(us).toMatchObject({ language: 'en' });
    expect(us).not.toHaveProperty('voice_code');
    expect(us.reading).toContain('May sixth, twenty twenty six');
    expect(us.reading).toContain('five dollars');
    expect(us.changes.map((c) => c.rule)).toEqual(['date', 'money']);
    expectOffsetsOf(text, us);
    const dayFirst = (await read({ text, language: 'en', date_order: 'dmy' })).json.result as Reading;
    expect(dayFirst.reading).toContain('the fifth of June twenty twenty six');
    // A British voice reads numeric dates day first, as its renders do.
    const british = (await read({ text, voice_code: 'en_female_elara_br' })).json.result as Reading;
    expect(british).toMatchObject({ language: 'en', voice_code: 'en_female_elara_br' });
    expect(british.reading).toContain('the fifth of June twenty twenty six');
  });

  it('counts offsets in UTF-16 code units, and answers the cleaned text when cleaning changed it', async () => {
    const astral = '𝄞 😀 $5';
    const plain = (await read({ text: astral, language: 'en' })).json.result as Reading;
    const money = plain.changes.find((c) => c.rule === 'money')!;
    expect(money).toMatchObject({ from: 6, to: 8, written: '$5' });
    expectOffsetsOf(astral, plain);

    // Decomposed Vietnamese and CR LF line ends: read as a render reads them (NFC, "\n").
    const decomposed = 'Ngày 21/11/2026\r\nHà Nội'.normalize('NFD');
    const cleaned = (await read({ text: decomposed, language: 'vi' })).json.result as Reading;
    expect(cleaned.text).toBe('Ngày 21/11/2026\nHà Nội');
    expect(cleaned.changes[0]).toMatchObject({ from: 5, to: 15, written: '21/11/2026', rule: 'date' });
    expectOffsetsOf(cleaned.text!, cleaned);
  });

  it('reads `[chapter: …]` lines as a render does: not spoken, listed as markup', async () => {
    const text = '[chapter: Một]\nNgày 21/11/2026.\n  [chapter: Hai]  \nHết.';
    const reading = (await read({ text, language: 'vi' })).json.result as Reading;
    expect(reading.reading).not.toContain('chapter');
    expect(reading.reading).toContain(VI_DATE);
    expect(reading.changes).toEqual([
      { from: 0, to: 14, written: '[chapter: Một]', spoken: '', source: 'rule', rule: 'markup' },
      {
        from: 20,
        to: 30,
        written: '21/11/2026',
        spoken: VI_DATE,
        source: 'rule',
        rule: 'date',
      },
      { from: 34, to: 48, written: '[chapter: Hai]', spoken: '', source: 'rule', rule: 'markup' },
    ]);
    expectOffsetsOf(text, reading);
  });

  it('applies the lexicon of the language as a render does: an entry added through the API changes the reading', async () => {
    const text = 'HTX Hà Nội họp ngày 21/11/2026.';
    const before = (await read({ text, language: 'vi' })).json.result as Reading;
    expect(before.changes.some((c) => c.source === 'lexicon')).toBe(false);

    const added = await t.call('POST', '/api/v1/lexicon', {
      key: null,
      headers: signedIn,
      body: { language: 'vi', match: 'HTX', kind: 'respell', replacement: 'hợp tác xã' },
    });
    expect(added.status).toBe(200);
    // An English entry with the same match is not applied to a Vietnamese text.
    await t.call('POST', '/api/v1/lexicon', {
      key: null,
      headers: signedIn,
      body: { language: 'en', match: 'Hà Nội', kind: 'respell', replacement: 'Hanoi' },
    });

    const after = (await read({ text, voice_code: 'vi_male_lehoang_mb' })).json.result as Reading;
    expect(after.reading.startsWith('hợp tác xã Hà Nội')).toBe(true);
    expect(after.changes[0]).toEqual({
      from: 0,
      to: 3,
      written: 'HTX',
      spoken: 'hợp tác xã',
      source: 'lexicon',
      rule: null,
    });
    expect(after.changes.filter((c) => c.source === 'lexicon')).toHaveLength(1);
    expect(after.changes.at(-1)).toMatchObject({ written: '21/11/2026', rule: 'date' });
    // By language too.
    expect(((await read({ text, language: 'vi' })).json.result as Reading).reading).toBe(after.reading);
  });

  it('reads for a custom voice with its own lexicon entries before the global ones', async () => {
    const created = await t.call('POST', '/api/v1/custom-voices', {
      body: {
        code: 'ban-tin',
        name: 'Bản tin',
        base: { kind: 'code', voice_code: 'vi_male_lehoang_mb' },
        lexicon: [{ match: 'UBND', kind: 'respell', replacement: 'ủy ban' }],
      },
    });
    expect(created.status, created.text).toBe(201);
    const text = 'UBND họp.';
    const custom = (await read({ text, voice_code: 'ban-tin' })).json.result as Reading;
    expect(custom).toMatchObject({ language: 'vi', voice_code: 'ban-tin', reading: 'ủy ban họp.' });
    expect(custom.changes).toEqual([
      { from: 0, to: 4, written: 'UBND', spoken: 'ủy ban', source: 'lexicon', rule: null },
    ]);
    // Its base voice reads with the global entry (added in the test above).
    const base = (await read({ text, voice_code: 'vi_male_lehoang_mb' })).json.result as Reading;
    expect(base.reading).toBe('ủy ban nhân dân họp.');
  });

  it('refuses what it cannot read in the API’s error shape', async () => {
    const cases: [unknown, number, string, string | undefined][] = [
      [{ text: 'xin chào', voice_code: 'vi_nobody' }, 400, 'UNKNOWN_VOICE', 'voice_code'],
      [{ text: 'hola', language: 'de' }, 400, 'INVALID_FIELD', 'language'],
      [{ text: '', language: 'vi' }, 400, 'NOTHING_TO_SPEAK', 'text'],
      [{ text: ' \n\t ', language: 'vi' }, 400, 'NOTHING_TO_SPEAK', 'text'],
      [{ language: 'vi' }, 400, 'MISSING_FIELD', 'text'],
      [{ text: 'xin chào' }, 400, 'MISSING_FIELD', 'voice_code'],
      [{ text: 42, language: 'vi' }, 400, 'INVALID_FIELD', 'text'],
      [{ text: 'x', language: 'en', date_order: 'ymd' }, 400, 'INVALID_FIELD', 'date_order'],
      // Both, disagreeing: the voice speaks Vietnamese.
      [
        { text: 'xin chào', voice_code: 'vi_male_lehoang_mb', language: 'en' },
        400,
        'INVALID_FIELD',
        'language',
      ],
      [[1, 2], 400, 'INVALID_JSON', undefined],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await read(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.json).toMatchObject({ status: 0, error_code: code });
      expect(typeof res.json.error_message).toBe('string');
      // The message names the field at fault.
      if (field) expect(res.json.error_message, JSON.stringify(body)).toContain(field);
    }
    // Both, agreeing: fine.
    expect((await read({ text: 'xin chào', voice_code: 'vi_male_lehoang_mb', language: 'vi' })).status).toBe(
      200,
    );
  });

  it('takes up to READING_MAX_CHARS characters, refuses one more, and a body over its limit unread', async () => {
    const longest = `${'Ngày 21/11/2026 giá 50.000đ. '.repeat(Math.ceil(READING_MAX_CHARS / 29))}`.slice(
      0,
      READING_MAX_CHARS,
    );
    const ok = await read({ text: longest, language: 'vi' });
    expect(ok.status).toBe(200);
    expect((ok.json.result as Reading).changes.length).toBeGreaterThan(10_000);

    const tooLong = await read({ text: `${longest}x`, language: 'vi' });
    expect(tooLong.status).toBe(413);
    expect(tooLong.json).toEqual({
      status: 0,
      error_code: 'TEXT_TOO_LONG',
      error_message: `text has ${READING_MAX_CHARS + 1} characters; the limit is ${READING_MAX_CHARS}.`,
      error_details: { field: 'text', characters: READING_MAX_CHARS + 1, limit: READING_MAX_CHARS },
    });

    const huge = await t.call('POST', '/api/v1/reading', {
      raw: JSON.stringify({ text: 'a'.repeat(textBodyLimit(READING_MAX_CHARS)), language: 'en' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(413);
    expect(huge.json.error_code).toBe('BODY_TOO_LARGE');
  });

  it('needs a key or the studio session', async () => {
    const body = { text: 'ngày 21/11/2026', language: 'vi' };
    const none = await read(body, { key: null });
    expect(none.status).toBe(401);
    expect(none.json.error_code).toBe('UNAUTHORIZED');
    expect((await read(body, { key: 'ns_wrong_key_0000000000000000000000000000' })).status).toBe(401);
    const studio = await read(body, { key: null, headers: signedIn });
    expect(studio.status).toBe(200);
    expect((studio.json.result as Reading).changes[0]).toMatchObject({ rule: 'date' });
  });
});

describe('POST /api/v1/reading has one path: the engine it is given', () => {
  it('reads with the engine host of the test app (the route bench’s), and fails with it, never on the HTTP thread', async () => {
    const host = await createEngineHost({ poolSize: 1 });
    const app = await buildTestApp({ reader: host });
    try {
      const body = { body: { text: 'ngày 21/11/2026', language: 'vi' } };
      const first = await app.call('POST', '/api/v1/reading', body);
      expect(first.status).toBe(200);
      expect((first.json.result as Reading).reading).toBe(`ngày ${VI_DATE}`);
      // The host gone, the route has nothing to read with: an error, not a reading made here.
      await host.close();
      const after = await app.call('POST', '/api/v1/reading', body);
      expect(after.status).toBe(503);
      expect(after.json.error_code).toBe('SHUTTING_DOWN');
    } finally {
      await host.close();
      await app.close();
    }
  });
});
