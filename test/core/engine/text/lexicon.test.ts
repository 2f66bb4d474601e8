/**
 * The lexicon in text preparation: where entries match (case, whole words, phrases, overlaps,
 * scripts without spaces) and what the engine reads there, ahead of the language rules, with
 * positions still mapped to the source words.
 */

import { describe, expect, it } from 'vitest';
import type { LexiconRule } from '../../../../electron/core/engine/engine';
import { compileLexicon, lexiconUnits } from '../../../../electron/core/engine/text/lexicon';
import { splitIntoChunks } from '../../../../electron/core/engine/text/chunk';
import { readingOf } from '../../../../electron/core/engine/text/reading';
import { prepareForEngine, rewriteAsIs, rewriteForEngine } from '../../../../electron/core/engine/text/rules';
import type { LanguageCode } from '../../../../electron/shared/voices';

const say = (match: string, replacement: string, more: Partial<LexiconRule> = {}): LexiconRule => ({
  match,
  replacement,
  kind: 'respell',
  case_sensitive: false,
  whole_word: true,
  ...more,
});

/** The matched source texts and what replaces them. */
function matches(text: string, rules: LexiconRule[], language: LanguageCode = 'en'): string[] {
  const lexicon = compileLexicon(rules, language);
  return (lexicon?.find(text) ?? []).map((m) => `${text.slice(m.start, m.end)}=${m.spoken}`);
}

describe('lexicon matching', () => {
  it('ignores case unless the entry is case-sensitive', () => {
    expect(matches('Nguyen, NGUYEN and nguyen', [say('nguyen', 'win')])).toEqual([
      'Nguyen=win',
      'NGUYEN=win',
      'nguyen=win',
    ]);
    expect(matches('Nguyen, NGUYEN and nguyen', [say('Nguyen', 'win', { case_sensitive: true })])).toEqual([
      'Nguyen=win',
    ]);
    // Both: the case-sensitive entry wins where it matches, the other elsewhere.
    expect(
      matches('READ the read', [say('read', 'reed'), say('READ', 'R E A D', { case_sensitive: true })]),
    ).toEqual(['READ=R E A D', 'read=reed']);
  });

  it('matches whole words unless told otherwise', () => {
    const rules = [say('cat', 'kitty')];
    expect(matches('cat catalogue concat cat’s (cat) cat-like 3cat', rules)).toEqual([
      'cat=kitty',
      'cat=kitty',
      'cat=kitty',
      'cat=kitty',
    ]);
    expect(matches('catalogue concat', [say('cat', 'kitty', { whole_word: false })])).toEqual([
      'cat=kitty',
      'cat=kitty',
    ]);
    // Letters with diacritics are word characters too.
    expect(matches('Café cafés', [say('café', 'ka fay')])).toEqual(['Café=ka fay']);
  });

  it("matches phrases across any run of spaces and line breaks, and ’ as '", () => {
    expect(matches('in New  York and New\nYork', [say('new york', 'noo york')])).toEqual([
      'New  York=noo york',
      'New\nYork=noo york',
    ]);
    expect(matches("O’Brien and O'Brien", [say("O'Brien", 'oh bryan')])).toEqual([
      'O’Brien=oh bryan',
      "O'Brien=oh bryan",
    ]);
  });

  it('takes the longest of overlapping entries, then the earliest', () => {
    const rules = [say('New York', 'noo york'), say('York', 'yawk'), say('New York City', 'the big apple')];
    expect(matches('New York City and York', rules)).toEqual(['New York City=the big apple', 'York=yawk']);
    // "York City" (9) is longer than "New York" (8): it wins, and "New" stays as written.
    expect(matches('New York City', [say('New York', 'a'), say('York City', 'b')])).toEqual(['York City=b']);
    // Equal lengths: the earlier one.
    expect(matches('ab cd ef', [say('cd ef', 'y'), say('ab cd', 'x')])).toEqual(['ab cd=x']);
  });

  it('sees no word edges in Chinese and Japanese, whole-word or not', () => {
    expect(matches('我在北京工作。', [say('北京', 'Běijīng')], 'zh')).toEqual(['北京=Běijīng']);
    expect(matches('東京都に行く', [say('東京', 'トーキョー')], 'ja')).toEqual(['東京=トーキョー']);
  });

  it('speaks IPA as eSpeak phonemes, each word bracketed, taking in an English possessive', () => {
    const ipa = (match: string, replacement: string): LexiconRule => ({
      ...say(match, replacement),
      kind: 'ipa',
    });
    expect(matches('Siobhan came.', [ipa('Siobhan', 'ʃɪˈvɔːn')])).toEqual(["Siobhan=[[SI'vO:n]]"]);
    expect(matches('New York!', [ipa('New York', 'ˌnjuː ˈjɔːk')])).toEqual(["New York=[[,nju:]] [['jO:k]]"]);
    // eSpeak would spell out an "'s" after phonemes ("ess"): it becomes part of them.
    expect(
      matches("Siobhan's hat, Ross’s hat, Kate's hat", [
        ipa('Siobhan', 'ʃɪˈvɔːn'),
        ipa('Ross', 'ɹɒs'),
        ipa('Kate', 'keɪt'),
      ]),
    ).toEqual(["Siobhan's=[[SI'vO:nz]]", 'Ross’s=[[r0sIz]]', "Kate's=[[keIts]]"]);
    // Only in English.
    expect(matches("Siobhan's", [ipa('Siobhan', 'ʃiˈvon')], 'fr')).toEqual(["Siobhan=[[Si'von]]"]);
  });

  it('leaves out entries it cannot use, and is nothing without entries', () => {
    expect(compileLexicon([], 'en')).toBeUndefined();
    expect(compileLexicon(undefined, 'en')).toBeUndefined();
    const lexicon = compileLexicon(
      [{ ...say('x', 'ʘ'), kind: 'ipa' }, say('  ', 'y'), say('a', '<>'), say('ok', 'okay')],
      'en',
    );
    expect(lexicon?.size).toBe(1);
  });
});

