/**
 * Text made outside components (a function's sentence, a rejected promise's message, an API
 * error) in the interface's language: the formatter I18nProvider set last, else English.
 * Components take `useIntl()` instead, which renders again when the language changes; functions
 * that make text take an `intl` and default to this one.
 */

import { createIntl, createIntlCache, useIntl, type IntlShape, type MessageDescriptor } from 'react-intl';
import { LANGUAGE_NAMES } from '../../../electron/shared/voices';
import en from '../i18n/messages/en.json';

const cache = createIntlCache();
const english = createIntl({ locale: 'en', defaultLocale: 'en', messages: en }, cache);
let current: IntlShape | undefined;

/** The formatter text is made with from now on (I18nProvider, on each language); undefined: English. */
export function setCurrentIntl(intl: IntlShape | undefined): void {
  current = intl;
}

/** The formatter of the interface's language now. */
export function currentIntl(): IntlShape {
  return current ?? english;
}

/**
 * A language's name in the interface's language ("Vietnamese", "Tiếng Việt"; Intl's display
 * names); where Intl has none, `fallback`, else the catalogue's English name, else the code.
 */
export function languageName(
  code: string,
  intl: IntlShape = currentIntl(),
  fallback: string = (LANGUAGE_NAMES as Record<string, string>)[code] ?? code,
): string {
  try {
    const name = intl.formatDisplayName(code, { type: 'language' });
    if (name && name !== code) return name;
  } catch {
    // Not a language code Intl knows.
  }
  return fallback;
}

/** `languageName` in the language a component renders in. */
export function useLanguageName(): (code: string) => string {
  const intl = useIntl();
  return (code) => languageName(code, intl);
}

/** A text for the interface held in a store: a message to format where shown, with its values. */
export interface Described {
  message: MessageDescriptor;
  /** Values of its placeholders; a Described value is formatted first. */
  values?: Record<string, string | number | Described>;
}

/** Text a store hands to a view: a message, or a sentence from the server (already worded there). */
export type ShownText = string | Described;

/** `text` in the interface's language (a server's sentence as it came). */
export function formatShown(intl: Pick<IntlShape, 'formatMessage'>, text: ShownText): string {
  if (typeof text === 'string') return text;
  const values = Object.fromEntries(
    Object.entries(text.values ?? {}).map(([key, value]) => [
      key,
      typeof value === 'object' ? formatShown(intl, value) : value,
    ]),
  );
  return intl.formatMessage(text.message, values);
}
