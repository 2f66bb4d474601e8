/**
 * Readings a render must use over given ranges of its text (SSML's `<sub>`, `<phoneme>` and
 * `<say-as>`), laid over the pronunciation lexicon: they reach the text rules through the same
 * matcher the lexicon does, so the engine reads them and word timings and subtitles keep the
 * written words. Where a reading and a lexicon entry overlap, the reading wins.
 */

import type { CompiledLexicon, LexiconMatch } from './rule-kit';

/**
 * The matcher for the piece `[start, end)` of a text whose forced readings are `readings`
 * (offsets in the whole text, in order, not overlapping): `find` is given the piece's text and
 * answers in its offsets. A reading cut by the piece's edge is read in the piece where it starts;
 * its rest, in the next piece, is not read again. Undefined when there is nothing to match.
 */
export function lexiconWithReadings(
  lexicon: CompiledLexicon | undefined,
  readings: readonly LexiconMatch[] | undefined,
  start: number,
  end: number,
): CompiledLexicon | undefined {
  const own = (readings ?? [])
    .filter((r) => r.start < end && r.end > start)
    .map((r) => ({
      start: Math.max(r.start, start) - start,
      end: Math.min(r.end, end) - start,
      spoken: r.start >= start ? r.spoken : ' ',
    }));
  if (own.length === 0) return lexicon;
  return {
    size: (lexicon?.size ?? 0) + own.length,
    find(text) {
      const free = (lexicon?.find(text) ?? []).filter((m) =>
        own.every((r) => m.end <= r.start || m.start >= r.end),
      );
      return [...own, ...free].sort((a, b) => a.start - b.start);
    },
  };
}
