import type { ESpeakNGWorker } from '@echogarden/espeak-ng-emscripten';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { viCardinal } from '../../../../electron/core/engine/text/languages/vi-numbers';
import {
  capturingGroups,
  hasTopLevelAlternative,
  leadingLookaheads,
  withLead,
} from '../../../../electron/core/engine/text/rule-kit';
import {
  keptPatternLength,
  MAX_PART_LENGTH,
  rewriteWithPartsOf,
  rulePartLengths,
  rulePatterns,
  combinedSource,
  languageRules,
  rewriteForEngine,
} from '../../../../electron/core/engine/text/rules';
import type { LanguageCode } from '../../../../electron/shared/voices';
import { loadEspeak } from '../../../fixtures/espeak';
import { loadReadingCases, READING_CASE_SETS } from '../../../fixtures/reading-accuracy';
import { compileLexicon } from '../../../../electron/core/engine/text/lexicon';
import { pick, random } from '../../../fixtures/random';

// --- the real engine, for checks a listener would make --------------------------------

let engine: ESpeakNGWorker;

beforeAll(async () => {
  engine = await loadEspeak();
});

/** Word events of the engine (SSML mode, as the app runs it) for `text`. */
function wordEvents(voice: string, text: string): { position: number; length: number }[] {
  expect(engine.set_voice(voice)).toBe(0);
  const words: { position: number; length: number }[] = [];
  engine.synthesize(text, (_samples, events) => {
    for (const e of events)
      if (e.type === 'word') words.push({ position: e.text_position, length: e.word_length });
    return 0;
  });
  return words;
}

function ipa(voice: string, text: string): string {
  expect(engine.set_voice(voice)).toBe(0);
  return engine.synthesize_ipa(text).ipa;
}

/** The source words that the engine's word events map back to. */
function spokenSourceWords(voice: string, language: LanguageCode, source: string): string[] {
  const prepared = rewriteForEngine(source, language);
  return wordEvents(voice, prepared.engineText).map((w) => {
    const { start, end } = prepared.toSource(w.position, w.length);
    return source.slice(start, end);
  });
}

// --- rewriteForEngine -------------------------------------------------------------------

describe('rewriteForEngine: dates, times, money', () => {
  const cases: [LanguageCode, string, string][] = [
    ['en', 'on 2026-11-21.', 'on November twenty first, twenty twenty six.'],
    [
      'en',
      'on 11/21/2026 and 21/11/2026',
      'on November twenty first, twenty twenty six and the twenty first of November twenty twenty six',
    ],
    ['en', 'on 05/06/2026', 'on May sixth, twenty twenty six'],
    ['en', 'November 21, 2026 and 1 May', 'November twenty first, twenty twenty six and the first of May'],
    ['vi', 'Hôm nay 2026-11-21', 'Hôm nay hai mươi mốt tháng mười một năm hai nghìn không trăm hai mươi sáu'],
    [
      'vi',
      'ngày 21/11/2026 và 01/04/2000',
      'ngày hai mươi mốt tháng mười một năm hai nghìn không trăm hai mươi sáu và một tháng tư năm hai nghìn',
    ],
    [
      'vi',
      'ngày 2/9, tháng 11/2026',
      'ngày hai tháng chín, tháng mười một năm hai nghìn không trăm hai mươi sáu',
    ],
    ['fr', 'le 2026-11-01 et le 21/11/2026', 'le 1er novembre 2026 et le 21 novembre 2026'],
    ['es', 'el 2026-11-21', 'el 21 de noviembre de 2026'],
    ['zh', '2026-11-21', '二零二六年11月21日'],
    ['ko', '2026-06-21', '2026년 유월 21일'],
    [
      'en',
      'at 12:00, 9:05, 14:00 and 3:00 pm; 14:30 stays',
      "at twelve o'clock, nine oh five, fourteen hundred and three p.m.; fourteen thirty stays",
    ],
    ['vi', 'lúc 14:30 và 7:00', 'lúc mười bốn giờ ba mươi phút và bảy giờ'],
    ['fr', 'à 14h30, 9 h et 14:05', 'à 14 heures 30, 9 heures et 14 heures 5'],
    ['es', 'a las 14:00 o 14:30', 'a las 14 en punto o 14:30'],
    ['zh', '14:05和2:00', '14点零5分和两点'],
    ['ko', '3:30', '세 시 30분'],
    [
      'en',
      'pay $5, $1, $5.50, $0.99, €20, £3 and $3 million',
      'pay five dollars, one dollar, five dollars fifty cents, ninety nine cents, twenty euros, three pounds and three million dollars',
    ],
    ['fr', 'coûte €5 ou 5,50 €', 'coûte 5 euros ou 5 euros 50'],
    ['es', 'cuesta $1 o 5,50 €', 'cuesta un dólar o 5 euros con 50'],
    [
      'vi',
      'giá 50.000đ, 1.500.000 VND hay $5',
      'giá năm mươi nghìn đồng, một triệu năm trăm nghìn Việt Nam đồng hay năm đô la',
    ],
    ['zh', '价格¥5，涨了50%', '价格5元，涨了百分之50'],
    ['ko', '₩5000, 50%', '5000원, 50퍼센트'],
  ];
  it.each(cases)('%s: %s', (language, source, expected) => {
    expect(rewriteForEngine(source, language).engineText).toBe(expected);
  });

  it('reads an ambiguous date day first when asked', () => {
    expect(rewriteForEngine('05/06/2026', 'en', { dateOrder: 'dmy' }).engineText).toBe(
      'the fifth of June twenty twenty six',
    );
  });

  it('leaves invalid dates and what eSpeak reads well alone', () => {
    for (const [language, text] of [
      ['en', '2026-13-40'],
      ['fr', '50 % et 5 €'.replace('5 €', '5 kg')],
    ] as const) {
      expect(rewriteForEngine(text, language).engineText).toBe(text);
    }
  });

  it('English reads telephone numbers, percent, numbers and times in words', () => {
    expect(rewriteForEngine('call 555-1234 now', 'en').engineText).toBe(
      'call five five five, one two three four now',
    );
    expect(rewriteForEngine('50% of 1,000 e.g. at 3 p.m. on Main St. in the U.S.', 'en').engineText).toBe(
      'fifty percent of one thousand for example at three p.m. on Main Street in the U.S.',
    );
  });
});

