/**
 * IPA → eSpeak NG phoneme mnemonics, for pronunciation-lexicon entries of kind `ipa`. eSpeak
 * reads phonemes written between `[[` and `]]` in its own ASCII names (`[[S@v'o:n]]`), not IPA,
 * and each language's phoneme table defines its own vowels: a name the table lacks silences
 * the whole word. So every IPA symbol has a list of candidate names, and the first one the
 * language's table defines is used (`ɑ` is `A` in Chinese, `A:` in English, `a` in French).
 *
 * The tables below were read off the eSpeak NG build the engine ships (each name spoken in a
 * syllable, its IPA read back); test/shared/lexicon-ipa.test.ts checks every choice against
 * the real engine again. Neural voices phonemise through the same eSpeak, so the same names
 * reach Piper and Kokoro.
 *
 * Pure and dependency-free: the server validates entries with it, the engine converts them.
 */

import type { LanguageCode } from './voices';

/**
 * Vowels every language's table defines for the candidates below. Consonant names (`p`, `S`,
 * `tS`, `n^`, `*`, …) are defined in eSpeak's base table, which every language inherits.
 */
const VOWELS_DEFINED: Record<LanguageCode, ReadonlySet<string>> = {
  en: new Set(
    'i i: I I# e e: E E: a a# A: A~ 0 O O: O~ o o: U u u: U: V @ 3 3: eI aI OI aU oU i@ e@ U@ i@3 O@ A@'.split(
      ' ',
    ),
  ),
  fr: new Set('i i: I e e: E E: E~ a a: A~ O O: O~ o o: u u: V @ y y: Y Y: W W: W~'.split(' ')),
  es: new Set('i i: e e: E E: a a: O O: o o: U u u: U: @ y y: Y Y: eI aI aU'.split(' ')),
  vi: new Set('i i: e e: E E: a a: O O: o o: u u: @ @: y y: iE eI aI OI aU'.split(' ')),
  zh: new Set('i i: e e: E E: a a: A A: o o: u u: @ y y:'.split(' ')),
  // Korean has no long vowels: eSpeak would say a lengthened one twice.
  ko: new Set('i e E a o u @ u-'.split(' ')),
  // A Japanese long vowel is two morae, which is how eSpeak says `a:`.
  ja: new Set('i i: e e: a a: o o: u u: u~ @'.split(' ')),
};

/** IPA vowel (NFD) → eSpeak names in order of preference; a name may be two vowels. */
const VOWELS: ReadonlyArray<readonly [string, readonly string[]]> = [
  // American r-coloured vowels (not before a vowel: "very" is ɛ + ɹ); eSpeak adds the r.
  ['ɔːɹ', ['O@']],
  ['ɔɹ', ['O@']],
  ['ɑːɹ', ['A@']],
  ['ɑɹ', ['A@']],
  ['ɪɹ', ['i@3']],
  ['ɛɹ', ['e@']],
  ['ʊɹ', ['U@']],
  ['ɜːɹ', ['3:']],
  // Diphthongs: where the table lacks one, its parts are read one by one.
  ['eɪ', ['eI']],
  ['aɪ', ['aI']],
  ['ɔɪ', ['OI']],
  ['aʊ', ['aU']],
  ['oʊ', ['oU']],
  ['əʊ', ['oU']],
  ['ɪə', ['i@']],
  ['iə', ['i@']],
  ['eə', ['e@']],
  ['ɛə', ['e@']],
  ['ʊə', ['U@']],
  ['iː', ['i:', 'i']],
  ['i', ['i']],
  ['ɪ', ['I', 'i']],
  ['ᵻ', ['I#', 'I', 'i']],
  ['ɨ', ['I#', 'i']],
  ['eː', ['e:', 'e']],
  ['e', ['e']],
  ['ɛː', ['E:', 'E', 'e']],
  ['ɛ', ['E', 'e']],
  ['æ', ['a']],
  ['aː', ['a:', 'A:', 'a']],
  ['a', ['a']],
  ['ä', ['a']],
  ['ɑː', ['A:', 'A', 'a:', 'a']],
  ['ɑ', ['A', 'A:', 'a']],
  ['ɒ', ['0', 'O', 'o']],
  ['ɔː', ['O:', 'O', 'o:', 'o']],
  ['ɔ', ['O', 'o']],
  ['oː', ['o:', 'o']],
  ['o', ['o']],
  ['ʊ', ['U', 'u']],
  ['uː', ['u:', 'u']],
  ['u', ['u']],
  ['ʉ', ['u']],
  ['ɯ', ['u-', 'u']],
  ['ʌ', ['V', '@']],
  ['ə', ['@']],
  ['ɚ', ['3', '@']],
  ['ɝ', ['3:', '3', '@']],
  ['ɜː', ['3:', '@']],
  ['ɜ', ['3:', '@']],
  ['ɐ', ['a#', 'a']],
  ['əː', ['@:', '@']],
  ['iɛ', ['iE']],
  ['yː', ['y:', 'y', 'i:', 'i']],
  ['y', ['y', 'i']],
  ['ʏ', ['y', 'I', 'i']],
  ['øː', ['Y:', 'Y', 'e:', 'e']],
  ['ø', ['Y', 'e']],
  ['œ', ['W', 'E', 'e']],
  // Nasal vowels: a combining tilde (U+0303) after the vowel.
  ['ɑ̃', ['A~', 'A', 'a']],
  ['ã', ['A~', 'a']],
  ['ɛ̃', ['E~', 'E', 'e']],
  ['ɔ̃', ['O~', 'O', 'o']],
  ['õ', ['O~', 'o']],
  ['œ̃', ['W~', 'E~', 'E', 'e']],
  ['ũ', ['u~', 'u']],
];