describe('the lexicon in text preparation', () => {
  const lexicon = compileLexicon(
    [
      say('Dr. Who', 'doctor who'),
      say('2026-11-21', 'launch day', { whole_word: true }),
      { ...say('Siobhan', 'ʃɪˈvɔːn'), kind: 'ipa' },
    ],
    'en',
  );

  it('applies entries before the language rules, which still rewrite the rest', () => {
    const prepared = rewriteForEngine('Dr. Who met Siobhan on 2026-11-21, not 2026-11-22 & more.', 'en', {
      lexicon,
    });
    expect(prepared.engineText).toBe(
      "doctor who met [[SI'vO:n]] on launch day, not November twenty second, twenty twenty six  and  more.",
    );
  });

  it('maps every engine word back to the source words it replaced', () => {
    const source = 'Hello Siobhan and Dr. Who.';
    const prepared = rewriteForEngine(source, 'en', { lexicon });
    const engine = prepared.engineText;
    const cp = (needle: string) => [...engine.slice(0, engine.indexOf(needle))].length + 1;
    const word = (needle: string, length: number) => {
      const { start, end } = prepared.toSource(cp(needle), length);
      return source.slice(start, end);
    };
    expect(word('[[', 11)).toBe('Siobhan');
    expect(word('doctor', 6)).toBe('Dr. Who');
    expect(word('who', 3)).toBe('Dr. Who');
    expect(word('and', 3)).toBe('and');
  });

  it('keeps "[[" and "]]" of the text itself from reading as phonemes', () => {
    expect(rewriteForEngine('see [[this]] here', 'en').engineText).not.toMatch(/\[\[|\]\]/);
    expect(rewriteAsIs('see [[this]] & <that>', undefined).engineText).toBe('see  [this ]    that ');
  });

  it('applies to text left as written (std-v1), blanking only what the engine must not see', () => {
    const prepared = rewriteAsIs('Siobhan & Dr. Who 2026-11-21', lexicon);
    expect(prepared.engineText).toBe("[[SI'vO:n]]   doctor who launch day");
  });

  it('applies to Japanese before kana, and the respelling passes the kana stage', async () => {
    const ja = compileLexicon([say('東京', 'トーキョー'), say('令和', 'レイワ')], 'ja');
    const prepared = await prepareForEngine('東京と令和と大阪', 'ja', { lexicon: ja });
    expect(prepared.engineText).toContain('トーキョー');
    expect(prepared.engineText).toContain('レイワ');
    // The rest is read by the kana stage as before.
    expect(prepared.engineText).not.toMatch(/[東京令和大阪]/u);
  });
});

