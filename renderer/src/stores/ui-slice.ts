import { readJson, type SliceCreator } from './types';

export const VIEWS = [
  'projects',
  'studio',
  'voices',
  'library',
  'lexicon',
  'export',
  'history',
  'callbacks',
  'api',
  'settings',
] as const;
export type View = (typeof VIEWS)[number];
export type ThemeChoice = 'system' | 'light' | 'dark';

export const THEME_KEY = 'narration-studio.theme';
/** The interface language the user chose in Settings; 'system' follows the browser. */
export type LocaleChoice = 'system' | 'en' | 'vi';
export const LOCALE_KEY = 'narration-studio.locale';

export interface UiSlice {
  view: View;
  theme: ThemeChoice;
  setView(view: View): void;
  setTheme(theme: ThemeChoice): void;
  locale: LocaleChoice;
  setLocale(locale: LocaleChoice): void;
}

export const createUiSlice: SliceCreator<UiSlice> =
  ({ storage }) =>
  (set) => {
    const stored = readJson<ThemeChoice>(storage, THEME_KEY);
    const storedLocale = readJson<LocaleChoice>(storage, LOCALE_KEY);
    return {
      view: 'studio',
      theme: stored === 'light' || stored === 'dark' ? stored : 'system',
      setView: (view) => set({ view }),
      setTheme(theme) {
        storage.setItem(THEME_KEY, JSON.stringify(theme));
        set({ theme });
      },
      locale: storedLocale === 'en' || storedLocale === 'vi' ? storedLocale : 'system',
      setLocale(locale) {
        storage.setItem(LOCALE_KEY, JSON.stringify(locale));
        set({ locale });
      },
    };
  };
