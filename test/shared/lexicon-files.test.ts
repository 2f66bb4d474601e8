/**
 * Lexicon entries and their files: the rules an entry obeys, and JSON, CSV (RFC 4180) and PLS
 * (W3C PLS 1.0) both ways, with the place of every problem in a file that cannot be read.
 */

import { describe, expect, it } from 'vitest';
import {
  entryKey,
  filterEntries,
  prepareEntry,
  type LexiconEntry,
  type LexiconEntryInput,
} from '../../electron/shared/lexicon';
import { formatLexicon, LexiconFileError } from '../../electron/shared/lexicon-files';
// Reading is core's (only core reads lexicon files).
import { parseLexicon, readXml } from '../../electron/core/lexicon/lexicon-file-reader';

const ENTRIES: LexiconEntry[] = [
  {
    id: '1',
    language: 'en',
    match: 'Siobhan',
    kind: 'ipa',
    replacement: 'ʃɪˈvɔːn',
    case_sensitive: false,
    whole_word: true,
  },
  {
    id: '2',
    language: 'en',
    match: 'Smith, "Jr."',
    kind: 'respell',
    replacement: 'smith junior',
    case_sensitive: true,
    whole_word: false,
    note: 'line one\nline two, with "quotes" & <tags>',
  },
  {
    id: '3',
    language: 'vi',
    match: 'Nguyễn',
    kind: 'respell',
    replacement: 'Nguyên',
    case_sensitive: false,
    whole_word: true,
  },
];

/** An abbreviation and a unit, as stored (no id). */
const ABBREVIATION = {
  language: 'vi',
  match: 'Cty.',
  kind: 'abbreviation',
  replacement: 'công ty',
  case_sensitive: true,
  whole_word: true,
} as const;
const UNIT = {
  language: 'vi',
  match: 'kn',
  kind: 'unit',
  replacement: 'hải lý',
  case_sensitive: true,
  whole_word: true,
} as const;

const withoutIds = (entries: LexiconEntry[]) => entries.map(({ id: _id, ...rest }) => rest);

/** The error `parse` throws, for its message and place. */
function failure(parse: () => unknown): LexiconFileError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(LexiconFileError);
    return error as LexiconFileError;
  }
  throw new Error('expected the file to be refused');
}

