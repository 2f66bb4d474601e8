/**
 * Chinese: the Chinese words the shared rules (`../rules`) use for dates, times, money,
 * percent and symbols (eSpeak NG's Chinese voice says "percent" in English).
 */

import { piece, sayMoneyInDigits, type LanguageRules } from '../rule-kit';

const ZH_DIGITS = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

function zhYear(year: string): string {
  return [...year].map((d) => ZH_DIGITS[Number(d)] ?? d).join('');
}

export const chinese: LanguageRules = {
  // Numeric dates (21/11/2026) are left as written; year-first dates are read.
  numericDateOrder: () => undefined,
  sayDate(d) {
    const pieces = d.year ? [piece(`${zhYear(d.year.text)}年`, ...d.year.at)] : [];
    pieces.push(piece(`${d.month}月`, ...d.monthAt), piece(`${d.day}日`, ...d.dayAt));
    return pieces;
  },
  sayTime({ h, min, hSpan, mSpan }) {
    return [
      piece(h === 2 ? '两点' : `${h}点`, ...hSpan),
      ...(min > 0 ? [piece(`${min < 10 ? '零' : ''}${min}分`, ...mSpan)] : []),
    ];
  },
  sayPercent(n, whole) {
    return [piece('百分之', n.length, whole.length), piece(n, 0, n.length)];
  },
  currency: {
    $: { one: '美元', many: '美元', centOne: '', centMany: '' },
    '€': { one: '欧元', many: '欧元', centOne: '', centMany: '' },
    '£': { one: '英镑', many: '英镑', centOne: '', centMany: '' },
    '¥': { one: '元', many: '元', centOne: '', centMany: '' },
    '₩': { one: '韩元', many: '韩元', centOne: '', centMany: '' },
    '₫': { one: '越南盾', many: '越南盾', centOne: '', centMany: '' },
  },
  sayMoney: sayMoneyInDigits,
  rangeWord: '至',
  andWord: '和',
  comparison: { lt: '小于', gt: '大于', le: '小于等于', ge: '大于等于' },
};
