/**
 * Acronyms a Vietnamese text defines for itself, as news writes them: the words, then the acronym
 * in parentheses ("Phòng Cảnh sát Giao thông (CSGT)", "Ban tổ chức (BTC)", "đường huyện (ĐH)").
 * The initials of the words just before the parentheses spell the acronym, blind to case and
 * tone marks ("Ủy" gives U; Đ is its own letter, as in the alphabet); "và" or "&" between the
 * words may be left out of it ("Giáo dục và Đào tạo (GDĐT)") or written "&" ("GD&ĐT"), and a
 * hyphen in it is not a letter ("KT-XH").
 *
 * The acronym in the parentheses is read as those words, and so is every later use of it in the
 * same text (the text one reading is made of: what `readingOf` is given, or one chunk of a
 * render), so "ĐH" defined as "đường huyện" is not read "đại học" further on. The user's lexicon
 * still wins: its entries are matched before every rule.
 */

import type { AcronymDefinition, RuleContext } from '../rule-kit';

/** An acronym in parentheses: a capital, then capitals, "&" or "-" (2 to 10 characters). */
const IN_PARENTHESES = /\([ \u00A0]?([A-ZĐ][A-ZĐ&-]{1,9})[ \u00A0]?\)/gu;
/** How far back the words of a definition are looked for. */
const WORDS_WINDOW = 160;
const JOIN_WORD = /^(?:và|&)$/iu;

/** The initial of a word as an acronym writes it: capital, without tone marks; Đ stays Đ. */
function initialOf(word: string): string {
  const first = word.charAt(0);
  if (first === 'đ' || first === 'Đ') return 'Đ';
  return first.normalize('NFD').charAt(0).toUpperCase();
}

/**
 * The words just before `open` (the offset of "(") whose initials spell `acronym`, as written,
 * or undefined. Only the clause before the parentheses counts (back to a punctuation mark).
 */
export function wordsSpelling(acronym: string, input: string, open: number): string | undefined {
  const head = input.slice(Math.max(0, open - WORDS_WINDOW), open);
  const clauseStart = Math.max(...[...'.,;:!?()[]"“”\n'].map((c) => head.lastIndexOf(c))) + 1;
  const clause = head.slice(clauseStart);
  const words = [...clause.matchAll(/\p{L}+|&/gu)];
  const letters = [...acronym.replace(/-/g, '')];
  let i = letters.length - 1;
  let j = words.length - 1;
  while (i >= 0 && j >= 0) {
    const word = (words[j] as RegExpMatchArray)[0];
    const letter = letters[i] as string;
    if (letter === '&') {
      if (!JOIN_WORD.test(word)) return undefined;
    } else if (word === '&' || initialOf(word) !== letter) {
      // "Giáo dục và Đào tạo (GDĐT)": "và" left out of the acronym.
      if (!JOIN_WORD.test(word) || i === letters.length - 1) return undefined;
      j--;
      continue;
    }
    i--;
    j--;
  }
  if (i >= 0) return undefined;
  const first = words[j + 1] as RegExpMatchArray;
  return clause.slice(first.index).trimEnd();
}

let definedIn: string | undefined;
let definedThere: ReadonlyMap<string, AcronymDefinition> = new Map();

/**
 * The acronyms `input` defines, the first definition of each, its offset the "(" (cached for the
 * last input): uses from there on are read as its words.
 */
export function acronymDefinitions(input: string): ReadonlyMap<string, AcronymDefinition> {
  if (input === definedIn) return definedThere;
  const found = new Map<string, AcronymDefinition>();
  if (input.includes('('))
    for (const m of input.matchAll(IN_PARENTHESES)) {
      const acronym = m[1] as string;
      if (found.has(acronym)) continue;
      const words = wordsSpelling(acronym, input, m.index);
      if (words) found.set(acronym, { at: m.index, words });
    }
  definedIn = input;
  definedThere = found;
  return found;
}

/**
 * The words `written` stands for where the text defined it at or before this match ("(BTC)"
 * right after "Ban tổ chức", or a later "BTC"; or one an earlier piece of a render defined,
 * `PrepareOptions.definedAcronyms`), or undefined.
 */
export function definedAcronym(written: string, ctx: RuleContext): string | undefined {
  if (!/^[A-ZĐ]/u.test(written)) return undefined;
  const definition = acronymDefinitions(ctx.input).get(written);
  if (definition && definition.at < ctx.index) return definition.words;
  return ctx.options.definedAcronyms?.get(written);
}
