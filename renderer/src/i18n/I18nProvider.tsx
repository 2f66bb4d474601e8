import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { setFormatLocale } from '../lib/format';
import { useStudio } from '../stores';
import { resolveLocale, type Locale } from './locale';
import en from './messages/en.json';
import vi from './messages/vi.json';

export const CATALOGUES: Record<Locale, Record<string, string>> = { en, vi };

function subscribeLanguages(onChange: () => void): () => void {
  window.addEventListener('languagechange', onChange);
  return () => window.removeEventListener('languagechange', onChange);
}
const browserLanguages = () => navigator.languages.join(',');

/** The messages of the chosen language around the app; `<html lang>` follows it. */
export function I18nProvider({ children }: { children: ReactNode }) {
  const choice = useStudio((s) => s.locale);
  const languages = useSyncExternalStore(subscribeLanguages, browserLanguages);
  const locale = resolveLocale(choice, languages.split(','));
  // Numbers and dates formatted outside messages (lib/format.ts) follow the same language, set
  // before the views below render with it.
  setFormatLocale(locale);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  return (
    <IntlProvider locale={locale} defaultLocale="en" messages={CATALOGUES[locale]}>
      {children}
    </IntlProvider>
  );
}
