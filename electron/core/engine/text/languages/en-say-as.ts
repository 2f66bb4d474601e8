/**
 * English SSML `<say-as>` (`LanguageRules.sayAs`): telephone numbers digit by digit in their
 * groups, 0 said "oh" as English speakers say it in a phone number ("five five five, oh one oh
 * oh"), and cardinals as a count (`englishCardinal`). Other kinds are the shared readings
 * (ordinals by `writeOrdinal`, letters by `letterName`). What it returns is handed to the English
 * rules.
 */

import type { SayAs } from '../../../../shared/ssml';
import type { PrepareOptions } from '../rule-kit';
import { telephoneGroups } from '../say-as';
import { withBritishAnd } from './en-numbers';
import { numberWords } from './en-reading';

export function englishSayAs(kind: SayAs, written: string, options: PrepareOptions): string | undefined {
  if (kind === 'cardinal') return englishCardinal(written, options);
  if (kind !== 'telephone') return undefined;
  return telephoneGroups(written, { plus: 'plus', digit: (d) => (d === '0' ? 'oh' : d) });
}

/** A number as written: sign, thousands separators, decimals ("-1,234.5"). */
const WRITTEN_NUMBER = /[-−–]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-−–]?\.\d+/u;

/**
 * `<say-as interpret-as="cardinal">`: the number as a count, read directly ("1994" is "one
 * thousand nine hundred ninety four", not the year's "nineteen ninety four"), British style when
 * the voice asks for it.
 */
function englishCardinal(written: string, options: PrepareOptions): string | undefined {
  const number = WRITTEN_NUMBER.exec(written)?.[0];
  if (number === undefined) return undefined;
  const words = numberWords(number);
  return options.andAfterHundred ? withBritishAnd(words) : words;
}