describe('abbreviation entries', () => {
  const abbr = (match: string, replacement: string, more: Partial<LexiconRule> = {}) =>
    say(match, replacement, { kind: 'abbreviation', case_sensitive: true, ...more });

  it('match as whole words with or without the final full stop, in the case written', () => {
    const rules = [abbr('Cty', 'công ty')];
    expect(matches('Cty ABC, Cty. XYZ, cty, Ctyx, 3Cty', rules, 'vi')).toEqual([
      'Cty=công ty',
      'Cty.=công ty',
    ]);
    // Written with its full stop, the entry matches without it too; case-insensitive when told.
    expect(matches('Cty. và CTY', [abbr('Cty.', 'công ty', { case_sensitive: false })], 'vi')).toEqual([
      'Cty.=công ty',
      'CTY=công ty',
    ]);
    // The full stop ends the abbreviation whatever follows: "Q.1" is "quận 1".
    expect(matches('Q.1, Q. Ba Đình', [abbr('Q.', 'quận')], 'vi')).toEqual(['Q.=quận', 'Q.=quận']);
  });

  it('keep a full stop that ends the text or a line as a sentence end', () => {
    expect(matches('Anh ấy làm ở Cty.\nChị ấy ở Cty. Minh An', [abbr('Cty', 'công ty')], 'vi')).toEqual([
      'Cty.=công ty.',
      'Cty.=công ty',
    ]);
  });

  it('do not end a sentence with their full stop: the chunker keeps "Cty. Minh An" in one piece', () => {
    const lexicon = compileLexicon([abbr('Cty.', 'công ty'), say('x', 'y')], 'vi');
    expect(lexicon?.abbreviations).toEqual(new Set(['cty']));
    const text = 'Cty. Minh An đã trả lời. Họ đồng ý.';
    const chunks = (abbreviations?: ReadonlySet<string>) =>
      [...splitIntoChunks(text, 'vi', { abbreviations })].map((c) => c.text);
    expect(chunks()).toEqual(['Cty.', 'Minh An đã trả lời.', 'Họ đồng ý.']);
    expect(chunks(lexicon?.abbreviations)).toEqual(['Cty. Minh An đã trả lời.', 'Họ đồng ý.']);
  });

  it('beat the built-in rules: the reading says the lexicon decided', () => {
    // Built in, "Dr." before a name is "Doctor"; the user's entry makes it a street.
    expect(readingOf('Dr. Smith', 'en').reading).toBe('Doctor Smith');
    const reading = readingOf('Dr. Smith', 'en', { lexicon: [abbr('Dr.', 'Drive')] });
    expect(reading.reading).toBe('Drive Smith');
    expect(reading.changes).toEqual([
      { from: 0, to: 3, written: 'Dr.', spoken: 'Drive', source: 'lexicon', rule: null },
    ]);
    expect(readingOf('TP. Cần Thơ', 'vi').reading).toBe('thành phố Cần Thơ');
    expect(
      readingOf('TP. Cần Thơ', 'vi', { lexicon: [abbr('TP.', 'thành phố trực thuộc trung ương')] }).reading,
    ).toBe('thành phố trực thuộc trung ương Cần Thơ');
  });
});

describe('unit entries', () => {
  const unit = (match: string, replacement: string): LexiconRule =>
    say(match, replacement, { kind: 'unit', case_sensitive: true });

  it('are the units of PrepareOptions, by symbol, with their one and many words', () => {
    expect(lexiconUnits([unit('kn', 'knot|knots'), unit('nmi', 'hải lý'), say('kn', 'x')])).toEqual(
      new Map([
        ['kn', { one: 'knot', many: 'knots' }],
        ['nmi', { one: 'hải lý', many: 'hải lý' }],
      ]),
    );
    expect(lexiconUnits([say('kn', 'x')])).toBeUndefined();
    expect(lexiconUnits(undefined)).toBeUndefined();
    // Words that are not "one|many" (a file edited by hand) are left out.
    expect(lexiconUnits([unit('kn', 'a|b|c')])).toBeUndefined();
  });

  it('are not matched on their own: the measure rules read them after a number', () => {
    expect(compileLexicon([unit('kn', 'knot|knots')], 'en')).toBeUndefined();
    expect(matches('5 kn, kn', [unit('kn', 'knot|knots'), say('Nguyen', 'win')])).toEqual([]);
  });
});
