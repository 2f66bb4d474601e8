/**
 * Pieces of SSML `<say-as>` readings that every language builds on: a telephone number's digit
 * groups, and digits read one by one, each in a language's words. The readings themselves are
 * `render/ssml-segments.ts` (the shared ones) and `LanguageRules.sayAs` (a language's own,
 * `./languages/<code>-say-as.ts`).
 */

/** How a language reads a telephone number or a row of digits. */
export interface DigitWords {
  /** A digit's word ("0" → "oh", "không"); without it the digit stays for eSpeak to read. */
  digit?(d: string): string;
  /** What "+" before a country code is read as ("plus", "cộng"). */
  plus: string;
}

/** The digits of `written` one by one, in the language's words (other characters dropped). */
export function digitsOneByOne(written: string, words: Pick<DigitWords, 'digit'>): string {
  return [...written.replace(/\D+/gu, '')].map((d) => words.digit?.(d) ?? d).join(' ');
}

/**
 * A telephone number as it is read: its groups of digits as written ("0912 345 678",
 * "093-655-5449", "+84 …") one digit at a time, a pause (comma) between groups, "+" in words.
 */
export function telephoneGroups(written: string, words: DigitWords): string {
  return written
    .split(/[^\d+]+/u)
    .filter((group) => group !== '')
    .map((group) =>
      [...group]
        .filter((c) => c === '+' || /\d/u.test(c))
        .map((c) => (c === '+' ? words.plus : (words.digit?.(c) ?? c)))
        .join(' '),
    )
    .filter((group) => group !== '')
    .join(', ');
}
