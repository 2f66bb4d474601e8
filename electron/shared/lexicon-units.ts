/**
 * A lexicon unit entry's words ("knot|knots", or one form for both): read by the lexicon's checks
 * (`./lexicon`) and by the engine, which hands a text's units to its measure rules. Kept apart
 * from `./lexicon` (its TypeBox schemas) so the engine's light paths (`say`, readings) load no
 * schema library.
 */

/** Holds a letter or digit: something to say. */
export const WORDY = /[\p{L}\p{N}]/u;

/** A unit's replacement, "one|many" (or one form for both), as its two forms; undefined when it is not one. */
export function unitForms(replacement: string): { one: string; many: string } | undefined {
  const parts = replacement.split('|').map((p) => p.trim());
  if (parts.length > 2 || parts.some((p) => !WORDY.test(p))) return undefined;
  const [one, many = one] = parts as [string, string?];
  return { one, many };
}
