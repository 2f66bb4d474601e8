/**
 * Vietnamese: what eSpeak NG's Vietnamese voice misreads (round numbers, "ngày 21/11"), and
 * the Vietnamese words the shared rules (`../rules`) use for dates, times, money and symbols.
 */

import {
  abbreviationRule,
  NUM_END,
  NUM_START,
  piece,
  stripZeros,
  validDate,
  type LanguageRules,
  type Rule,
} from '../rule-kit';

const VI_SCALES = ['', 'nghìn', 'triệu', 'tỷ', 'nghìn tỷ', 'triệu tỷ'];

/**
 * Vietnamese integer for eSpeak: eSpeak reads every all-zero group of three digits as
 * "không trăm" ("50.000" → "năm mươi nghìn không trăm"), so such numbers are spelled with
 * scale words ("50 nghìn", "2 triệu 500 nghìn"). Other numbers are returned as digits.
 */
export function vietnameseNumber(digits: string): string {
  const plain = digits.replace(/\D/g, '');
  if (plain.length < 4 || plain.length > 18 || plain.startsWith('0')) return plain;
  const groups: string[] = [];
  for (let end = plain.length; end > 0; end -= 3) groups.unshift(plain.slice(Math.max(0, end - 3), end));
  if (!groups.slice(1).some((g) => g === '000')) return plain;
  const words: string[] = [];
  groups.forEach((g, i) => {
    const value = Number(g);
    if (value === 0) return;
    const scale = VI_SCALES[groups.length - 1 - i] ?? '';
    let spoken = String(value);
    // Inside a number a group under 100 is read with its zero hundreds: "1.050.000" → "1 triệu không trăm 50 nghìn".
    if (i > 0 && value < 100) spoken = `không trăm ${value < 10 ? 'linh ' : ''}${value}`;
    words.push(scale ? `${spoken} ${scale}` : spoken);
  });
  return words.join(' ');
}

const vietnameseDayMonthRule: Rule = {
  name: 'date',
  // "ngày 21/11" → "ngày 21 tháng 11"; "tháng 11/2026" → "tháng 11 năm 2026".
  pattern: `(?<=(?:ngày|Ngày|tháng|Tháng)\\s+)(\\d{1,2})/(\\d{1,4})${NUM_END}`,
  rewrite([whole, a, b], ctx) {
    if (!whole || !a || !b) return undefined;
    const before = ctx.input.slice(Math.max(0, ctx.index - 8), ctx.index).toLowerCase();
    const bAt = a.length + 1;
    if (before.includes('ngày') && b.length <= 2 && validDate(Number(b), Number(a))) {
      return [
        piece(String(Number(a)), 0, a.length),
        piece(` tháng ${Number(b) === 4 ? 'tư' : Number(b)}`, bAt, whole.length),
      ];
    }
    if (before.includes('tháng') && b.length === 4 && Number(a) >= 1 && Number(a) <= 12) {
      return [
        piece(Number(a) === 4 ? 'tư' : String(Number(a)), 0, a.length),
        piece(` năm ${vietnameseNumber(b)}`, bAt, whole.length),
      ];
    }
    return undefined;
  },
};

const vietnameseNumberRule: Rule = {
  name: 'cardinal',
  pattern: `${NUM_START}([1-9]\\d{0,2}(?:\\.\\d{3})+|[1-9]\\d{3,17})${NUM_END}`,
  rewrite([whole]) {
    if (!whole) return undefined;
    const spoken = vietnameseNumber(whole);
    return spoken === whole.replace(/\D/g, '') ? undefined : spoken;
  },
};

export const vietnamese: LanguageRules = {
  abbreviations: abbreviationRule({
    'TP.HCM': { say: 'thành phố Hồ Chí Minh' },
    'TP. HCM': { say: 'thành phố Hồ Chí Minh' },
    'Tp.HCM': { say: 'thành phố Hồ Chí Minh' },
    TPHCM: { say: 'thành phố Hồ Chí Minh' },
    'TP.': { say: 'thành phố', title: true },
    'Tp.': { say: 'thành phố', title: true },
    'v.v.': { say: 'vân vân', canEnd: true },
    'ThS.': { say: 'thạc sĩ', title: true },
    'TS.': { say: 'tiến sĩ', title: true },
    'PGS.': { say: 'phó giáo sư', title: true },
    'GS.': { say: 'giáo sư', title: true },
    'BS.': { say: 'bác sĩ', title: true },
  }),
  rulesAfterDates: [vietnameseDayMonthRule],
  rulesAfterNumbers: [vietnameseNumberRule],
  numericDateOrder: () => 'day-first',
  sayDate(d, ctx) {
    const hasNgay = /ngày\s+$/iu.test(ctx.input.slice(Math.max(0, ctx.index - 8), ctx.index));
    // "tháng 4" is said "tháng tư".
    const month = d.month === 4 ? 'tư' : String(d.month);
    const pieces = [
      piece(`${hasNgay ? '' : 'ngày '}${d.day}`, ...d.dayAt),
      piece(` tháng ${month}`, ...d.monthAt),
    ];
    if (d.year) pieces.push(piece(` năm ${vietnameseNumber(d.year.text)}`, ...d.year.at));
    return pieces;
  },
  sayTime({ h, min, hSpan, mSpan }) {
    return [piece(`${h} giờ`, ...hSpan), ...(min > 0 ? [piece(` ${min} phút`, ...mSpan)] : [])];
  },
  currency: {
    $: { one: 'đô la', many: 'đô la', centOne: 'xu', centMany: 'xu' },
    '€': { one: 'euro', many: 'euro', centOne: 'xu', centMany: 'xu' },
    '£': { one: 'bảng Anh', many: 'bảng Anh', centOne: 'xu', centMany: 'xu' },
    '¥': { one: 'yên', many: 'yên', centOne: '', centMany: '' },
    '₩': { one: 'won', many: 'won', centOne: '', centMany: '' },
    '₫': { one: 'đồng', many: 'đồng', centOne: '', centMany: '' },
  },
  sayMoney({ whole, cents, words }) {
    const n = vietnameseNumber(whole);
    if (!cents || cents === '00') return `${n} ${stripZeros(whole) === '1' ? words.one : words.many}`;
    // Cents are read as a decimal: "5,50 đô la".
    return `${n},${cents} ${words.many}`;
  },
  rangeWord: ' đến ',
  andWord: ' và ',
  comparison: { lt: 'nhỏ hơn', gt: 'lớn hơn', le: 'nhỏ hơn hoặc bằng', ge: 'lớn hơn hoặc bằng' },
};
