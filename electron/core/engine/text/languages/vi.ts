/**
 * Vietnamese: numbers, dates, times, money, units, phone numbers, abbreviations and acronyms
 * written out in Vietnamese words (`./vi-reading`, with the data of `./vi-numbers`,
 * `./vi-units`, `./vi-abbreviations` and `./vi-letters`), so every voice says them as a
 * Vietnamese reader does: eSpeak NG's own Vietnamese number reading is wrong ("15" → "mười
 * năm", "50.000" → "năm mươi nghìn không trăm"). SSML's say-as reads with the same words
 * (`./vi-say-as`).
 */

import type { LanguageRules } from '../rule-kit';
import { vietnameseAbbreviationRule } from './vi-abbreviations';
import { acronymDefinitions } from './vi-acronym-definitions';
import { VIETNAMESE_READING_RULES } from './vi-reading';
import { vietnameseSayAs } from './vi-say-as';

export const vietnamese: LanguageRules = {
  abbreviations: vietnameseAbbreviationRule,
  readingRules: VIETNAMESE_READING_RULES,
  sayAs: vietnameseSayAs,
  andWord: ' và ',
  definedAcronyms: acronymDefinitions,
  comparison: { lt: 'nhỏ hơn', gt: 'lớn hơn', le: 'nhỏ hơn hoặc bằng', ge: 'lớn hơn hoặc bằng' },
};