describe('lexicon entries', () => {
  const input = (more: Partial<LexiconEntryInput>): LexiconEntryInput => ({
    language: 'en',
    match: 'x',
    kind: 'respell',
    replacement: 'y',
    ...more,
  });

  it('are stored normalised, with case-insensitive whole-word matching by default', () => {
    expect(prepareEntry(input({ match: '  New \n York ', replacement: ' noo  york ', note: '  ' }))).toEqual({
      ok: true,
      entry: {
        language: 'en',
        match: 'New York',
        kind: 'respell',
        replacement: 'noo york',
        case_sensitive: false,
        whole_word: true,
      },
    });
    // NFC: a decomposed é is stored composed.
    const prepared = prepareEntry(input({ match: 'Cafe\u0301' }));
    expect(prepared.ok && prepared.entry.match).toBe('Café');
  });

  it('refuse what the engine cannot speak, naming the field', () => {
    expect(prepareEntry(input({ match: '!!' }))).toMatchObject({ ok: false, problem: { field: 'match' } });
    expect(prepareEntry(input({ replacement: '…' }))).toMatchObject({
      ok: false,
      problem: { field: 'replacement' },
    });
    expect(prepareEntry(input({ replacement: 'a <b> c' }))).toMatchObject({
      ok: false,
      problem: { field: 'replacement', message: expect.stringContaining('< > & [ or ]') },
    });
    expect(prepareEntry(input({ kind: 'ipa', replacement: 'ʃɪˈvɔːn ʘ' }))).toMatchObject({
      ok: false,
      problem: { field: 'replacement', message: expect.stringContaining('"ʘ"') },
    });
  });

  it('abbreviations: case-sensitive unless told otherwise, whole words only', () => {
    expect(
      prepareEntry(input({ language: 'vi', kind: 'abbreviation', match: ' Cty. ', replacement: 'công ty' })),
    ).toEqual({ ok: true, entry: ABBREVIATION });
    expect(
      prepareEntry(input({ kind: 'abbreviation', match: 'approx', case_sensitive: false })),
    ).toMatchObject({ ok: true, entry: { case_sensitive: false } });
    expect(prepareEntry(input({ kind: 'abbreviation', whole_word: false }))).toMatchObject({
      ok: false,
      problem: { field: 'whole_word', message: expect.stringContaining('whole words only') },
    });
    expect(prepareEntry(input({ kind: 'abbreviation', replacement: 'a & b' }))).toMatchObject({
      ok: false,
      problem: { field: 'replacement' },
    });
  });

  it('units: a symbol without spaces after a number, "one|many" words, read as written', () => {
    expect(
      prepareEntry(
        input({ kind: 'unit', match: 'kn', replacement: ' knot | knots ', case_sensitive: false }),
      ),
    ).toEqual({
      ok: true,
      entry: {
        language: 'en',
        match: 'kn',
        kind: 'unit',
        replacement: 'knot|knots',
        case_sensitive: true,
        whole_word: true,
      },
    });
    expect(
      prepareEntry(input({ language: 'vi', kind: 'unit', match: 'kn', replacement: 'hải lý' })),
    ).toMatchObject({
      ok: true,
      entry: { replacement: 'hải lý' },
    });
    expect(
      prepareEntry(input({ kind: 'unit', match: '°Ré', replacement: 'degree Réaumur|degrees Réaumur' })),
    ).toMatchObject({ ok: true });
    for (const match of ['sq ft', '2kn', 'x'.repeat(21)])
      expect(prepareEntry(input({ kind: 'unit', match, replacement: 'a' }))).toMatchObject({
        ok: false,
        problem: { field: 'match' },
      });
    for (const replacement of ['a|b|c', 'knot|', '|knots'])
      expect(prepareEntry(input({ kind: 'unit', match: 'kn', replacement }))).toMatchObject({
        ok: false,
        problem: { field: 'replacement', message: expect.stringContaining('one|many') },
      });
  });

  it('are the same entry for the same language, case rule and match', () => {
    const a = { language: 'en', match: 'Nguyen', case_sensitive: false } as const;
    expect(entryKey(a)).toBe(entryKey({ ...a, match: ' NGUYEN ' }));
    expect(entryKey(a)).not.toBe(entryKey({ ...a, case_sensitive: true }));
    expect(entryKey(a)).not.toBe(entryKey({ ...a, language: 'vi' }));
    expect(entryKey({ ...a, case_sensitive: true })).not.toBe(
      entryKey({ ...a, case_sensitive: true, match: 'NGUYEN' }),
    );
  });

  it('are found by language and by words of match, replacement or note', () => {
    expect(filterEntries(ENTRIES, { language: 'vi' }).map((e) => e.id)).toEqual(['3']);
    expect(filterEntries(ENTRIES, { q: 'JUNIOR' }).map((e) => e.id)).toEqual(['2']);
    expect(filterEntries(ENTRIES, { q: 'line two' }).map((e) => e.id)).toEqual(['2']);
    expect(filterEntries(ENTRIES, { language: 'en', q: 'ʃɪ' }).map((e) => e.id)).toEqual(['1']);
  });
});

