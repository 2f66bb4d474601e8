/**
 * English SSML `<say-as>` (`LanguageRules.sayAs`): telephone numbers digit by digit in their
 * groups, 0 said "oh" as English speakers say it in a phone number ("five five five, oh one oh
 * oh"). Other kinds are the shared readings (ordinals by `writeOrdinal`, letters by
 * `letterName`). What it returns is handed to the English rules.
 */

import type { SayAs } from '../../../../shared/ssml';
import { telephoneGroups } from '../say-as';

export function englishSayAs(kind: SayAs, written: string): string | undefined {
  if (kind !== 'telephone') return undefined;
  return telephoneGroups(written, { plus: 'plus', digit: (d) => (d === '0' ? 'oh' : d) });
}
