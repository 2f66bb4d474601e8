import { describe, expect, it } from 'vitest';
import {
  isLanguageCode,
  LANGUAGE_CODES,
  LANGUAGE_NAMES,
  languageOfTag,
  languageTag,
  packLocale,
} from '../../electron/shared/languages';
import { VOICES } from '../../electron/shared/voices';

describe('the language table', () => {
  it('lists Vietnamese and English first, each language once, named in English', () => {
    expect(LANGUAGE_CODES.slice(0, 2)).toEqual(['vi', 'en']);
    expect(new Set(LANGUAGE_CODES).size).toBe(LANGUAGE_CODES.length);
    expect(Object.keys(LANGUAGE_NAMES)).toEqual([...LANGUAGE_CODES]);
    expect(LANGUAGE_NAMES.vi).toBe('Vietnamese');
    // Every voice of the catalogue speaks a language of the table, and every language has voices.
    expect(new Set(VOICES.map((v) => v.language))).toEqual(new Set(LANGUAGE_CODES));
    expect(isLanguageCode('vi')).toBe(true);
    expect(isLanguageCode('de')).toBe(false);
    expect(isLanguageCode('toString')).toBe(false);
  });

  it('reads a language tag by its primary subtag, two letters or three', () => {
    expect(languageOfTag('vi')).toBe('vi');
    expect(languageOfTag(' en-GB ')).toBe('en');
    expect(languageOfTag('EN_us')).toBe('en');
    expect(languageOfTag('cmn-Hans')).toBe('zh');
    expect(languageOfTag('vie')).toBe('vi');
    expect(languageOfTag('jpn')).toBe('ja');
    expect(languageOfTag('de-DE')).toBeUndefined();
    expect(languageOfTag('')).toBeUndefined();
  });

  it("gives a voice's pack locale and the service's tag, by accent where one has its own", () => {
    expect(packLocale('vi', 'Northern')).toBe('vi_VN');
    expect(packLocale('en', 'British')).toBe('en_GB');
    expect(packLocale('en', 'Australian')).toBe('en_US');
    expect(packLocale('zh', 'Mandarin')).toBe('zh_CN');
    expect(languageTag('en', 'Indian')).toBe('en-IN');
    expect(languageTag('en', 'American')).toBe('en-US');
    expect(languageTag('zh', 'Mandarin')).toBe('cmn-CN');
    expect(languageTag('vi', 'Southern')).toBe('vi-VN');
  });
});
