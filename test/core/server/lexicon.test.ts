/**
 * The pronunciation lexicon over real HTTP on the full core: the studio session edits it (add,
 * edit, remove, import), any key reads, exports and previews it, errors come in the API's shape
 * with their codes, and the preview speaks the entry (measured against the word read alone).
 */

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lexiconPath } from '../../../electron/core/lexicon/lexicon-store';
import { fetchUrl, startSignedInCore, type SignedInTestCore } from './helpers';

let t: SignedInTestCore;
/** Cookie and X-Studio-Session: a signed-in call. */
let signedIn: Record<string, string>;

beforeAll(async () => {
  t = await startSignedInCore();
  ({ headers: signedIn } = t.studio);
});
afterAll(async () => {
  await t?.close();
});

/** A call as the signed-in studio (the session cookie, no key). */
function studio(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) {
  return t.call(method, path, { key: null, headers: signedIn, ...(body !== undefined ? { body } : {}) });
}

/** Seconds of a streamed 16-bit mono WAV at 22.05 kHz (header of 44 bytes). */
const seconds = (wav: Buffer) => (wav.length - 44) / 2 / 22050;

const siobhan = { language: 'en', match: 'Cholmondeley', kind: 'ipa', replacement: 'ˈtʃʌmli' };

describe('/api/v1/lexicon', () => {
  let id: string;

  it('lets the studio add, read, edit and remove entries, the version growing', async () => {
    const empty = await t.call('GET', '/api/v1/lexicon');
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({ status: 1, result: { version: 0, items: [] } });

    const added = await studio('POST', '/api/v1/lexicon', { ...siobhan, note: 'the family name' });
    expect(added.status).toBe(200);
    expect(added.json.result).toMatchObject({
      version: 1,
      entry: { ...siobhan, case_sensitive: false, whole_word: true, note: 'the family name' },
    });
    id = added.json.result.entry.id;
    await studio('POST', '/api/v1/lexicon', {
      language: 'vi',
      match: 'HN',
      kind: 'respell',
      replacement: 'Hà Nội',
    });

    // Any key reads it: all of it, one language, a search, one entry.
    expect((await t.call('GET', '/api/v1/lexicon')).json.result.items).toHaveLength(2);
    expect(
      (await t.call('GET', '/api/v1/lexicon?language=vi')).json.result.items.map(
        (e: { match: string }) => e.match,
      ),
    ).toEqual(['HN']);
    expect(
      (await t.call('GET', '/api/v1/lexicon?q=family')).json.result.items.map((e: { id: string }) => e.id),
    ).toEqual([id]);
    expect((await t.call('GET', `/api/v1/lexicon/${id}`)).json.result.match).toBe('Cholmondeley');

    const edited = await studio('PUT', `/api/v1/lexicon/${id}`, { ...siobhan, case_sensitive: true });
    expect(edited.json.result).toMatchObject({ version: 3, entry: { id, case_sensitive: true } });
    expect(edited.json.result.entry).not.toHaveProperty('note');

    // Kept in the data directory's lexicon.json.
    expect(JSON.parse(readFileSync(lexiconPath(t.dir), 'utf8')).version).toBe(3);
  });

  it('answers bad entries and unknown ids in the API’s error shape', async () => {
    const ipa = await studio('POST', '/api/v1/lexicon', { ...siobhan, match: 'X', replacement: 'ʃɪʘ' });
    expect(ipa.status).toBe(400);
    expect(ipa.json).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
    expect(ipa.json.error_message).toContain('"ʘ" (U+0298, character 3)');
    const kind = await studio('POST', '/api/v1/lexicon', { ...siobhan, kind: 'sing' });
    expect(kind.status).toBe(400);
    expect(kind.json.error_message).toMatch(/^Invalid lexicon field kind/);
    const twice = await studio('POST', '/api/v1/lexicon', { ...siobhan, case_sensitive: true });
    expect(twice.json.error_message).toContain('already has an entry for "Cholmondeley"');
    const missing = await studio('PUT', '/api/v1/lexicon/nope', siobhan);
    expect(missing.status).toBe(404);
    expect(missing.json.error_code).toBe('LEXICON_ENTRY_NOT_FOUND');
    expect((await studio('DELETE', '/api/v1/lexicon/nope')).json.error_code).toBe('LEXICON_ENTRY_NOT_FOUND');
    expect((await t.call('GET', '/api/v1/lexicon?language=de')).status).toBe(400);
  });

  it('lets bearer keys read and preview, but only the studio change it', async () => {
    for (const [method, path, body] of [
      ['POST', '/api/v1/lexicon', siobhan],
      ['PUT', `/api/v1/lexicon/${id}`, siobhan],
      ['DELETE', `/api/v1/lexicon/${id}`, undefined],
      ['POST', '/api/v1/lexicon/import', { format: 'json', text: '[]' }],
    ] as const) {
      const res = await t.call(method, path, body !== undefined ? { body } : {});
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.json.error_message).toMatch(/Only the signed-in studio/);
    }
    expect((await t.call('GET', '/api/v1/lexicon', { key: null })).status).toBe(401);
    expect((await t.call('GET', `/api/v1/lexicon/${id}/preview`)).status).toBe(401);
  });

  it('exports JSON, CSV and PLS files', async () => {
    const json = await t.call('GET', '/api/v1/lexicon/export?format=json');
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.headers['content-disposition']).toBe('attachment; filename="lexicon.json"');
    expect(JSON.parse(json.text).map((e: { match: string }) => e.match)).toEqual(['Cholmondeley', 'HN']);
    const csv = await t.call('GET', '/api/v1/lexicon/export?format=csv&language=vi');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    // The UTF-8 byte-order mark first (Excel shows "Hà Nội" right only with it), then the records.
    expect([...csv.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.text).toBe(
      '\uFEFFlanguage,match,kind,replacement,case_sensitive,whole_word,note\r\nvi,HN,respell,Hà Nội,false,true,\r\n',
    );
    const pls = await t.call('GET', '/api/v1/lexicon/export?format=pls&language=en');
    expect(pls.headers['content-disposition']).toBe('attachment; filename="lexicon-en.pls"');
    expect(pls.text).toContain(
      '<lexeme><grapheme>Cholmondeley</grapheme><phoneme>ˈtʃʌmli</phoneme></lexeme>',
    );
    const noLanguage = await t.call('GET', '/api/v1/lexicon/export?format=pls');
    expect(noLanguage.status).toBe(400);
    expect(noLanguage.json).toMatchObject({ error_code: 'MISSING_FIELD' });
  });

  it('imports a file, and says where a broken one is wrong', async () => {
    const csv = 'language,match,kind,replacement\nen,GIF,respell,jif\nen,cholmondeley,ipa,ˈtʃʌmli\n';
    const merged = await studio('POST', '/api/v1/lexicon/import', { format: 'csv', text: csv });
    // "cholmondeley" is another entry than the case-sensitive "Cholmondeley".
    expect(merged.json.result).toMatchObject({ added: 2, updated: 0, unchanged: 0, removed: 0 });
    const broken = await studio('POST', '/api/v1/lexicon/import', {
      format: 'pls',
      text: '<lexicon version="1.0" alphabet="ipa" xml:lang="en">\n  <lexeme><grapheme>a</grapheme>\n</lexicon>',
    });
    expect(broken.status).toBe(422);
    expect(broken.json).toMatchObject({
      status: 0,
      error_code: 'LEXICON_FILE_INVALID',
      error_message: 'XML line 3, column 1: </lexicon> closes <lexeme> (line 2)',
    });
    const bad = await studio('POST', '/api/v1/lexicon/import', {
      format: 'csv',
      text: 'language,match,kind,replacement\nen,a,ipa,ʘ\n',
    });
    expect(bad.json.error_message).toMatch(/^CSV line 2: The IPA symbol "ʘ"/);
    expect((await studio('POST', '/api/v1/lexicon/import', { format: 'doc', text: '' })).status).toBe(400);
    const replaced = await studio('POST', '/api/v1/lexicon/import', {
      format: 'csv',
      text: csv,
      replace: true,
    });
    // The English entries the file lacks go; the Vietnamese one stays.
    expect(replaced.json.result).toMatchObject({ added: 0, unchanged: 2, removed: 1 });
    expect((await t.call('GET', '/api/v1/lexicon?language=vi')).json.result.items).toHaveLength(1);
  });

  it('previews an entry as a streamed WAV, shorter than the word read alone', async () => {
    const { items } = (await t.call('GET', '/api/v1/lexicon?q=cholmondeley')).json.result;
    const entry = items[0];
    const withEntry = await t.call('POST', `/api/v1/lexicon/${entry.id}/preview`, { body: {} });
    expect(withEntry.status).toBe(200);
    expect(withEntry.headers['content-type']).toBe('audio/wav');
    const without = await t.call('POST', `/api/v1/lexicon/${entry.id}/preview`, {
      body: { variant: 'without' },
    });
    // "tʃˈʌmli" against eSpeak's "kˈoʊməndˌɛli".
    expect(seconds(without.body) - seconds(withEntry.body)).toBeGreaterThan(0.08);
    // The studio's audio element: GET with the options in the query, the session only.
    const get = await fetchUrl(
      `${t.core.url}/api/v1/lexicon/${entry.id}/preview?voice_code=en_male_onyx_default`,
      'GET',
      {
        headers: signedIn,
      },
    );
    expect(get.status).toBe(200);
    expect(get.body.subarray(0, 4).toString()).toBe('RIFF');
    // A draft, not saved: its fields in the body.
    const draft = await t.call('POST', '/api/v1/lexicon/preview', {
      body: {
        language: 'en',
        match: 'Nguyen',
        kind: 'respell',
        replacement: 'win',
        voice_code: 'en_female_emily_us',
      },
    });
    expect(draft.status).toBe(200);
    const wrongVoice = await t.call('POST', `/api/v1/lexicon/${entry.id}/preview`, {
      body: { voice_code: 'vi_female_thuytrang_mb' },
    });
    expect(wrongVoice.status).toBe(400);
    expect(wrongVoice.json.error_message).toContain('choose a voice of its language');
  });

  it('applies to requests submitted through the API: shorter audio, the same subtitles', async () => {
    const submit = async () => {
      const res = await t.call('POST', '/api/v1/tts', {
        body: {
          input_text: 'Lord Cholmondeley met Nguyen.',
          voice_code: 'en_female_emily_us',
          audio_type: 'wav',
          generate_srt: true,
          response_type: 'direct',
        },
      });
      expect(res.status).toBe(200);
      const result = res.json.result as { status: string; duration_ms: number; srt_link: string };
      expect(result.status).toBe('SUCCESS');
      const srt = (await fetchUrl(result.srt_link, 'GET')).body.toString('utf8');
      return { durationMs: result.duration_ms, srt: srt.replace(/^\d+\n[\d:,]+ --> [\d:,]+\n/gm, '') };
    };
    const { items } = (await t.call('GET', '/api/v1/lexicon')).json.result;
    for (const e of items) await studio('DELETE', `/api/v1/lexicon/${e.id}`);
    const without = await submit();
    const entries = [
      { language: 'en', match: 'Cholmondeley', kind: 'ipa', replacement: 'ˈtʃʌmli' },
      { language: 'en', match: 'Nguyen', kind: 'respell', replacement: 'win' },
    ];
    for (const entry of entries) expect((await studio('POST', '/api/v1/lexicon', entry)).status).toBe(200);
    const withEntries = await submit();
    // "Chumly" and "win" are shorter to say than eSpeak's reading of the spellings.
    expect(withEntries.durationMs).toBeLessThan(without.durationMs - 100);
    // Subtitles keep the writer's words.
    expect(withEntries.srt).toBe(without.srt);
    expect(withEntries.srt).toContain('Cholmondeley');
  });

  it('keeps abbreviations and units, refuses ones that break their rules, and speaks them (issue 37)', async () => {
    const add = (language: string, kind: string, match: string, replacement: string, more = {}) =>
      studio('POST', '/api/v1/lexicon', { language, kind, match, replacement, ...more });
    const abbreviation = await add('vi', 'abbreviation', 'Cty.', 'công ty');
    expect(abbreviation.status).toBe(200);
    // An abbreviation matches the case written unless told otherwise, and whole words.
    expect(abbreviation.json.result.entry).toMatchObject({ case_sensitive: true, whole_word: true });
    const unit = await add('en', 'unit', 'kn', 'knot | knots');
    expect(unit.status).toBe(200);
    expect(unit.json.result.entry).toMatchObject({ replacement: 'knot|knots', case_sensitive: true });
    const spaced = await add('en', 'unit', 'sq ft', 'square foot|square feet');
    expect(spaced.status).toBe(400);
    expect(spaced.json).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
    expect(spaced.json.error_message).toContain('no space');
    expect((await add('en', 'unit', 'kt', 'a|b|c')).json.error_message).toContain('"one|many"');
    const partly = await add('vi', 'abbreviation', 'TX', 'thị xã', { whole_word: false });
    expect(partly.status).toBe(400);
    expect(partly.json.error_message).toContain('whole words only');

    // A unit's preview says it after a number ("2 kn"): longer than the symbol alone.
    const preview = await t.call('POST', `/api/v1/lexicon/${unit.json.result.entry.id}/preview`, {
      body: {},
    });
    expect(preview.status).toBe(200);
    const symbolAlone = await t.call('POST', '/api/v1/lexicon/preview', {
      body: { language: 'en', match: 'kn', kind: 'respell', replacement: 'kn' },
    });
    expect(seconds(preview.body)).toBeGreaterThan(seconds(symbolAlone.body));

    // Through the API, "Cty." is read "công ty" (as long as the words written out) and the
    // subtitles keep "Cty.".
    const submit = async (input_text: string) => {
      const res = await t.call('POST', '/api/v1/tts', {
        body: {
          input_text,
          voice_code: 'vi_female_thuytrang_mb',
          audio_type: 'wav',
          generate_srt: true,
          response_type: 'direct',
        },
      });
      const result = res.json.result as { duration_ms: number; srt_link: string };
      return {
        durationMs: result.duration_ms,
        srt: (await fetchUrl(result.srt_link, 'GET')).body.toString('utf8'),
      };
    };
    const abbreviated = await submit('Cty. Minh An đã trả lời.');
    const written = await submit('công ty Minh An đã trả lời.');
    expect(Math.abs(abbreviated.durationMs - written.durationMs)).toBeLessThanOrEqual(5);
    expect(abbreviated.srt).toContain('Cty. Minh An đã trả lời.');
  });

  it('removes entries', async () => {
    const { items } = (await t.call('GET', '/api/v1/lexicon')).json.result;
    for (const e of items) expect((await studio('DELETE', `/api/v1/lexicon/${e.id}`)).status).toBe(200);
    expect((await t.call('GET', '/api/v1/lexicon')).json.result.items).toEqual([]);
  });

  it('exports formulas imported from a CSV as text, and imports its own export back unchanged', async () => {
    const attack = [
      'language,match,kind,replacement,note',
      'en,"=HYPERLINK(""http://evil.example/x"",""Click me"")",respell,click,=1+1',
      "en,+cmd|' /C calc'!A0,respell,calc,@SUM(1+1)",
      "en,'tis,respell,tis,-2+3",
    ].join('\n');
    const imported = await studio('POST', '/api/v1/lexicon/import', { format: 'csv', text: attack });
    expect(imported.json.result).toMatchObject({ added: 3 });
    const exported = (await t.call('GET', '/api/v1/lexicon/export?format=csv&language=en')).text;
    expect(exported.split('\r\n').slice(1, -1).sort()).toEqual([
      `en,"'=HYPERLINK(""http://evil.example/x"",""Click me"")",respell,click,false,true,'=1+1`,
      "en,'+cmd|' /C calc'!A0,respell,calc,false,true,'@SUM(1+1)",
      "en,'tis,respell,tis,false,true,'-2+3",
    ]);
    const again = await studio('POST', '/api/v1/lexicon/import', {
      format: 'csv',
      text: exported,
      replace: true,
    });
    expect(again.json.result).toMatchObject({ added: 0, updated: 0, unchanged: 3, removed: 0 });
    const matches = (await t.call('GET', '/api/v1/lexicon')).json.result.items.map(
      (e: { match: string }) => e.match,
    );
    expect(matches.sort()).toEqual([
      "'tis",
      "+cmd|' /C calc'!A0",
      '=HYPERLINK("http://evil.example/x","Click me")',
    ]);
  });
});
