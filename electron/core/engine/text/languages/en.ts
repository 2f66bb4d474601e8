/**
 * English: what eSpeak NG's English voices misread, and the English words the shared rules
 * (`../rules`) use for dates, times, money and symbols.
 */

import {
  abbreviationRule,
  piece,
  stripZeros,
  WORD_END,
  WORD_START,
  type LanguageRules,
  type Rule,
} from '../rule-kit';

const EN_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function englishOrdinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  const suffix = ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${n % 10 > 3 ? 'th' : suffix}`;
}

const MONTH_NAMES_RE = EN_MONTHS.join('|');

const englishMonthDayRule: Rule = {
  name: 'date',
  // "November 21" → "November 21st"; "21 November" → "21st November" (eSpeak says "twenty one").
  pattern: `${WORD_START}(?:(${MONTH_NAMES_RE})\\s+(\\d{1,2})|(\\d{1,2})\\s+(${MONTH_NAMES_RE}))(?![\\p{L}\\p{N}]|[.,:/-]\\p{N})`,
  rewrite([whole, m1, d1, d2, m2]) {
    if (!whole) return undefined;
    const dayText = d1 ?? d2;
    if (!dayText || !(m1 ?? m2)) return undefined;
    const day = Number(dayText);
    if (day < 1 || day > 31) return undefined;
    const at = d1 !== undefined ? whole.lastIndexOf(dayText) : 0;
    return [
      piece(whole.slice(0, at), 0, at),
      piece(englishOrdinal(day), at, at + dayText.length),
      piece(whole.slice(at + dayText.length), at + dayText.length, whole.length),
    ].filter((p) => p.text !== '');
  },
};

const DECADES = [
  '',
  'tens',
  'twenties',
  'thirties',
  'forties',
  'fifties',
  'sixties',
  'seventies',
  'eighties',
  'nineties',
];

const englishDecadeRule: Rule = {
  name: 'date',
  // "1990s" is read "nineteen hundred ninety z", "'90s" "ninety z".
  pattern: `(?<![\\p{L}\\p{N}'’])(?:(1\\d|20)|['’])(\\d)0s${WORD_END}`,
  rewrite([whole, century, decade]) {
    if (!whole || decade === undefined) return undefined;
    const d = Number(decade);
    if (century === undefined) return d >= 2 ? DECADES[d] : undefined;
    if (d === 0) return century === '20' ? 'two thousands' : `${century} hundreds`;
    return `${century} ${DECADES[d]}`;
  },
};

/** `'s` after a word: English possessive (or "is"), which eSpeak would spell out after `]]`. */
const POSSESSIVE = /^['\u2019]s(?![\p{L}\p{N}\p{M}])/u;

/** eSpeak phonemes of the English -s after `phonemes`: "Iz" after a sibilant, "s" after a voiceless sound, else "z". */
function possessiveSuffix(phonemes: string): string {
  const bare = phonemes.replace(/[',%=]+$/u, '');
  if (/(?:s|z|S|Z|tS|dZ)$/u.test(bare)) return 'Iz';
  return /(?:p|t|k|f|T)$/u.test(bare) ? 's' : 'z';
}

export const english: LanguageRules = {
  /*
   * Each entry was checked against eSpeak NG: it reads the left side wrongly (letters, the
   * wrong word, or a sentence break after a title). eSpeak already reads "e.g.", "etc.",
   * "a.m.", "p.m.", "U.S.", "Ltd.", "Dept.", "Mrs" and "St." after a street name correctly,
   * so they are not here.
   */
  abbreviations: abbreviationRule({
    // eSpeak knows these words but treats the full stop before a name as a sentence end.
    'Dr.': { say: 'Dr', title: true },
    'Mr.': { say: 'Mr', title: true },
    'Mrs.': { say: 'Mrs', title: true },
    // "Main St. Then" is a street: eSpeak reads that "street" itself.
    'St.': { say: 'Saint', title: true, notAfterName: true },
    'Ms.': { say: 'Miz', title: true },
    'Prof.': { say: 'Professor', title: true },
    'Gen.': { say: 'General', title: true },
    'Capt.': { say: 'Captain', title: true },
    'Lt.': { say: 'Lieutenant', title: true },
    'Sgt.': { say: 'Sergeant', title: true },
    'Rev.': { say: 'Reverend', title: true },
    'Mt.': { say: 'Mount', title: true },
    'No.': { say: 'number', beforeDigit: true },
    'Nos.': { say: 'numbers', beforeDigit: true },
    'Fig.': { say: 'figure', beforeDigit: true },
    'fig.': { say: 'figure', beforeDigit: true },
    'Vol.': { say: 'volume', beforeDigit: true },
    'vol.': { say: 'volume', beforeDigit: true },
    'Ch.': { say: 'chapter', beforeDigit: true },
    'ch.': { say: 'chapter', beforeDigit: true },
    'Jr.': { say: 'Junior', canEnd: true },
    'Sr.': { say: 'Senior', canEnd: true },
    'Inc.': { say: 'Incorporated', canEnd: true },
    'Ave.': { say: 'Avenue', canEnd: true },
    'Rd.': { say: 'Road', canEnd: true },
    'vs.': { say: 'versus' },
    vs: { say: 'versus' },
    'approx.': { say: 'approximately' },
    'i.e.': { say: 'that is' },
    'Ph.D.': { say: 'PhD' },
  }),
  rulesAfterDates: [englishMonthDayRule, englishDecadeRule],
  numericDateOrder(first, second, separator, ctx) {
    // 05/06/2026 is read month first unless the voice's order is day first; a number over 12
    // settles it either way. Dates with dots or dashes are day first.
    let monthFirst = separator === '/' && (ctx.options.dateOrder ?? 'mdy') === 'mdy';
    if (monthFirst && first > 12 && second <= 12) monthFirst = false;
    if (!monthFirst && second > 12 && first <= 12) monthFirst = true;
    return monthFirst ? 'month-first' : 'day-first';
  },
  sayDate(d) {
    const pieces = [
      piece(EN_MONTHS[d.month - 1] as string, ...d.monthAt),
      piece(` ${englishOrdinal(d.day)}`, ...d.dayAt),
    ];
    if (d.year) pieces.push(piece(`, ${d.year.text}`, ...d.year.at));
    return pieces;
  },
  sayTime({ h, min, hSpan, mSpan }, ctx) {
    // eSpeak reads 12:00 as "twelve zero zero" and 9:05 as "nine zero five".
    if (min === 0) {
      const ampm = /^\s*(?:[ap]\.?m\.?|[AP]\.?M\.?)(?![\p{L}])/u.test(ctx.input.slice(ctx.end, ctx.end + 6));
      if (ampm) return [piece(String(h), ...hSpan)];
      return [piece(String(h), ...hSpan), piece(h >= 1 && h <= 12 ? " o'clock" : ' hundred', ...mSpan)];
    }
    if (min < 10) return [piece(String(h), ...hSpan), piece(` oh ${min}`, ...mSpan)];
    return undefined;
  },
  currency: {
    $: { one: 'dollar', many: 'dollars', centOne: 'cent', centMany: 'cents' },
    '€': { one: 'euro', many: 'euros', centOne: 'cent', centMany: 'cents' },
    '£': { one: 'pound', many: 'pounds', centOne: 'penny', centMany: 'pence' },
    '¥': { one: 'yen', many: 'yen', centOne: '', centMany: '' },
    '₩': { one: 'won', many: 'won', centOne: '', centMany: '' },
    '₫': { one: 'dong', many: 'dong', centOne: '', centMany: '' },
  },
  sayMoney({ whole, cents, words }) {
    const n = stripZeros(whole);
    const main = `${n} ${n === '1' ? words.one : words.many}`;
    if (!cents || cents === '00') return main;
    if (!words.centMany) return `${n},${cents} ${words.many}`;
    const c = Number(cents);
    const centWords = `${c} ${c === 1 ? words.centOne : words.centMany}`;
    return whole === '0' ? centWords : `${main} and ${centWords}`;
  },
  sayScaledMoney(amount, scale, words) {
    const spokenScale = scale === 'k' ? 'thousand' : scale === 'bn' ? 'billion' : scale;
    return `${amount.replace(/,/g, '')} ${spokenScale} ${words.many}`;
  },
  writeOrdinal(n, digits) {
    const tens = n % 100;
    const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
    return `${digits}${suffix}`;
  },
  afterEntryPhonemes(phonemes, text, end) {
    const possessive = POSSESSIVE.exec(text.slice(end, end + 3));
    return possessive
      ? { end: end + possessive[0].length, phonemes: `${phonemes}${possessiveSuffix(phonemes)}` }
      : undefined;
  },
  // eSpeak reads a lone "A" as the article (measured): its name's phonemes instead.
  letterName: (c) => (c === 'a' || c === 'A' ? '[[eI]]' : undefined),
  rangeWord: ' to ',
  andWord: ' and ',
  comparison: {
    lt: 'less than',
    gt: 'greater than',
    le: 'less than or equal to',
    ge: 'greater than or equal to',
  },
};
