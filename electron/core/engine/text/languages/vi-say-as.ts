/**
 * Vietnamese SSML `<say-as>` (`LanguageRules.sayAs`): digits and telephone numbers in
 * Vietnamese digit words ("không chín một hai, ba bốn năm"), ordinals as a reader says them
 * ("thứ nhất", "thứ tư", "thứ 5" for the rules to read), and letters by their Vietnamese names
 * ("bê", "xê", "hát"). What it returns is handed to the Vietnamese rules.
 */

import type { SayAs } from '../../../../shared/ssml';
import { digitsOneByOne, telephoneGroups, type DigitWords } from '../say-as';
import { viLetterName } from './vi-letters';
import { VI_DIGITS, viOrdinal } from './vi-numbers';

const WORDS: DigitWords = { digit: (d) => VI_DIGITS[Number(d)] ?? d, plus: 'cộng' };

/** One character spelt out: a letter's name, a digit's word, or the character as written. */
function spell(c: string): string {
  return viLetterName(c) ?? (/^\d$/u.test(c) ? (VI_DIGITS[Number(c)] as string) : c);
}

export function vietnameseSayAs(kind: SayAs, written: string): string | undefined {
  switch (kind) {
    case 'digits':
      return digitsOneByOne(written, WORDS);
    case 'telephone':
      return telephoneGroups(written, WORDS);
    case 'ordinal': {
      const digits = written.replace(/\D+/gu, '');
      return digits === '' ? undefined : `thứ ${viOrdinal(Number(digits))}`;
    }
    case 'characters':
    case 'spell-out':
      return [...written.normalize('NFC').replace(/\s+/gu, '')].map(spell).join(' ');
    default:
      return undefined;
  }
}
