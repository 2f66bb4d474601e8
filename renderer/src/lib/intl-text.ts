/**
 * Text made outside components (a function's sentence, a rejected promise's message) in the
 * interface's language: the one I18nProvider last set for lib/format.ts (setFormatLocale), else
 * the browser's. Components take `useIntl()` instead, which renders again when the language
 * changes; functions that make text take an `intl` and default to this one.
 */

import { createIntl, createIntlCache, type IntlShape } from 'react-intl';
import { browserLocale, type Locale } from '../i18n/locale';
import en from '../i18n/messages/en.json';
import vi from '../i18n/messages/vi.json';
import { formatLocale } from './format';

const CATALOGUES: Record<Locale, Record<string, string>> = { en, vi };
const cache = createIntlCache();
const made: Partial<Record<Locale, IntlShape>> = {};

/** The formatter of the interface's language now. */
export function currentIntl(): IntlShape {
  const locale = browserLocale([formatLocale()]);
  return (made[locale] ??= createIntl({ locale, defaultLocale: 'en', messages: CATALOGUES[locale] }, cache));
}

/** A language's name in the interface's language ("Vietnamese", "Tiếng Việt"); `fallback` if unknown. */
export function languageName(code: string, intl: IntlShape = currentIntl(), fallback = code): string {
  try {
    return intl.formatDisplayName(code, { type: 'language' }) ?? fallback;
  } catch {
    return fallback;
  }
}
