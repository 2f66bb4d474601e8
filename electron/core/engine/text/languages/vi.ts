/**
 * Vietnamese: numbers, dates, times, money, units, phone numbers, abbreviations and acronyms
 * written out in Vietnamese words (`./vi-reading`, with the data of `./vi-numbers`,
 * `./vi-units`, `./vi-abbreviations` and `./vi-letters`), so every voice says them as a
 * Vietnamese reader does: eSpeak NG's own Vietnamese number reading is wrong ("15" → "mười
 * năm", "50.000" → "năm mươi nghìn không trăm"). The hooks below serve SSML's say-as and the
 * shared rules' callers with the same words.
 */

import { piece, type LanguageRules } from '../rule-kit';
import { vietnameseAbbreviationRule } from './vi-abbreviations';
import { viLetterName } from './vi-letters';
import { viCardinal, viMonth, viNumberWords, viOrdinal } from './vi-numbers';
import { VIETNAMESE_READING_RULES } from './vi-reading';

const number = (digits: string) => viCardinal(String(Number(digits)));

export const vietnamese: LanguageRules = {
  abbreviations: vietnameseAbbreviationRule,
  readingRules: VIETNAMESE_READING_RULES,
  numericDateOrder: () => 'day-first',
  sayDate(d) {
    const pieces = [
      piece(`ngày ${number(String(d.day))}`, ...d.dayAt),
      piece(` tháng ${viMonth(d.month)}`, ...d.monthAt),
    ];
    if (d.year) pieces.push(piece(` năm ${number(d.year.text)}`, ...d.year.at));
    return pieces;
  },
  sayTime({ h, min, hSpan, mSpan }) {
    return [
      piece(`${number(String(h))} giờ`, ...hSpan),
      piece(min > 0 ? ` ${number(String(min))} phút` : '', ...mSpan),
    ];
  },
  currency: {
    $: { one: 'đô la', many: 'đô la', centOne: 'xu', centMany: 'xu' },
    '€': { one: 'ơ rô', many: 'ơ rô', centOne: 'xu', centMany: 'xu' },
    '£': { one: 'bảng Anh', many: 'bảng Anh', centOne: 'xu', centMany: 'xu' },
    '¥': { one: 'yên', many: 'yên', centOne: '', centMany: '' },
    '₩': { one: 'uôn', many: 'uôn', centOne: '', centMany: '' },
    '₫': { one: 'đồng', many: 'đồng', centOne: '', centMany: '' },
  },
  sayMoney({ whole, cents, words }) {
    const amount =
      cents && cents !== '00'
        ? { int: whole, frac: cents, negative: false }
        : { int: whole, negative: false };
    return `${viNumberWords(amount)} ${words.many}`;
  },
  rangeWord: ' đến ',
  andWord: ' và ',
  comparison: { lt: 'nhỏ hơn', gt: 'lớn hơn', le: 'nhỏ hơn hoặc bằng', ge: 'lớn hơn hoặc bằng' },
  writeOrdinal: (n) => `thứ ${viOrdinal(n)}`,
  letterName: viLetterName,
};