describe('rewriteForEngine: Vietnamese numbers', () => {
  it('reads every number in words, as eSpeak misreads some ("15" mười năm, "50.000" … không trăm)', () => {
    expect(rewriteForEngine('năm 2026 có 1.500 người, 3,5%', 'vi').engineText).toBe(
      'năm hai nghìn không trăm hai mươi sáu có một nghìn năm trăm người, ba phẩy năm phần trăm',
    );
    expect(viCardinal('50000')).toBe('năm mươi nghìn');
    expect(viCardinal('1050000')).toBe('một triệu không trăm năm mươi nghìn');
    expect(viCardinal('1005000')).toBe('một triệu không trăm linh năm nghìn');
    expect(viCardinal('1000000000')).toBe('một tỷ');
    expect(viCardinal('0901000000')).toBe('không chín không một không không không không không không');
  });

  it('the engine no longer says "không trăm" for 50.000 đồng', () => {
    const khongTram = 'x_ˌo1_ŋ_tʃ_ˈa';
    expect(ipa('vi', '50.000 đồng')).toContain(khongTram);
    expect(ipa('vi', rewriteForEngine('50.000 đồng', 'vi').engineText)).not.toContain(khongTram);
  });
});

describe('rewriteForEngine: abbreviations', () => {
  const cases: [LanguageCode, string, string][] = [
    ['en', 'Dr. Smith and Mr. Jones met Mrs. Brown.', 'Doctor Smith and Mister Jones met Mrs Brown.'],
    [
      'en',
      'Ms. Lee vs. Lt. Dan, Sgt. Pepper and Prof. X',
      'Miz Lee versus Lieutenant Dan, Sergeant Pepper and Professor X',
    ],
    [
      'en',
      'No. 5 and Fig. 3 on Elm Ave. near St. Louis.',
      'number five and figure three on Elm Avenue near Saint Louis.',
    ],
    [
      'en',
      'John Smith Jr. He left. Acme Inc. and co.',
      'John Smith Junior. He left. Acme Incorporated and co.',
    ],
    ['en', "the 1990s, the 2000s and the '80s", 'the nineteen nineties, the two thousands and the eighties'],
    ['en', 'pages 10–20', 'pages ten to twenty'],
    ['fr', 'M. Dupont, c.-à-d. p. ex. lui', "Monsieur Dupont, c'est-à-dire par exemple lui"],
    [
      'es',
      'El Sr. García, la Dra. Ruiz, etc. en EE. UU. y núm. 5',
      'El Sr García, la Dra Ruiz, etcétera en Estados Unidos y número 5',
    ],
    [
      'vi',
      'TP.HCM, TP. Hà Nội, GS. Minh, ThS. Lan, v.v. và',
      'thành phố Hồ Chí Minh, thành phố Hà Nội, giáo sư Minh, thạc sĩ Lan, vân vân và',
    ],
  ];
  it.each(cases)('%s: %s', (language, source, expected) => {
    expect(rewriteForEngine(source, language).engineText).toBe(expected);
  });

  it('"Main St." is a street, and keeps its sentence end', () => {
    expect(rewriteForEngine('He lives on Main St. Then he moved.', 'en').engineText).toBe(
      'He lives on Main Street. Then he moved.',
    );
  });

  it('a title no longer makes the engine break the sentence', () => {
    // In eSpeak's phoneme output a newline marks a clause break.
    expect(ipa('en-us', 'Dr. Smith').trim()).toContain('\n');
    expect(ipa('en-us', rewriteForEngine('Dr. Smith', 'en').engineText).trim()).not.toContain('\n');
  });
});