/** Vowel keys ending in ɹ apply only where no vowel follows ("very" is ɛ + ɹ + i). */
const NOT_BEFORE_VOWEL = new Set(VOWELS.map(([ipa]) => ipa).filter((ipa) => ipa.endsWith('ɹ')));
/** First code points of the vowels, to tell whether a vowel follows. */
const VOWEL_STARTS = new Set(VOWELS.map(([ipa]) => [...ipa.normalize('NFD')][0] as string));

/** IPA consonant (NFD) → eSpeak name, the same in every language (eSpeak's base table). */
const CONSONANTS: ReadonlyArray<readonly [string, string]> = [
  ['tʃ', 'tS'],
  ['ʧ', 'tS'],
  ['dʒ', 'dZ'],
  ['ʤ', 'dZ'],
  ['tɕ', 'tS;'],
  ['dʑ', 'dZ'],
  ['ts', 'ts'],
  ['ʦ', 'ts'],
  ['dz', 'dz'],
  ['p', 'p'],
  ['b', 'b'],
  ['t', 't'],
  ['d', 'd'],
  ['k', 'k'],
  ['g', 'g'],
  ['ɡ', 'g'],
  ['f', 'f'],
  ['v', 'v'],
  ['ʋ', 'v'],
  ['θ', 'T'],
  ['ð', 'D'],
  ['s', 's'],
  ['z', 'z'],
  ['ʃ', 'S'],
  ['ʒ', 'Z'],
  ['ɕ', 'S'],
  ['ʑ', 'Z'],
  ['ʂ', 's.'],
  ['ʐ', 'z.'],
  ['h', 'h'],
  ['ɦ', 'h'],
  ['m', 'm'],
  ['ɱ', 'm'],
  ['n', 'n'],
  ['ŋ', 'N'],
  ['ɲ', 'n^'],
  ['l', 'l'],
  ['ɫ', 'l'],
  ['ʎ', 'l^'],
  ['j', 'j'],
  ['w', 'w'],
  ['ʍ', 'w'],
  ['ɥ', 'j'],
  ['ʔ', '?'],
  ['x', 'x'],
  ['ç', 'C'],
  ['χ', 'X'],
  ['c', 'c'],
  ['ɟ', 'J'],
  ['ɾ', '*'],
  ['β', 'B'],
  ['ɣ', 'Q'],
  // Rhotics: the language's own r (English ɹ, French ʁ, Spanish tap ɾ); `R` is a trill.
  ['ɹ', 'r'],
  ['ʁ', 'r'],
  ['ʀ', 'r'],
  ['ɽ', 'r'],
  ['r', 'r'],
  ['ɴ', 'N'],
];

