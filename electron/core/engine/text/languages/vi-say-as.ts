/**
 * Vietnamese SSML `<say-as>` (`LanguageRules.sayAs`): digits and telephone numbers in
 * Vietnamese digit words ("không chín một hai, ba bốn năm"), ordinals as a reader says them
 * ("thứ nhất", "thứ tư", "thứ 5" for the rules to read), and letters by their Vietnamese names
 * ("bê", "xê", "hát"). What it returns is handed to the Vietnamese rules.
 */

import type { SayAs } from '../../../../shared/ssml';
import { digitsOneByOne, telephoneGroups, type DigitWords } from '../say-as';

const DIGITS = ['không', 'một', 'hai', 'ba', 'bốn', 'năm', 'sáu', 'bảy', 'tám', 'chín'];

const WORDS: DigitWords = { digit: (d) => DIGITS[Number(d)] ?? d, plus: 'cộng' };

/** The Vietnamese names of the letters, as they are said when a word is spelt out. */
const LETTERS: Record<string, string> = {
  a: 'a',
  ă: 'á',
  â: 'ớ',
  b: 'bê',
  c: 'xê',
  d: 'dê',
  đ: 'đê',
  e: 'e',
  ê: 'ê',
  f: 'ép',
  g: 'giê',
  h: 'hát',
  i: 'i',
  j: 'gi',
  k: 'ca',
  l: 'e lờ',
  m: 'em mờ',
  n: 'en nờ',
  o: 'o',
  ô: 'ô',
  ơ: 'ơ',
  p: 'pê',
  q: 'quy',
  r: 'e rờ',
  s: 'ét xì',
  t: 'tê',
  u: 'u',
  ư: 'ư',
  v: 'vê',
  w: 'vê kép',
  x: 'ích xì',
  y: 'i dài',
  z: 'dét',
};

/** One character spelt out: a letter's name, a digit's word, or the character as written. */
function spell(c: string): string {
  const lower = c.toLocaleLowerCase('vi');
  return LETTERS[lower] ?? WORDS.digit?.(lower) ?? c;
}

export function vietnameseSayAs(kind: SayAs, written: string): string | undefined {
  switch (kind) {
    case 'digits':
      return digitsOneByOne(written, WORDS);
    case 'telephone':
      return telephoneGroups(written, WORDS);
    case 'ordinal': {
      const digits = written.replace(/\D+/gu, '').replace(/^0+(?=\d)/u, '');
      if (digits === '') return undefined;
      return digits === '1' ? 'thứ nhất' : digits === '4' ? 'thứ tư' : `thứ ${digits}`;
    }
    case 'characters':
    case 'spell-out':
      return [...written.normalize('NFC').replace(/\s+/gu, '')].map(spell).join(' ');
    default:
      return undefined;
  }
}