describe('rewriteForEngine: characters the engine must not see', () => {
  it('turns < > & into words or spaces so SSML mode swallows nothing', () => {
    expect(rewriteForEngine('1 < 2 and 3 >= 2', 'en').engineText).toBe(
      'one less than two and three greater than or equal to two',
    );
    expect(rewriteForEngine('R&D and A & B', 'en').engineText).toBe('R and D and A  and  B');
    expect(rewriteForEngine('A & B', 'vi').engineText).toBe('A  và  bê');
    expect(rewriteForEngine('x <foo y', 'en').engineText).toBe('x  foo y');
    expect(rewriteForEngine('<b>bold</b> text', 'en').engineText).toBe(' bold  text');
  });

  it("a list item's number glued to its first word keeps its full stop as a pause, in every language", () => {
    // eSpeak says "chấm" / "dot" between "một" and "Cầu" (unseen Vietnamese set 9).
    expect(rewriteForEngine('1.Cầu lông bắt đầu', 'vi').engineText).toBe('một. Cầu lông bắt đầu');
    expect(rewriteForEngine('intro\n2.The rules', 'en').engineText).toBe('intro two. The rules');
    expect(rewriteForEngine('3.Règles', 'fr').engineText).toMatch(/^3\. Règles$/);
    // Inside a line, or before what is no word, it stays as written.
    expect(rewriteForEngine('Version 2.The', 'en').engineText).toBe('Version two.The');
    expect(rewriteForEngine('1.2.3', 'en').engineText).not.toContain('. ');
  });

  it('the engine speaks every word after a "<" once prepared', () => {
    const source = 'x <foo y & z';
    expect(spokenSourceWords('en-us', 'en', source)).toEqual(['x', 'foo', 'y', '&', 'z']);
    // Unprepared, SSML mode swallows the rest of the text.
    expect(wordEvents('en-us', source).length).toBeLessThan(3);
  });

  it('drops emoji and markdown markers, which eSpeak reads by name', () => {
    expect(rewriteForEngine('smile 😀 now 👍🏽!', 'en').engineText).toBe('smile   now  !');
    expect(rewriteForEngine('**bold** and\n# Title', 'en').engineText).toBe(' bold  and   Title');
    expect(rewriteForEngine('©2026 1️⃣', 'en').engineText).toBe('© twenty twenty six one');
    expect(ipa('en-us', rewriteForEngine('smile 😀 now', 'en').engineText)).not.toMatch(/ɡɹ.*ɪ.*n.*ɪ.*ŋ/);
  });

  it('maps full-width digits and letters to ASCII and line breaks to spaces', () => {
    expect(rewriteForEngine('価格１２３円，ＡＢＣ', 'zh').engineText).toBe('価格123円，ABC');
    expect(rewriteForEngine('a\nb\tc', 'en').engineText).toBe('a b c');
  });

  it('never throws and never lets < > & through, on random input', () => {
    const rand = random(99);
    const pieces = [
      '<',
      '>',
      '&',
      '<=',
      '$',
      '€',
      '₫',
      '%',
      '2026-11-21',
      '12:00',
      '1.000',
      '5,50',
      'Dr.',
      ' ',
      '\n',
      '😀',
      '👍🏽',
      '\uFE0F',
      '\u20E3',
      '日本',
      'a',
      'Ồ',
      '.',
      '–',
      '*',
      '#',
      '\uD800',
      'St.',
      'TP.',
      'ngày',
      '/',
    ];
    const languages: LanguageCode[] = ['en', 'vi', 'fr', 'es', 'zh', 'ko', 'ja'];
    for (let n = 0; n < 500; n++) {
      let s = '';
      for (let i = 0; i < 30; i++) s += pick(rand, pieces);
      const language = pick(rand, languages);
      const prepared = rewriteForEngine(s, language);
      expect(prepared.engineText).not.toMatch(/[<>&]/);
      const cps = [...prepared.engineText].length;
      for (const [p, l] of [
        [0, 0],
        [-5, 2],
        [1, 1],
        [cps, 3],
        [cps + 10, 1],
        [Number.NaN, Number.NaN],
        [2, 1e9],
      ] as const) {
        const { start, end } = prepared.toSource(p, l);
        expect(start).toBeGreaterThanOrEqual(0);
        expect(end).toBeGreaterThanOrEqual(start);
        expect(end).toBeLessThanOrEqual(s.length);
      }
    }
  });
});

