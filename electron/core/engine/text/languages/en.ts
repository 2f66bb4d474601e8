/**
 * English: what eSpeak NG's English voices misread, and the English words the shared rules
 * (`../rules`) use for dates, times, money and symbols.
 */

import { piece, type LanguageRules, type OutPiece, type Rule } from '../rule-kit';
import { englishAbbreviationRule } from './en-abbreviations';
import { englishCardinal } from './en-say-as';
import { ordinalSuffix, ordinalWords, withBritishAnd, yearWords } from './en-numbers';
import { clockWords, EN_MONTHS, ENGLISH_READING_RULES, monthComesFirst, moneyWords } from './en-reading';

/** A reading rule whose numbers take "and" after hundred when the options ask for British style. */
function withStyle(rule: Rule): Rule {
  return {
    ...rule,
    rewrite(groups, ctx) {
      const out = rule.rewrite(groups, ctx);
      if (!ctx.options.andAfterHundred || out === undefined) return out;
      const british = (text: string | OutPiece[]) =>
        typeof text === 'string'
          ? withBritishAnd(text)
          : text.map((p) => ({ ...p, text: withBritishAnd(p.text) }));
      return typeof out === 'string' || Array.isArray(out) ? british(out) : { ...out, out: british(out.out) };
    },
  };
}

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
  // British style ("one hundred and twenty") when the voice asks for it (`andAfterHundred`).
  readingRules: ENGLISH_READING_RULES.map(withStyle),
  // The hooks below serve only the shared rules, which English replaces with its reading rules;
  // they read the same way.
  numericDateOrder: (first, second, separator, ctx) =>
    monthComesFirst(first, second, separator, ctx) ? 'month-first' : 'day-first',
  sayDate(d) {
    const pieces = [
      piece(EN_MONTHS[d.month - 1] as string, ...d.monthAt),
      piece(` ${ordinalWords(String(d.day))}`, ...d.dayAt),
    ];
    if (d.year) pieces.push(piece(`, ${yearWords(d.year.text)}`, ...d.year.at));
    return pieces;
  },
  sayTime({ h, min, hSpan, mSpan }) {
    const clock = clockWords(String(h), String(min).padStart(2, '0'), false);
    const at = clock.indexOf(' ');
    return [piece(clock.slice(0, at), ...hSpan), piece(clock.slice(at), ...mSpan)];
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
    const cent: [string, string] | undefined = words.centMany ? [words.centOne, words.centMany] : undefined;
    return moneyWords(cents ? `${whole}.${cents}` : whole, { one: words.one, many: words.many, cent });
  },
  sayScaledMoney(amount, scale, words) {
    return moneyWords(amount, { one: words.one, many: words.many }, scale);
  },
  sayCardinal: englishCardinal,
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
