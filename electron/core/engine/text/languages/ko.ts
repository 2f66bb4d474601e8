/**
 * Korean: the Korean words the shared rules (`../rules`) use for dates, times, money,
 * percent and "&" (eSpeak NG's Korean voice says "percent" in English).
 */

import { piece, sayMoneyInDigits, type LanguageRules } from '../rule-kit';

const KO_HOURS = ['영', '한', '두', '세', '네', '다섯', '여섯', '일곱', '여덟', '아홉', '열', '열한', '열두'];

export const korean: LanguageRules = {
  // Numeric dates (21/11/2026) are left as written; year-first dates are read.
  numericDateOrder: () => undefined,
  sayDate(d) {
    const pieces = d.year ? [piece(`${d.year.text}년 `, ...d.year.at)] : [];
    // June and October drop a consonant: 유월, 시월.
    const month = d.month === 6 ? '유월' : d.month === 10 ? '시월' : `${d.month}월`;
    pieces.push(piece(`${month} `, ...d.monthAt), piece(`${d.day}일`, ...d.dayAt));
    return pieces;
  },
  sayTime({ h, min, hSpan, mSpan }) {
    return [
      piece(h >= 1 && h <= 12 ? `${KO_HOURS[h]} 시` : `${h}시`, ...hSpan),
      ...(min > 0 ? [piece(` ${min}분`, ...mSpan)] : []),
    ];
  },
  sayPercent(n, whole) {
    return [piece(n, 0, n.length), piece('퍼센트', n.length, whole.length)];
  },
  currency: {
    $: { one: '달러', many: '달러', centOne: '', centMany: '' },
    '€': { one: '유로', many: '유로', centOne: '', centMany: '' },
    '£': { one: '파운드', many: '파운드', centOne: '', centMany: '' },
    '¥': { one: '엔', many: '엔', centOne: '', centMany: '' },
    '₩': { one: '원', many: '원', centOne: '', centMany: '' },
    '₫': { one: '동', many: '동', centOne: '', centMany: '' },
  },
  sayMoney: sayMoneyInDigits,
  andWord: ' 앤드 ',
};