describe('rewriteForEngine: mapping engine words back to source words', () => {
  it('maps each engine word of an expansion to the source it came from', () => {
    const source = 'Meet Dr. Smith on 2026-11-21 with $5.';
    const prepared = rewriteForEngine(source, 'en');
    expect(prepared.engineText).toBe(
      'Meet Doctor Smith on November twenty first, twenty twenty six with five dollars.',
    );
    const at = (word: string): string => {
      const cp = [...prepared.engineText.slice(0, prepared.engineText.indexOf(word))].length + 1;
      const { start, end } = prepared.toSource(cp, [...word].length);
      return source.slice(start, end);
    };
    expect(at('Meet')).toBe('Meet');
    expect(at('Doctor')).toBe('Dr.');
    expect(at('Smith')).toBe('Smith');
    expect(at('November')).toBe('11');
    expect(at('first')).toBe('21');
    expect(at('twenty twenty six')).toBe('2026');
    expect(at('dollars')).toBe('$5');
  });

  it('maps code-point positions across emoji and astral characters to UTF-16 offsets', () => {
    const source = '𠮷 and 😀 café e\u0301 end';
    const prepared = rewriteForEngine(source, 'en');
    const words = [...prepared.engineText.matchAll(/\S+/gu)];
    const mapped = words.map((m) => {
      const cp = [...prepared.engineText.slice(0, m.index)].length + 1;
      const { start, end } = prepared.toSource(cp, [...m[0]].length);
      return source.slice(start, end);
    });
    expect(mapped).toEqual(['𠮷', 'and', 'café', 'e\u0301', 'end']);
  });

  it('widens an event covering part of a word to the whole word, except in CJK text', () => {
    const prepared = rewriteForEngine('hello wonderful world', 'en');
    expect(prepared.toSource(9, 3)).toEqual({ start: 6, end: 15 });
    const cjk = rewriteForEngine('我们今天去公园', 'zh');
    expect(cjk.toSource(3, 1)).toEqual({ start: 2, end: 3 });
  });

  it('trims the space eSpeak sometimes includes in a word', () => {
    const prepared = rewriteForEngine('one two', 'en');
    expect(prepared.toSource(1, 4)).toEqual({ start: 0, end: 3 });
    expect(prepared.toSource(4, 4)).toEqual({ start: 4, end: 7 });
  });

  const spoken: [string, LanguageCode, string, string[]][] = [
    [
      'en-us',
      'en',
      'Dr. Smith paid $5 on 2026-11-21 at 12:00 & left.',
      ['Dr.', 'Smith', 'paid', '$5', 'on', '2026-11-21', 'at', '12:00', '&', 'left'],
    ],
    [
      'vi',
      'vi',
      'Ngày 21/11/2026, giá 50.000đ tại TP.HCM.',
      ['Ngày', '21/11/2026', 'giá', '50.000đ', 'tại', 'TP.HCM'],
    ],
    [
      'fr',
      'fr',
      'M. Dupont arrive à 14h30 le 2026-11-21.',
      ['M.', 'Dupont', 'arrive', 'à', '14h30', 'le', '2026-11-21'],
    ],
    [
      'es',
      'es',
      'El Sr. García pagó €5 el 21/11/2026.',
      ['El', 'Sr.', 'García', 'pagó', '€5', 'el', '21/11/2026'],
    ],
  ];
  it.each(spoken)(
    '%s: every word the engine speaks maps inside one source token, and every token is spoken',
    (voice, language, source, tokens) => {
      const starts: number[] = [];
      let from = 0;
      for (const t of tokens) {
        const i = source.indexOf(t, from);
        expect(i).toBeGreaterThanOrEqual(0);
        starts.push(i);
        from = i + t.length;
      }
      const prepared = rewriteForEngine(source, language);
      const hits = new Set<number>();
      for (const w of wordEvents(voice, prepared.engineText)) {
        const { start, end } = prepared.toSource(w.position, w.length);
        const k = starts.findIndex((s, i) => start >= s && end <= s + (tokens[i] as string).length);
        expect(
          k,
          `engine word at ${w.position}+${w.length} → ${JSON.stringify(source.slice(start, end))}`,
        ).toBeGreaterThanOrEqual(0);
        hits.add(k);
      }
      expect([...hits].sort((a, b) => a - b)).toEqual(tokens.map((_, i) => i));
    },
  );
});

