/**
 * A chapter's heading as a narrator reads it aloud at the start of the chapter (ACX asks every
 * section's heading to be spoken): the chapter word and its number in words in the book's language
 * ("CHƯƠNG 1" → "Chương một", "Chapter XII" → "Chapter Twelve", a bare "I" → "Chapter One"), a
 * subtitle after the number kept ("Chương 3: Về nhà" → "Chương ba. Về nhà"); any other title is
 * read as it is. Numbers are read by the languages' number words (./languages/*-numbers), Roman
 * numerals by ./roman-numerals. Vietnamese books take the Vietnamese rules, every other book the
 * English ones.
 */

import { cardinalWords } from './languages/en-numbers';
import { viCardinal } from './languages/vi-numbers';
import { ROMAN_NUMERAL, romanValue } from './roman-numerals';

/** The chapter words each language's rules know, lower case, with how they are read. */
const CHAPTER_WORDS: Record<'vi' | 'en', Record<string, string>> = {
  vi: { chương: 'Chương', phần: 'Phần', hồi: 'Hồi', quyển: 'Quyển', tập: 'Tập', chapter: 'Chương' },
  en: { chapter: 'Chapter', part: 'Part', book: 'Book', volume: 'Volume', section: 'Section' },
};

/** "CHƯƠNG 12: Subtitle", "Chapter XII.", "12", "I." — a chapter word (optional), a number, an optional rest. */
const NUMBERED = new RegExp(
  `^(?:(\\p{L}+)\\s+)?(\\d{1,4}|${ROMAN_NUMERAL}|[ivxlcdm]{1,7})(?=$|[\\s.:;,–—-])\\s*([.:;,–—-]?)\\s*(.*)$`,
  'u',
);

/** The book's language as the heading rules know it: `vi`, else English. */
function rulesOf(language: string): 'vi' | 'en' {
  return language.toLowerCase().split(/[-_]/)[0] === 'vi' ? 'vi' : 'en';
}

/** Each word with a capital first letter ("twenty one" → "Twenty One"). */
function capitalised(words: string): string {
  return words.replace(/(^|\s)(\p{L})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
}

/** The value of a chapter number as written: digits or a Roman numeral (any case); undefined if neither. */
function numberOf(written: string): number | undefined {
  if (/^\d+$/.test(written)) return Number(written);
  return romanValue(written.toUpperCase());
}

/**
 * The spoken heading of a chapter titled `title` in a book in `language` (see the module comment).
 * A lone word that only looks like a Roman numeral ("I" in an English book is one, "Mix" is not:
 * only a title that is nothing but the numeral, or a chapter word and the numeral, counts).
 */
export function spokenHeadingOf(title: string, language: string): string {
  const text = title.replace(/\s+/gu, ' ').trim();
  const rules = rulesOf(language);
  const match = NUMBERED.exec(text);
  if (!match) return text;
  const [, word, written, separator, rest] = match as unknown as [
    string,
    string | undefined,
    string,
    string,
    string,
  ];
  // Without a chapter word, a number starts a heading only alone or before punctuation ("I. The
  // Ball"), not a sentence ("I Remember", "12 Angry Men").
  if (word === undefined && separator === '' && rest !== '') return text;
  const chapterWord = word === undefined ? undefined : CHAPTER_WORDS[rules][word.toLowerCase()];
  if (word !== undefined && chapterWord === undefined) return text;
  // A lower-case Roman numeral counts only after a chapter word ("chapter ii"), never alone.
  if (word === undefined && !/^\d+$/.test(written) && written !== written.toUpperCase()) return text;
  const value = numberOf(written);
  if (value === undefined || value === 0) return text;
  const spokenWord = chapterWord ?? (rules === 'vi' ? 'Chương' : 'Chapter');
  const number = rules === 'vi' ? viCardinal(String(value)) : capitalised(cardinalWords(String(value)));
  const subtitle = rest.trim();
  return subtitle ? `${spokenWord} ${number}. ${subtitle}` : `${spokenWord} ${number}`;
}
