/**
 * French: what eSpeak NG's French voice misreads, and the French words the shared rules
 * (`../rules`) use for dates, times, money and symbols.
 */

import {
  abbreviationRule,
  NUM_START,
  piece,
  stripZeros,
  WORD_END,
  type LanguageRules,
  type Rule,
} from '../rule-kit';

const FR_MONTHS = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
];

const frenchHourRule: Rule = {
  name: 'time',
  // 14h30, 14 h 30, 9h: eSpeak reads the "h" as the letter.
  pattern: `${NUM_START}([01]?\\d|2[0-4])[ \u00A0\u202F]?h(?:[ \u00A0\u202F]?([0-5]\\d))?${WORD_END}`,
  rewrite([whole, hText, mText]) {
    if (!whole || !hText) return undefined;
    const h = Number(hText);
    const hEnd = whole.indexOf('h', hText.length) + 1;
    const out = [piece(`${h} ${h <= 1 ? 'heure' : 'heures'}`, 0, hEnd)];
    if (mText && Number(mText) > 0) out.push(piece(` ${Number(mText)}`, hEnd, whole.length));
    return out;
  },
};

export const french: LanguageRules = {
  // eSpeak already reads "Mme" and "Dr" correctly, so they are not here.
  abbreviations: abbreviationRule({
    'M.': { say: 'Monsieur', title: true },
    'MM.': { say: 'Messieurs', title: true },
    'p. ex.': { say: 'par exemple' },
    'c.-à-d.': { say: "c'est-à-dire" },
  }),
  rulesAfterDates: [frenchHourRule],
  numericDateOrder: () => 'day-first',
  sayDate(d) {
    const pieces = [
      piece(d.day === 1 ? '1er' : String(d.day), ...d.dayAt),
      piece(` ${FR_MONTHS[d.month - 1]}`, ...d.monthAt),
    ];
    if (d.year) pieces.push(piece(` ${d.year.text}`, ...d.year.at));
    return pieces;
  },
  sayTime({ h, min, hSpan, mSpan }) {
    return [
      piece(`${h} ${h <= 1 ? 'heure' : 'heures'}`, ...hSpan),
      ...(min > 0 ? [piece(` ${min}`, ...mSpan)] : []),
    ];
  },
  currency: {
    $: { one: 'dollar', many: 'dollars', centOne: 'cent', centMany: 'cents' },
    '€': { one: 'euro', many: 'euros', centOne: 'centime', centMany: 'centimes' },
    '£': { one: 'livre', many: 'livres', centOne: 'penny', centMany: 'pence' },
    '¥': { one: 'yen', many: 'yens', centOne: '', centMany: '' },
    '₩': { one: 'won', many: 'wons', centOne: '', centMany: '' },
    '₫': { one: 'dong', many: 'dongs', centOne: '', centMany: '' },
  },
  sayMoney({ whole, cents, words }) {
    const n = stripZeros(whole);
    const main = `${n} ${n === '1' ? words.one : words.many}`;
    if (!cents || cents === '00') return main;
    if (!words.centMany) return `${n},${cents} ${words.many}`;
    // "5 euros 50": the cents without their name.
    return `${main} ${Number(cents)}`;
  },
  // eSpeak reads "3e" as "trois e", "3ème" as "troisième" (measured).
  writeOrdinal: (n, digits) => (n === 1 ? '1er' : `${digits}ème`),
  rangeWord: ' à ',
  andWord: ' et ',
  comparison: { lt: 'inférieur à', gt: 'supérieur à', le: 'inférieur ou égal à', ge: 'supérieur ou égal à' },
};