describe('the capturing groups of a rule, read from its pattern', () => {
  it('are the groups V8 finds, for every rule of every language', () => {
    const languages: LanguageCode[] = ['vi', 'en', 'zh', 'ja', 'ko', 'fr', 'es'];
    for (const language of languages) {
      for (const pattern of rulePatterns(language)) {
        const v8 = (new RegExp(`(?:${pattern})|`, 'u').exec('') as RegExpExecArray).length - 1;
        expect(capturingGroups(pattern), `${language}: ${pattern}`).toBe(v8);
      }
    }
  });

  it.each([
    ['a(b)(?:c)(?<name>d)', 2],
    ['\\(x\\)[(]\\d', 0],
    ['(?<=a)(?<!b)(?=c)(?!d)(e)', 1],
    ['[\\](](x)', 1],
    ['((a)|(b))', 3],
  ])('%s has %i', (pattern, groups) => {
    expect(capturingGroups(pattern)).toBe(groups);
    expect((new RegExp(`(?:${pattern})|`, 'u').exec('') as RegExpExecArray).length - 1).toBe(groups);
  });
});

describe('each language’s rules stay expressions V8 optimises', () => {
  it('keeps every expression under 20 KB (past it V8 stops optimising it: several times slower)', () => {
    const languages: LanguageCode[] = ['vi', 'en', 'zh', 'ja', 'ko', 'fr', 'es'];
    for (const language of languages) {
      for (const length of rulePartLengths(language)) expect(length, language).toBeLessThan(20 * 1024);
    }
  });

  it('measures a pattern as V8 keeps it, its slashes and line breaks escaped', () => {
    for (const source of [
      'a/b',
      '[/]a/b',
      'a\\/b',
      '[a/]/',
      'x\ny',
      '\\[a/b\\]',
      String.raw`(?<=\d)/(\d{4})`,
    ])
      expect(keptPatternLength(source), source).toBe(new RegExp(source, 'u').source.length);
    for (const language of ['en', 'vi'] as const)
      for (const pattern of rulePatterns(language))
        expect(keptPatternLength(pattern)).toBe(new RegExp(pattern, 'u').source.length);
  });

  it('reads every case set the same, word for word and change for change, with the rules cut into many expressions', () => {
    // The rules in one expression in their order (over 20 KB: slow) is what every cut reads as.
    for (const language of ['en', 'vi'] as const) {
      expect(rulePartLengths(language, Infinity), language).toHaveLength(1);
      expect(rulePartLengths(language).length, language).toBeGreaterThan(20);
      expect(rulePartLengths(language, 2_000).length, language).toBeGreaterThan(
        rulePartLengths(language).length,
      );
      for (const { name } of READING_CASE_SETS.filter((set) => set.language === language)) {
        for (const { written } of loadReadingCases(name)) {
          const one = rewriteWithPartsOf(Infinity, written, language);
          expect(rewriteWithPartsOf(MAX_PART_LENGTH, written, language), `${name}: ${written}`).toEqual(one);
          expect(rewriteWithPartsOf(2_000, written, language), `${name}: ${written}`).toEqual(one);
        }
      }
    }
    // A match cut short by a lexicon entry is found again in the parts ("15 người").
    const lexicon = compileLexicon(
      [{ match: 'người', replacement: 'người ta', kind: 'respell', case_sensitive: false, whole_word: true }],
      'vi',
    );
    const text = 'Có 15 người và 2-5 người, ngày 15/01/2024 lúc 14h30, giá 50.000đ-100.000đ.';
    expect(rewriteWithPartsOf(2_000, text, 'vi', { lexicon })).toEqual(
      rewriteWithPartsOf(Infinity, text, 'vi', { lexicon }),
    );
    expect(rewriteWithPartsOf(MAX_PART_LENGTH, text, 'vi', { lexicon })).toEqual(
      rewriteWithPartsOf(Infinity, text, 'vi', { lexicon }),
    );
    expect(rewriteWithPartsOf(2_000, text, 'vi', { lexicon }).text).toContain('mười lăm người ta');
  });

  it('makes only the expressions whose lead a text holds: a sentence without numbers about half', async () => {
    vi.resetModules();
    const fresh = await import('../../../../electron/core/engine/text/rules');
    for (const [language, plain, numbers] of [
      ['en', 'Hi, how are you?', 'It cost $12.50 on May 5, 2024, at 3 pm.'],
      ['vi', 'Xin chào, bạn khỏe không?', 'Ngày 15/01/2024 lúc 14h30, giá 50.000đ.'],
    ] as const) {
      expect(fresh.rulePartsMade(language).made, language).toBe(0);
      fresh.rewriteForEngine(plain, language);
      const afterPlain = fresh.rulePartsMade(language);
      expect(afterPlain.made, language).toBeGreaterThan(0);
      expect(afterPlain.made, language).toBeLessThan(afterPlain.parts / 2);
      fresh.rewriteForEngine(numbers, language);
      expect(fresh.rulePartsMade(language).made, language).toBeGreaterThan(afterPlain.made);
    }
  });

  it('starts no English or Vietnamese rule with a lookbehind (tried at every position of the text)', () => {
    // One such rule cost 27 % of the English reading's speed; guarding the six Vietnamese ones
    // with a lookahead on their first character made it 16 % faster (bench:reading --baseline).
    for (const language of ['en', 'vi'] as const) {
      expect(
        rulePatterns(language).filter((pattern) => pattern.startsWith('(?<')),
        language,
      ).toEqual([]);
    }
  });
});

