/**
 * Quotes in a segment's text: quote marks (“…”, "…", «…», „…“) and dialogue dashes (`— …`,
 * `– …`, `- …`, at the start or after a colon), as code-point offsets. Who speaks them is
 * attribution.ts's and dialogue-turns.ts's.
 */

/** A quote in a segment: code-point offsets (quote marks included), end exclusive. */
export interface FoundQuote {
  start: number;
  end: number;
  /** The attributed speaker's name, or null when the text does not say. */
  name: string | null;
}

export interface SegmentAttribution {
  /** The whole segment is the speech of this name (quotes and their attribution only). */
  speaker: string | null;
  /** Quotes whose speaker the text names, when the segment is not all speech. */
  quotes: FoundQuote[];
}

const PAIRS: Readonly<Record<string, string>> = { '“': '”', '"': '"', '«': '»', '„': '“' };
/** Em dash, en dash, hyphen, and the minus sign (U+2212) some editions print for the dash. */
const DASHES = new Set(['—', '–', '-', '−']);

/**
 * Where a dialogue dash opens speech: at the text's start (`— Ai đó?`, `- Em về.`) or after a
 * colon (`Chị Dậu nói: — Ai đó?`); a hyphen only when a space follows it, or a capital at the
 * text's start. -1 when none does.
 */
export function dialogueDashAt(points: readonly string[]): number {
  const isDash = (i: number) =>
    DASHES.has(points[i] ?? '') && (points[i] !== '-' || /\s/u.test(points[i + 1] ?? ''));
  const first = points.findIndex((p) => !/\s/u.test(p));
  if (first >= 0 && isDash(first)) return first;
  // A line opened by a hyphen set tight against a capital (`-Moa đi tìm toa…`, as pages print it).
  if (first >= 0 && points[first] === '-' && /\p{Lu}/u.test(points[first + 1] ?? '')) return first;
  const colon = points.indexOf(':');
  if (colon < 0) return -1;
  let after = colon + 1;
  while (after < points.length && /\s/u.test(points[after]!)) after++;
  return after > colon + 1 && isDash(after) ? after : -1;
}

/** The quotes of a text, as code-point offsets, without names yet. */
export function findQuotes(text: string): { start: number; end: number }[] {
  const points = Array.from(text);
  const quotes: { start: number; end: number }[] = [];
  // A line opened by a dialogue dash: speech up to the next spaced dash, then narration,
  // then speech again after the following dash.
  const first = dialogueDashAt(points);
  if (first >= 0) {
    let speech = true;
    let start = first;
    for (let i = first + 1; i <= points.length; i++) {
      const spacedDash =
        i < points.length &&
        DASHES.has(points[i]!) &&
        /\s/u.test(points[i - 1] ?? ' ') &&
        /\s/u.test(points[i + 1] ?? ' ');
      if (i === points.length || spacedDash) {
        if (speech) {
          let end = i;
          while (end > start && /\s/u.test(points[end - 1]!)) end--;
          if (end > start + 1) quotes.push({ start, end });
        }
        speech = !speech;
        start = i;
      }
    }
    return quotes;
  }
  for (let i = 0; i < points.length; i++) {
    const close = PAIRS[points[i]!];
    if (!close) continue;
    const end = points.indexOf(close, i + 1);
    if (end < 0) break;
    quotes.push({ start: i, end: end + 1 });
    i = end;
  }
  return quotes;
}