describe('JSON lexicon files', () => {
  it('round-trip every field', () => {
    const text = formatLexicon(ENTRIES, 'json');
    expect(JSON.parse(text)[0]).not.toHaveProperty('id');
    expect(parseLexicon(text, 'json')).toEqual(withoutIds(ENTRIES));
  });

  it('round-trip abbreviations and units, in JSON and CSV', () => {
    const kinds: LexiconEntry[] = [
      { ...ABBREVIATION, id: 'a' },
      { ...UNIT, id: 'u', language: 'en', replacement: 'knot|knots' },
    ];
    expect(parseLexicon(formatLexicon(kinds, 'json'), 'json')).toEqual(withoutIds(kinds));
    const csv = formatLexicon(kinds, 'csv');
    expect(csv).toContain('en,kn,unit,knot|knots,true,true,');
    expect(parseLexicon(csv, 'csv')).toEqual(withoutIds(kinds));
  });

  it('say where the JSON is broken, and which entry is wrong', () => {
    const broken = failure(() => parseLexicon('[\n  {"language": "en",\n  "match" "x"}\n]', 'json'));
    expect(broken.message).toMatch(/^Not valid JSON at line 3, column \d+/);
    expect(broken.line).toBe(3);
    const entry = failure(() =>
      parseLexicon(
        JSON.stringify([ENTRIES[0], { language: 'xx', match: 'a', kind: 'respell', replacement: 'b' }]),
        'json',
      ),
    );
    expect(entry.message).toBe('entry 2: language must be one of vi, en, zh, ja, ko, fr, es.');
    expect(failure(() => parseLexicon('{"a": 1}', 'json')).message).toBe(
      'A JSON lexicon is an array of entries.',
    );
    expect(
      failure(() => parseLexicon('[{"language":"en","match":"a","kind":"ipa","replacement":"ʘ"}]', 'json'))
        .message,
    ).toMatch(/^entry 1: The IPA symbol "ʘ"/);
  });
});

