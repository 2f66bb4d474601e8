/**
 * The app's languages: one row each, from which every list of languages is derived (the
 * `LanguageCode` type, the API's and lexicon's schemas, the studio's pickers, the locale a voice
 * pack is chosen by, the BCP 47 tag of the public voice list). Adding a language is one row here
 * (and its voices, rules and messages, which the compiler then asks for: they are
 * `Record<LanguageCode, …>`). A module without the schema library, so the CLI's help loads none.
 */

import type { Accent } from './voices';

interface LanguageRow {
  /** Its English name (the studio writes it in its own language). */
  name: string;
  /** The locale of voice packs (Piper, Kokoro) of the language, `ll_RR`. */
  packLocale: string;
  /** Accents whose packs have a locale of their own (`British` → `en_GB`). */
  accentPackLocales?: Partial<Record<Accent, string>>;
  /** The BCP 47 tag the cloud service writes for the language (its public voice list). */
  tag: string;
  /** Accents the service tags otherwise (`Indian` → `en-IN`). */
  accentTags?: Partial<Record<Accent, string>>;
  /** Its three-letter code (ISO 639-2/3), which a language tag may begin with instead (`vie`). */
  iso3: string;
}

/** Vietnamese and English first: the app's two first languages. */
export const LANGUAGES = {
  vi: { name: 'Vietnamese', packLocale: 'vi_VN', tag: 'vi-VN', iso3: 'vie' },
  en: {
    name: 'English',
    packLocale: 'en_US',
    accentPackLocales: { British: 'en_GB' },
    tag: 'en-US',
    accentTags: { British: 'en-GB', Australian: 'en-AU', Indian: 'en-IN' },
    iso3: 'eng',
  },
  zh: { name: 'Chinese', packLocale: 'zh_CN', tag: 'cmn-CN', iso3: 'cmn' },
  ja: { name: 'Japanese', packLocale: 'ja_JP', tag: 'ja-JP', iso3: 'jpn' },
  ko: { name: 'Korean', packLocale: 'ko_KR', tag: 'ko-KR', iso3: 'kor' },
  fr: { name: 'French', packLocale: 'fr_FR', tag: 'fr-FR', iso3: 'fra' },
  es: { name: 'Spanish', packLocale: 'es_ES', tag: 'es-ES', iso3: 'spa' },
} as const satisfies Record<string, LanguageRow>;

export type LanguageCode = keyof typeof LANGUAGES;

const rows = LANGUAGES as Readonly<Record<LanguageCode, LanguageRow>>;

/** Every language code, in the table's order. */
export const LANGUAGE_CODES = Object.keys(LANGUAGES) as LanguageCode[] as readonly LanguageCode[];

/** The languages by their English names (the interface writes them in its own language). */
export const LANGUAGE_NAMES = Object.fromEntries(
  LANGUAGE_CODES.map((code) => [code, rows[code].name]),
) as Readonly<Record<LanguageCode, string>>;

/** Whether `code` is one of the app's languages. */
export function isLanguageCode(code: string): code is LanguageCode {
  return Object.hasOwn(LANGUAGES, code);
}

const BY_ISO3 = new Map(LANGUAGE_CODES.map((code) => [rows[code].iso3, code]));

/**
 * The app's language of a language tag (BCP 47 as `en-US`, `cmn-Hans`, `vi`; `_` as in `en_GB`),
 * by its primary subtag, two letters or three; undefined when it is none of ours.
 */
export function languageOfTag(tag: string): LanguageCode | undefined {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return isLanguageCode(primary) ? primary : BY_ISO3.get(primary);
}

/** The locale of voice packs a voice of `language` with `accent` prefers (`en`, British → `en_GB`). */
export function packLocale(language: LanguageCode, accent: Accent): string {
  const row = rows[language];
  return row.accentPackLocales?.[accent] ?? row.packLocale;
}

/** The BCP 47 tag the cloud service writes for a voice of `language` with `accent`. */
export function languageTag(language: LanguageCode, accent: Accent): string {
  const row = rows[language];
  return row.accentTags?.[accent] ?? row.tag;
}