/** Per-language names that differ from the tables above. */
const OVERRIDES: Partial<Record<LanguageCode, ReadonlyArray<readonly [string, string]>>> = {
  // Spanish writes the trill r ("perro") and the tap ɾ ("pero"); eSpeak's `r` is the tap.
  es: [
    ['r', 'R'],
    ['ɾ', 'r'],
  ],
  // Japanese: し's ɕ, ら's flap ɽ and ん's ɴ have names of their own.
  ja: [
    ['ɕ', 's\\'],
    ['ɽ', 'r`'],
    ['ɴ', 'N\\'],
  ],
  // Vietnamese dental t (Việt).
  vi: [['t̪', 't[']],
};

/** Languages whose tones may follow a vowel as eSpeak writes them: a digit 1–7 (`aː2`; 1 and 7 are the level and clause-final tones eSpeak's own readings carry). */
const TONE_DIGITS: ReadonlySet<LanguageCode> = new Set(['vi']);

/** Marks that carry no phoneme of their own in eSpeak's input and are dropped. */
const DROPPED = new Set([
  '.', // syllable break
  '‿', // linking
  'ʰ', // aspiration
  'ˑ', // half-long
  '\u0329', // syllabic (combining vertical line below)
  '\u032F', // non-syllabic (combining inverted breve below)
  '\u0361', // tie bar above
  '\u035C', // tie bar below
  '\u0325', // voiceless (combining ring below)
  '\u031A', // no audible release
  '\u031D', // raised
  '\u031E', // lowered (Japanese o̞ e̞)
  '\u032A', // dental
  'ᵝ', // compressed (Japanese ɯᵝ)
]);

/** Suprasegmentals and their eSpeak names. ASCII `'` and `:` are accepted for ˈ and ː. */
const MARKS = new Map<string, string>([
  ['ˈ', "'"],
  ["'", "'"],
  ['ˌ', ','],
  ['ʲ', ';'],
  ['ʷ', 'w'],
]);

const LENGTH = new Set(['ː', ':']);
/** Tone letters ˥˦˧˨˩, tone diacritics (combining grave, acute, circumflex, macron, breve, caron, double acute) and tone numbers. */
const TONES = new Set([
  ...'\u02E5\u02E6\u02E7\u02E8\u02E9\u0300\u0301\u0302\u0304\u0306\u030B\u030C0123456789',
]);

/**
 * IPA sequence (NFD code points) → eSpeak name, longest sequences first; vowels say whether they
 * are r-coloured (`true`: not before a vowel) or plain (`false`); consonants leave it undefined.
 */
type Table = ReadonlyArray<readonly [ipa: readonly string[], name: string, rColoured?: boolean]>;

const tables = new Map<LanguageCode, Table>();

function tableFor(language: LanguageCode): Table {
  const cached = tables.get(language);
  if (cached) return cached;
  const defined = VOWELS_DEFINED[language];
  const map = new Map<string, { name: string; rColoured?: boolean }>();
  for (const [ipa, candidates] of VOWELS) {
    const name = candidates.find((c) => defined.has(c));
    // A diphthong the table lacks is read as its two vowels.
    if (name !== undefined) map.set(ipa.normalize('NFD'), { name, rColoured: NOT_BEFORE_VOWEL.has(ipa) });
  }
  for (const [ipa, name] of CONSONANTS) map.set(ipa.normalize('NFD'), { name });
  for (const [ipa, name] of OVERRIDES[language] ?? []) map.set(ipa.normalize('NFD'), { name });
  const table = [...map]
    .map(([ipa, { name, rColoured }]) => [[...ipa], name, rColoured] as const)
    .sort((a, b) => b[0].length - a[0].length);
  tables.set(language, table);
  return table;
}

/** Why IPA cannot be read: a tone mark, a symbol not supported, no phoneme at all. */
export const IPA_ERROR_REASONS = ['ipa_tone', 'ipa_symbol', 'ipa_empty'] as const;
export type IpaErrorReason = (typeof IPA_ERROR_REASONS)[number];

