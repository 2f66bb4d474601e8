/**
 * Roman numerals as written in running text ("thế kỷ XXI", "Chapter IV", "Louis XIV"), for the
 * languages' reading rules. Only the standard subtractive forms are numerals: "IIII", "VX" and
 * "IC" are not read as numbers, so a word in capitals is not mistaken for one.
 */

const VALUES: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };

/** A regex source (no groups) that matches a standard Roman numeral from 1 to 3999, in capitals. */
export const ROMAN_NUMERAL = 'M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})';

const STANDARD = new RegExp(`^${ROMAN_NUMERAL}$`, 'u');

/** The value of a standard Roman numeral in capitals (1–3999), or undefined when `text` is not one. */
export function romanValue(text: string): number | undefined {
  if (text === '' || !STANDARD.test(text)) return undefined;
  let total = 0;
  for (let i = 0; i < text.length; i++) {
    const value = VALUES[text[i] as string] as number;
    const next = VALUES[text[i + 1] ?? ''] ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}
