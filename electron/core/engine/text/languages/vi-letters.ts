/**
 * Vietnamese names of the Latin letters, for acronyms spelt out ("VTV" → vê tê vê) and e-mail
 * addresses. Written as eSpeak NG's Vietnamese voice reads them right: J is "di" (eSpeak reads
 * the syllable "gi" alone as a bare consonant).
 */

import { VI_DIGITS } from './vi-numbers';

const LETTER_NAMES: Record<string, string> = {
  a: 'a',
  ă: 'á',
  â: 'ớ',
  b: 'bê',
  c: 'xê',
  d: 'đê',
  đ: 'đê',
  e: 'e',
  ê: 'ê',
  f: 'ép',
  g: 'gờ',
  h: 'hát',
  i: 'i',
  j: 'di',
  k: 'ca',
  l: 'lờ',
  m: 'mờ',
  n: 'nờ',
  o: 'o',
  ô: 'ô',
  ơ: 'ơ',
  p: 'pê',
  q: 'quy',
  r: 'rờ',
  s: 'ét',
  t: 'tê',
  u: 'u',
  ư: 'ư',
  v: 'vê',
  w: 'đúp lê vê',
  x: 'ích',
  y: 'i dài',
  z: 'dét',
};

/** The Vietnamese name of a letter (either case), or undefined for a character that is not one of them. */
export function viLetterName(c: string): string | undefined {
  return LETTER_NAMES[c.toLocaleLowerCase('vi')];
}

/** Letters and digits spelt one by one ("VTV1" → vê tê vê một); other characters are dropped. */
export function spellVi(text: string): string {
  const words: string[] = [];
  for (const c of text) {
    if (c >= '0' && c <= '9') words.push(VI_DIGITS[Number(c)] as string);
    else {
      const name = viLetterName(c);
      if (name) words.push(name);
    }
  }
  return words.join(' ');
}

/**
 * A name's initial as a reader says it: a letter by its name ("A." a), a consonant cluster as its
 * sound with "ờ" ("Qu." quờ, "Th." thờ, "Ng." ngờ).
 */
export function viInitialName(initial: string): string {
  return initial.length > 1 ? `${initial.toLocaleLowerCase('vi')}ờ` : spellVi(initial);
}

/** A Vietnamese syllable written without its tone marks ("van", "tin"); a word that is none is foreign ("Trump", "Obama"). */
export const VI_SYLLABLE =
  /^(?:ngh|ng|nh|ch|gh|gi|kh|ph|qu|th|tr|[bcdghklmnpqrstvx])?(?:[aeiouy]{1,3})(?:ch|ng|nh|[cmnpt])?$/i;

/**
 * An English word's shape in capitals ("TEAM", "TIKI"): a consonant first, then syllables of an
 * English onset, one to three vowels and a coda, at least two vowel letters. Acronyms said by their
 * letters have no such shape ("UBND", "EVFTA", "SCIC"); one that starts with a vowel ("IMSO") may be
 * either, and stays spelt.
 */
const EN_ONSET =
  '(?:SCH|SCR|SHR|SPL|SPR|STR|THR|BL|BR|CH|CL|CR|DR|FL|FR|GL|GR|PH|PL|PR|SC|SH|SK|SL|SM|SN|SP|ST|SW|TH|TR|TW|WH|WR|QU|[BCDFGHJKLMNPRSTVWXZ])?';
const EN_CODA = '(?:NG|NK|NT|ND|CK|CT|FT|LD|LL|LT|MP|RD|RK|RN|RT|RS|SH|SS|ST|TH|CH|GH|[BCDFGKLMNPRSTVXZ])?';
const EN_WORD_SHAPE = new RegExp(`^(?=[^AEIOUY])(?:${EN_ONSET}[AEIOUY]{1,3}${EN_CODA})+$`);

export function englishWordShape(word: string): boolean {
  return (word.match(/[AEIOUY]/g)?.length ?? 0) >= 2 && EN_WORD_SHAPE.test(word);
}
