/**
 * The studio's figures in the reader's locale (renderer/src/lib/format.ts): thousands
 * separators and decimals as English and Vietnamese write them, from the locale set in one place.
 */

import { afterEach, describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCredits,
  formatDate,
  formatDuration,
  formatLocale,
  formatNumber,
  setFormatLocale,
} from '../../renderer/src/lib/format';

afterEach(() => setFormatLocale(undefined));

describe('formatNumber and formatCredits', () => {
  it('write thousands separators for English and Vietnamese', () => {
    expect(formatNumber(1234567, { locale: 'en' })).toBe('1,234,567');
    expect(formatNumber(1234567, { locale: 'vi-VN' })).toBe('1.234.567');
    expect(formatCredits(1000000, 'en-GB')).toBe('1,000,000');
    expect(formatCredits(1000000, 'vi')).toBe('1.000.000');
  });

  it('keep credits exact to 0.001, with the locale’s decimal sign', () => {
    expect(formatCredits(12345.675, 'en')).toBe('12,345.675');
    expect(formatCredits(12345.675, 'vi-VN')).toBe('12.345,675');
    expect(formatCredits(0.1 + 0.2, 'en')).toBe('0.3');
  });

  it('fixes the decimals when asked (speeds, sizes)', () => {
    expect(formatNumber(1, { digits: 1, locale: 'en' })).toBe('1.0');
    expect(formatNumber(1.25, { digits: 1, locale: 'vi' })).toBe('1,3');
    expect(formatBytes(12_345_678, 'en')).toBe('11.8 MB');
    expect(formatBytes(12_345_678, 'vi')).toBe('11,8 MB');
    expect(formatBytes(5 * 1024 ** 3, 'en')).toBe('5.00 GB');
    expect(formatBytes(512, 'en')).toBe('512 B');
  });
});

describe('the locale', () => {
  it('is set in one place for every helper', () => {
    setFormatLocale('vi-VN');
    expect(formatLocale()).toBe('vi-VN');
    expect(formatNumber(1234567)).toBe('1.234.567');
    expect(formatCredits(2500.5)).toBe('2.500,5');
    expect(formatDuration(4_500_000)).toBe('~1.250 giờ 0 phút');
    setFormatLocale('en');
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatDuration(4_500_000)).toBe('~1,250 h 0 min');
  });

  it('is the browser’s language when none is set', () => {
    setFormatLocale(undefined);
    expect(formatLocale()).toBe(globalThis.navigator?.language || 'en');
  });
});

describe('formatDate', () => {
  const iso = '2026-03-12T14:05:09Z';

  it('writes the date as the locale does, and a word for none', () => {
    const en = formatDate(iso, { locale: 'en-GB' });
    expect(en).toMatch(/12 Mar 2026/);
    const vi = formatDate(iso, { locale: 'vi-VN' });
    expect(vi).toMatch(/2026/);
    expect(vi).not.toBe(en);
    expect(vi).toMatch(/thg 3|tháng 3/);
    expect(formatDate(null)).toBe('—');
    expect(formatDate(null, { none: 'never' })).toBe('never');
  });

  it('adds the seconds with time "medium"', () => {
    expect(formatDate(iso, { locale: 'en-GB', time: 'medium' })).toMatch(/:09/);
    expect(formatDate(iso, { locale: 'en-GB' })).not.toMatch(/:09/);
  });
});

describe('formatDuration', () => {
  it('rounds to seconds, minutes, then hours and minutes', () => {
    expect(formatDuration(44.6, 'en')).toBe('~45 s');
    expect(formatDuration(185, 'en')).toBe('~3 min');
    expect(formatDuration(4800, 'en')).toBe('~1 h 20 min');
  });

  it('writes the units in the language', () => {
    expect(formatDuration(44.6, 'vi')).toBe('~45 giây');
    expect(formatDuration(4800, 'vi-VN')).toBe('~1 giờ 20 phút');
  });
});
