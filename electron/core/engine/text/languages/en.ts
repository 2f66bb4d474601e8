/**
 * English: what eSpeak NG's English voices misread, and the English words the shared rules
 * (`../rules`) use for dates, times, money and symbols.
 */

import { piece, type LanguageRules } from '../rule-kit';
import { englishAbbreviationRule } from './en-abbreviations';
import { cardinalWords, ordinalSuffix, ordinalWords, yearWords } from './en-numbers';
import { EN_MONTHS, ENGLISH_READING_RULES, numberWords } from './en-reading';

/** `'s` after a word: English possessive (or "is"), which eSpeak would spell out after `]]`. */
const POSSESSIVE = /^['\u2019]s(?![\p{L}\p{N}\p{M}])/u;

/** eSpeak phonemes of the English -s after `phonemes`: "Iz" after a sibilant, "s" after a voiceless sound, else "z". */
function possessiveSuffix(phonemes: string): string {
  const bare = phonemes.replace(/[',%=]+$/u, '');
  if (/(?:s|z|S|Z|tS|dZ)$/u.test(bare)) return 'Iz';
  return /(?:p|t|k|f|T)$/u.test(bare) ? 's' : 'z';
}

export const english: LanguageRules = {
  // The dictionary is data (`./en-abbreviations`); "St." and "Dr." after a name are the street.
  abbreviations: englishAbbreviationRule,
  // Numbers and what surrounds them, in words (`./en-reading`): these replace the shared rules.
  readingRules: ENGLISH_READING_RULES,
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
      piece(` ${ordinalWords(String(d.day))}`, ...d.dayAt),
    ];
    if (d.year) pieces.push(piece(`, ${yearWords(d.year.text)}`, ...d.year.at));
    return pieces;
  },
  sayTime({ h, min, hSpan, mSpan }) {
    const hour = cardinalWords(String(h));
    if (min === 0)
      return [piece(hour, ...hSpan), piece(h >= 1 && h <= 12 ? " o'clock" : ' hundred', ...mSpan)];
    return [piece(hour, ...hSpan), piece(` ${min < 10 ? 'oh ' : ''}${cardinalWords(String(min))}`, ...mSpan)];
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
    const main = `${cardinalWords(whole)} ${/^0*1$/.test(whole) ? words.one : words.many}`;
    if (!cents || cents === '00') return main;
    if (!words.centMany) return `${numberWords(`${whole}.${cents}`)} ${words.many}`;
    const centWords = `${cardinalWords(cents)} ${Number(cents) === 1 ? words.centOne : words.centMany}`;
    return /^0+$/.test(whole) ? centWords : `${main} ${centWords}`;
  },
  sayScaledMoney(amount, scale, words) {
    const spokenScale = scale === 'k' ? 'thousand' : scale === 'bn' ? 'billion' : scale;
    return `${numberWords(amount)} ${spokenScale} ${words.many}`;
  },
  writeOrdinal(_n, digits) {
    return `${digits}${ordinalSuffix(digits)}`;
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
