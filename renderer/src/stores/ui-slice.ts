import { readJson, type SliceCreator, type StoreDeps } from './types';

export const VIEWS = [
  'projects',
  'studio',
  'voices',
  'library',
  'lexicon',
  'reading',
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

/** The interface language chosen in Settings, as kept in storage ('system' when none). */
export function storedLocaleChoice(storage: StoreDeps['storage']): LocaleChoice {
  const stored = readJson<LocaleChoice>(storage, LOCALE_KEY);
  return stored === 'en' || stored === 'vi' ? stored : 'system';
}

export interface UiSlice {
  view: View;
  /** The request selected in History (its details show above the list), or null. */
  historyRequestId: string | null;
  /** The selected request's text, once read (the document title names the request by it). */
  historyRequestText: string | null;
  theme: ThemeChoice;
  /** Shows a view; the address follows (lib/address.ts). */
  setView(view: View): void;
  /** Selects a request in History (null: none); the address follows (`#/history/<id>`). */
  selectRequest(id: string | null): void;
  /** The text of request `id`, read by History's details; kept only while it is the one selected. */
  describeRequest(id: string, text: string): void;
  setTheme(theme: ThemeChoice): void;
  locale: LocaleChoice;
  setLocale(locale: LocaleChoice): void;
}

export const createUiSlice: SliceCreator<UiSlice> =
  ({ storage }) =>
  (set, get) => {
    const stored = readJson<ThemeChoice>(storage, THEME_KEY);
    return {
      view: 'studio',
      historyRequestId: null,
      historyRequestText: null,
      theme: stored === 'light' || stored === 'dark' ? stored : 'system',
      setView: (view) => set({ view }),
      selectRequest: (id) => set({ historyRequestId: id, historyRequestText: null }),
      describeRequest(id, text) {
        if (get().historyRequestId === id) set({ historyRequestText: text });
      },
      setTheme(theme) {
        storage.setItem(THEME_KEY, JSON.stringify(theme));
        set({ theme });
      },
      locale: storedLocaleChoice(storage),
      setLocale(locale) {
        storage.setItem(LOCALE_KEY, JSON.stringify(locale));
        set({ locale });
        get().followInterfaceLanguage(locale);
      },
    };
  };