describe('the lookaheads a rule starts with', () => {
  it.each([
    ['(?=\\d)\\d+', ['\\d']],
    ['(?=[vV])v(?=x)|(?=\\d)(?<=a)\\d', ['[vV]', '\\d']],
    ['(?=(?:a|b)[)|])ab', ['(?:a|b)[)|]']],
    ['(?=a)b|c', null],
    ['a(?=b)', null],
    ['(?:a)(?=b)', null],
    ['(?<=a)b', null],
  ])('%s starts with %j', (pattern, leads) => {
    expect(leadingLookaheads(pattern)).toEqual(leads);
  });
  it('finds a lead for all but a few English and Vietnamese rules', () => {
    for (const language of ['en', 'vi'] as const) {
      const without = rulePatterns(language).filter((pattern) => leadingLookaheads(pattern) === null);
      expect(without.length, language).toBeLessThan(rulePatterns(language).length / 4);
    }
  });
});

describe('a lead shared by neighbouring rules is written once', () => {
  const rule = (pattern: string) => ({ name: 'cardinal' as const, pattern, rewrite: () => undefined });
  it('sets the lead only when the rest of the pattern has no top-level alternative', () => {
    expect(withLead(rule('(?<!x)\\d+'), '(?<!x)').lead).toBe('(?<!x)');
    expect(withLead(rule('(?<!x)\\d+|y'), '(?<!x)').lead).toBeUndefined();
    expect(withLead(rule('(?<!x)(?:\\d|y)[|(]\\|'), '(?<!x)').lead).toBe('(?<!x)');
    expect(withLead(rule('\\d+'), '(?<!x)').lead).toBeUndefined();
    expect(hasTopLevelAlternative('a(b|c)[|]\\|d')).toBe(false);
    expect(hasTopLevelAlternative('a(b|c)|d')).toBe(true);
  });
  it('writes a run of rules under one lead, the groups in the same order, and English number rules use it', () => {
    const rules = languageRules('en').readingRules ?? [];
    const led = rules.filter((r) => r.lead !== undefined);
    expect(led.length).toBeGreaterThan(10);
    const list = ['(?<!x)\\d', '(?<!x)y', 'z', '(?<!x)w'].map((p) => withLead(rule(p), '(?<!x)'));
    expect(combinedSource(list)).toBe('(?<!x)(?:(\\d)|(y))|(z)|((?<!x)w)');
    // the same readings as before: numbers after letters and codes are left, numbers alone read
    expect(rewriteForEngine('COVID-19 hit 19 towns on 3/4/2020.', 'en').engineText).toBe(
      'COVID-19 hit nineteen towns on March fourth, twenty twenty.',
    );
  });
});
