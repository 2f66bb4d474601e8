/** Which interface language to show: the user's choice, else the browser's (vi* → vi, else en). */

import type { LocaleChoice } from '../stores/ui-slice';

export const LOCALES = ['en', 'vi'] as const;
export type Locale = (typeof LOCALES)[number];

/** The first of the browser's languages we have, else English. */
export function browserLocale(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'vi') return 'vi';
    if (base === 'en') return 'en';
  }
  return 'en';
}

export function resolveLocale(choice: LocaleChoice, languages: readonly string[]): Locale {
  return choice === 'system' ? browserLocale(languages) : choice;
}