/** The result of `ipaToEspeak`: eSpeak's names, or why the IPA cannot be read. */
export type IpaConversion =
  | { ok: true; phonemes: string }
  | {
      ok: false;
      /** A sentence for the user, naming the symbol and its place. */
      message: string;
      reason: IpaErrorReason;
      /** The symbol refused (as shown: a combining mark on ◌); none for `ipa_empty`. */
      symbol?: string;
      /** 1-based position of the problem in the IPA as given, in characters (code points). */
      position: number;
    };

/**
 * Converts IPA (e.g. `ʃɪˈvɔːn`, slashes or brackets around it allowed) to the eSpeak NG phoneme
 * names of `language`'s table (e.g. `SI'vO:n`), to be spoken as `[[SI'vO:n]]`. Spaces separate
 * words. Accepts the symbols listed in `SUPPORTED_IPA`; stress ˈ ˌ (or `'`), length ː (or `:`,
 * dropped after a vowel the language has no long form of), and drops syllable breaks,
 * aspiration, tie bars and syllabic marks. Tone marks and any other symbol fail with their
 * position. Never throws.
 */
export function ipaToEspeak(ipa: string, language: LanguageCode): IpaConversion {
  // Each code point of the NFC text the user typed keeps its 1-based position; NFD splits a
  // composed character (ã) into its base and combining mark, both at that position.
  const source: { char: string; at: number }[] = [];
  [...ipa.normalize('NFC')].forEach((char, i) => {
    for (const part of char.normalize('NFD')) source.push({ char: part, at: i + 1 });
  });
  // Surrounding /…/ or […], as transcriptions are often written.
  let first = 0;
  let end = source.length;
  while (first < end && /\s/u.test(source[first]!.char)) first++;
  while (end > first && /\s/u.test(source[end - 1]!.char)) end--;
  if (first < end && (source[first]!.char === '/' || source[first]!.char === '[')) first++;
  if (end > first && (source[end - 1]!.char === '/' || source[end - 1]!.char === ']')) end--;

  const table = tableFor(language);
  const startsWith = (at: number, key: readonly string[]) =>
    at + key.length <= end && key.every((c, k) => source[at + k]!.char === c);
  const words: string[] = [];
  let word = '';
  let hasPhoneme = false;
  let i = first;
  while (i < end) {
    const { char, at } = source[i]!;
    if (/\s/u.test(char)) {
      if (word) words.push(word);
      word = '';
      i++;
      continue;
    }
    const hit = table.find(
      ([key, , rColoured]) =>
        startsWith(i, key) && !(rColoured && VOWEL_STARTS.has(source[i + key.length]?.char ?? '')),
    );
    if (hit) {
      word += hit[1];
      hasPhoneme = true;
      i += hit[0].length;
      // A Vietnamese tone number after the vowel, as eSpeak writes it.
      const tone = source[i]?.char ?? '';
      if (hit[2] !== undefined && TONE_DIGITS.has(language) && /^[1-7]$/.test(tone)) {
        word += tone;
        i++;
      }
      continue;
    }
    const mark = MARKS.get(char);
    if (mark !== undefined) {
      word += mark;
      i++;
      continue;
    }
    if (DROPPED.has(char) || LENGTH.has(char)) {
      i++;
      continue;
    }
    if (TONES.has(char)) {
      return {
        ok: false,
        position: at,
        reason: 'ipa_tone',
        symbol: char,
        message: `Tone marks such as "${char}" (character ${at}) are not supported in IPA entries; write a respelling instead.`,
      };
    }
    const shown = /\p{M}/u.test(char) ? `◌${char}` : char;
    const code = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return {
      ok: false,
      position: at,
      reason: 'ipa_symbol',
      symbol: shown,
      message: `The IPA symbol "${shown}" (U+${code}, character ${at}) is not supported; docs/USER-GUIDE.md (Pronunciation lexicon) lists the symbols that are.`,
    };
  }
  if (word) words.push(word);
  if (!hasPhoneme)
    return { ok: false, position: 1, reason: 'ipa_empty', message: 'The IPA has no phonemes.' };
  return { ok: true, phonemes: words.join(' ') };
}

/** Every IPA symbol `ipaToEspeak` reads as a phoneme (vowels, diphthongs, consonants), for docs and UI hints. */
export const SUPPORTED_IPA: readonly string[] = [
  ...new Set([...VOWELS.map(([ipa]) => ipa), ...CONSONANTS.map(([ipa]) => ipa)]),
];