describe('CSV lexicon files', () => {
  it('round-trip with RFC 4180 quoting (commas, quotes, line breaks) and CRLF', () => {
    const text = formatLexicon(ENTRIES, 'csv');
    // A byte-order mark first, for spreadsheets; parseLexicon drops it.
    expect(text.split('\r\n')[0]).toBe(
      '\uFEFFlanguage,match,kind,replacement,case_sensitive,whole_word,note',
    );
    expect(text).toContain(
      'en,"Smith, ""Jr.""",respell,smith junior,true,false,"line one\nline two, with ""quotes"" & <tags>"',
    );
    expect(parseLexicon(text, 'csv')).toEqual(withoutIds(ENTRIES));
  });

  it('write formula cells as text (OWASP CSV injection) and read them back exactly', () => {
    // The review's attack strings, and values that only look escaped, or do not.
    const values = [
      '=HYPERLINK("http://evil.example/x","Click me")',
      "+cmd|' /C calc'!A0",
      "@SUM(1+1)*cmd|' /C calc'!A0",
      "-2+3+cmd|' /C calc'!A0",
      "'tis the season",
      "'=not a formula, escaped by hand",
      "''@two quotes",
      "'-'s",
      'plain = text',
      'x-ray',
    ];
    const entries: LexiconEntry[] = values.map((value, i) => ({
      id: String(i),
      language: 'en',
      match: value,
      kind: 'respell',
      replacement: value,
      case_sensitive: true,
      whole_word: false,
      note: value,
    }));
    const text = formatLexicon(entries, 'csv');
    const lines = text.split('\r\n');
    // Each cell starts as a spreadsheet shows text: a quote before =, +, -, @ (quoted cells too).
    expect(lines[1]).toBe(
      `en,"'=HYPERLINK(""http://evil.example/x"",""Click me"")",respell,"'=HYPERLINK(""http://evil.example/x"",""Click me"")",true,false,"'=HYPERLINK(""http://evil.example/x"",""Click me"")"`,
    );
    expect(lines[2]).toBe(
      "en,'+cmd|' /C calc'!A0,respell,'+cmd|' /C calc'!A0,true,false,'+cmd|' /C calc'!A0",
    );
    expect(lines[3]!.startsWith("en,'@SUM(1+1)")).toBe(true);
    expect(lines[4]!.startsWith("en,'-2+3+cmd")).toBe(true);
    expect(lines[5]!.startsWith("en,'tis the season,")).toBe(true);
    expect(lines[6]!.startsWith(`en,"''=not a formula`)).toBe(true);
    expect(lines[7]!.startsWith("en,'''@two quotes,")).toBe(true);
    expect(lines[8]).toBe("en,''-'s,respell,''-'s,true,false,''-'s");
    expect(lines[9]!.startsWith('en,plain = text,')).toBe(true);
    // No cell of any row starts a formula.
    for (const line of lines.slice(1, -1)) {
      for (const cell of line.split(',')) expect(cell.replace(/^"/, ''), line).not.toMatch(/^[=+\-@\t\r]/);
    }
    expect(parseLexicon(text, 'csv')).toEqual(withoutIds(entries));
    // Tab and carriage return first: escaped too (the importer's trimming would drop them anyway).
    const tabbed = formatLexicon([{ ...entries[9]!, note: '\t=1+1', replacement: '\r=1+1' }], 'csv');
    expect(tabbed.split('\r\n')[1]).toBe(`en,x-ray,respell,"'\r=1+1",true,false,'\t=1+1`);
  });

  it('read columns in any order, optional ones left out, LF endings, a BOM and blank lines', () => {
    const text = '\uFEFFmatch,replacement,kind,language\n\nGIF,jif,respell,en\n"Nguyễn",win,respell,vi\n';
    expect(parseLexicon(text, 'csv')).toEqual([
      {
        language: 'en',
        match: 'GIF',
        kind: 'respell',
        replacement: 'jif',
        case_sensitive: false,
        whole_word: true,
      },
      {
        language: 'vi',
        match: 'Nguyễn',
        kind: 'respell',
        replacement: 'win',
        case_sensitive: false,
        whole_word: true,
      },
    ]);
  });

  it('say which line is wrong and why', () => {
    const header = 'language,match,kind,replacement\n';
    expect(failure(() => parseLexicon('', 'csv')).message).toBe(
      'The CSV file is empty: it needs a header row.',
    );
    expect(failure(() => parseLexicon('language,match,kind,sound\n', 'csv')).message).toBe(
      'CSV line 1: unknown column "sound" (the columns are language, match, kind, replacement, case_sensitive, whole_word, note).',
    );
    expect(failure(() => parseLexicon('language,match,kind\n', 'csv')).message).toBe(
      'CSV line 1: the header has no "replacement" column.',
    );
    const fields = failure(() => parseLexicon(`${header}en,a,respell,b\nen,c,respell\n`, 'csv'));
    expect(fields.message).toBe('CSV line 3: 3 fields where the header has 4.');
    expect(fields.line).toBe(3);
    expect(failure(() => parseLexicon(`${header}en,a,sing,b\n`, 'csv')).message).toBe(
      'CSV line 2: kind must be one of respell, ipa, abbreviation, unit.',
    );
    expect(
      failure(() => parseLexicon('language,match,kind,replacement,whole_word\nen,a,respell,b,maybe\n', 'csv'))
        .message,
    ).toBe('CSV line 2: whole_word must be true or false, not "maybe".');
    // A quoted field over two lines: the error after it counts both.
    const quoted = failure(() =>
      parseLexicon(`${header}en,"two\nlines",respell,b\nen,x"y,respell,b\n`, 'csv'),
    );
    // csv-parse (electron/core/platform/csv-reader.ts) names the field of a quote error, not the character.
    expect(quoted.message).toMatch(/^CSV line 4, field 2: a quote inside an unquoted field/);
    expect(quoted.line).toBe(4);
    expect(failure(() => parseLexicon(`${header}en,"open,respell,b\n`, 'csv')).message).toBe(
      'CSV line 2: a quoted field is not closed.',
    );
    expect(failure(() => parseLexicon(`${header}en,"a"b,respell,c\n`, 'csv')).message).toBe(
      'CSV line 2, field 2: a closing quote must end its field.',
    );
    // A CRLF inside a quoted field is one line break, and a file may mix CRLF and LF.
    const crlf = failure(() =>
      parseLexicon(`${header}en,"two\r\nlines",respell,b\r\n\r\nen,b,respell,c\nen,x"y,respell,b\r\n`, 'csv'),
    );
    expect(crlf.message).toMatch(/^CSV line 6, field 2: a quote inside an unquoted field/);
    expect(
      failure(() => parseLexicon(`${header}en,"a\r\nb",respell,b\r\n\r\nen,x,sing,b\n`, 'csv')).message,
    ).toBe('CSV line 5: kind must be one of respell, ipa, abbreviation, unit.');
  });
});

describe('PLS lexicon files', () => {
  it('round-trip one language: IPA as <phoneme>, respellings as <alias>, markup escaped', () => {
    const text = formatLexicon(ENTRIES, 'pls', 'en');
    expect(text).toContain(
      '<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en">',
    );
    expect(text).toContain('<lexeme><grapheme>Siobhan</grapheme><phoneme>ʃɪˈvɔːn</phoneme></lexeme>');
    expect(text).toContain('<grapheme>Smith, &quot;Jr.&quot;</grapheme><alias>smith junior</alias>');
    expect(text).not.toContain('Nguyễn');
    // PLS has no case and whole-word rules, nor notes: they read back as the defaults.
    expect(parseLexicon(text, 'pls')).toEqual([
      withoutIds(ENTRIES)[0],
      {
        language: 'en',
        match: 'Smith, "Jr."',
        kind: 'respell',
        replacement: 'smith junior',
        case_sensitive: false,
        whole_word: true,
      },
    ]);
    expect(() => formatLexicon(ENTRIES, 'pls')).toThrow(/holds one language/);
  });

  it('carry abbreviations and units as <alias> in a <lexeme role="…">, and read them back', () => {
    const kinds: LexiconEntry[] = [
      { ...ABBREVIATION, id: 'a' },
      { ...UNIT, id: 'u' },
    ];
    const text = formatLexicon(kinds, 'pls', 'vi');
    expect(text).toContain(
      '<lexeme role="abbreviation"><grapheme>Cty.</grapheme><alias>công ty</alias></lexeme>',
    );
    expect(text).toContain('<lexeme role="unit"><grapheme>kn</grapheme><alias>hải lý</alias></lexeme>');
    expect(parseLexicon(text, 'pls')).toEqual([ABBREVIATION, UNIT]);
    // A prefixed role (another tool's namespace) is read the same.
    const prefixed = text.replace('role="unit"', 'role="x:unit other"');
    expect(parseLexicon(prefixed, 'pls')[1]).toEqual(UNIT);
  });

  it('read what PLS allows: several graphemes, the first pronunciation, prefixes, entities, CDATA, comments', () => {
    const text = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE lexicon PUBLIC "-//W3C//DTD PLS 1.0//EN" "http://www.w3.org/TR/pronunciation-lexicon/pls.dtd">
<!-- made by hand -->
<pls:lexicon version="1.0" xmlns:pls="http://www.w3.org/2005/01/pronunciation-lexicon"
    alphabet="ipa" xml:lang="en-GB">
  <pls:lexeme>
    <pls:grapheme>judgment</pls:grapheme>
    <pls:grapheme>judgement</pls:grapheme>
    <pls:phoneme>ˈdʒʌdʒ.mənt</pls:phoneme>
    <pls:alias>ignored</pls:alias>
  </pls:lexeme>
  <pls:lexeme><pls:grapheme>AT&amp;T</pls:grapheme><pls:alias><![CDATA[A T and T]]></pls:alias></pls:lexeme>
  <pls:lexeme><pls:grapheme>&#x4E2D;x</pls:grapheme><pls:alias>chung</pls:alias></pls:lexeme>
</pls:lexicon>`;
    expect(parseLexicon(text, 'pls').map((e) => [e.match, e.kind, e.replacement])).toEqual([
      ['judgment', 'ipa', 'ˈdʒʌdʒ.mənt'],
      ['judgement', 'ipa', 'ˈdʒʌdʒ.mənt'],
      ['AT&T', 'respell', 'A T and T'],
      ['中x', 'respell', 'chung'],
    ]);
    expect(parseLexicon(text, 'pls')[0]?.language).toBe('en');
    // The caller may say the language instead of xml:lang.
    expect(parseLexicon(text.replace(' xml:lang="en-GB"', ''), 'pls', 'fr')[0]?.language).toBe('fr');
  });

  it('say where the XML is broken, and what PLS it does not take', () => {
    const lexicon = (body: string, attributes = 'alphabet="ipa" xml:lang="en"') =>
      `<lexicon version="1.0" ${attributes}>\n${body}\n</lexicon>`;
    const unclosed = failure(() =>
      parseLexicon(lexicon('<lexeme><grapheme>a</grapheme>\n<alias>b</lexeme>'), 'pls'),
    );
    expect(unclosed.message).toBe('XML line 3, column 9: </lexeme> closes <alias> (line 3)');
    expect([unclosed.line, unclosed.column]).toEqual([3, 9]);
    expect(
      failure(() => parseLexicon(lexicon('<lexeme><grapheme>a & b</grapheme></lexeme>'), 'pls')).message,
    ).toBe('XML line 2, column 21: an entity reference must end with ";"');
    expect(
      failure(() => parseLexicon(lexicon('<lexeme><grapheme>a</grapheme></lexeme>'), 'pls')).message,
    ).toBe('PLS line 2: the <lexeme> of "a" has neither <phoneme> nor <alias>.');
    expect(
      failure(() =>
        parseLexicon(
          lexicon(
            '<lexeme><grapheme>a</grapheme><phoneme>"{</phoneme></lexeme>',
            'alphabet="x-sampa" xml:lang="en"',
          ),
          'pls',
        ),
      ).message,
    ).toBe('PLS line 2: the alphabet "x-sampa" is not supported; only "ipa" is.');
    expect(failure(() => parseLexicon(lexicon('', 'alphabet="ipa" xml:lang="de"'), 'pls')).message).toMatch(
      /^PLS line 1: xml:lang "de" is none of the app's languages/,
    );
    expect(failure(() => parseLexicon(lexicon('', 'alphabet="ipa"'), 'pls')).message).toBe(
      'PLS line 1: <lexicon> has no xml:lang; choose the language of its entries.',
    );
    expect(failure(() => parseLexicon('<lexicon', 'pls')).message).toMatch(
      /^XML line 1, column 1: the tag <lexicon> is not closed/,
    );
    expect(failure(() => parseLexicon('<speak/>', 'pls')).message).toBe(
      'PLS line 1: the root element must be <lexicon>, not <speak>.',
    );
    expect(
      failure(() =>
        parseLexicon(lexicon('<lexeme><grapheme>x</grapheme><phoneme>ʘ</phoneme></lexeme>'), 'pls'),
      ).message,
    ).toMatch(/^PLS line 2: The IPA symbol "ʘ"/);
    expect(() => readXml('<a></a><b/>')).toThrow('XML line 1, column 8: text after the root element');
    expect(() => readXml('<a></a>\ntext')).toThrow('XML line 2, column 1: text after the root element');
    expect(() => readXml('')).toThrow('XML line 1, column 1: the document must start with an element');
    expect(() => readXml('<a>\n x &foo; y</a>')).toThrow('XML line 2, column 4: unknown entity "&foo;"');
    expect(() => readXml('<a x="1" x="2"/>')).toThrow(/^XML line 1, column \d+: .*\bx\b/);
    // Declared entities are never expanded (no "billion laughs"): using one is an unknown entity.
    expect(() => readXml('<!DOCTYPE a [<!ENTITY x "xx">]>\n<a>&x;</a>')).toThrow(
      'XML line 2, column 4: unknown entity "&x;"',
    );
    expect(readXml('<a>&#x4E2D;&lt;&amp;<![CDATA[<b>]]><!-- c --><?pi x?><b c="&quot;"/></a>')).toMatchObject(
      {
        name: 'a',
        children: ['中<&', '<b>', { name: 'b', attributes: { c: '"' }, children: [], line: 1, column: 54 }],
      },
    );
  });
});
