/**
 * English: numbers and what surrounds them (dates, times, money, units…) in English words by
 * rules of its own (`./en-reading`), the abbreviations eSpeak NG's English voices misread, and
 * SSML's say-as (`./en-say-as`).
 */

import type { LanguageRules, OutPiece, Rule } from '../rule-kit';
import { englishAbbreviationRule } from './en-abbreviations';
import { englishSayAs } from './en-say-as';
import { ordinalSuffix, withBritishAnd } from './en-numbers';
import { ENGLISH_READING_RULES } from './en-reading';

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
  sayAs: englishSayAs,
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
  andWord: ' and ',
  comparison: {
    lt: 'less than',
    gt: 'greater than',
    le: 'less than or equal to',
    ge: 'greater than or equal to',
  },
};
