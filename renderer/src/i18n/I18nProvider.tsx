import { useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { createIntl, createIntlCache, RawIntlProvider } from 'react-intl';
import { getDesktop } from '../lib/desktop';
import { setFormatLocale } from '../lib/format';
import { setCurrentIntl } from '../lib/intl-text';
import { useStudio } from '../stores';
import { resolveLocale, type Locale } from './locale';
import en from './messages/en.json';
import vi from './messages/vi.json';

export const CATALOGUES: Record<Locale, Record<string, string>> = { en, vi };

const cache = createIntlCache();

function subscribeLanguages(onChange: () => void): () => void {
  window.addEventListener('languagechange', onChange);
  return () => window.removeEventListener('languagechange', onChange);
}
const browserLanguages = () => navigator.languages.join(',');

/** The messages of the chosen language around the app; `<html lang>` and the desktop menus follow it. */
export function I18nProvider({ children }: { children: ReactNode }) {
  const choice = useStudio((s) => s.locale);
  const languages = useSyncExternalStore(subscribeLanguages, browserLanguages);
  const locale = resolveLocale(choice, languages.split(','));
  const intl = useMemo(
    () => createIntl({ locale, defaultLocale: 'en', messages: CATALOGUES[locale] }, cache),
    [locale],
  );
  // Numbers and dates formatted outside messages (lib/format.ts) and text made outside
  // components (lib/intl-text.ts: API errors, shared describers) follow the same language, set
  // before the views below render with it.
  setFormatLocale(locale);
  setCurrentIntl(intl);
  useEffect(() => {
    document.documentElement.lang = locale;
    // In the desktop app the menus, tray and save dialogs follow the interface's language.
    getDesktop()
      ?.setLanguage(locale)
      .catch((error: unknown) => console.warn(`the menus keep their language: ${String(error)}`));
  }, [locale]);
  return <RawIntlProvider value={intl}>{children}</RawIntlProvider>;
}
