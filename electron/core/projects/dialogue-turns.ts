/**
 * Who speaks the dash lines of a dialogue that name no speaker themselves, from the lines
 * around them, as Vietnamese novels write dialogue (Tắt đèn, Số đỏ, Lá ngọc cành vàng):
 *
 * 1. A narration paragraph ending in a colon names the speaker of the dash line right after it
 *    (`Chị Dậu nói:` then `— Ai đó?`; `Trương tuần nhăn mặt:` then `- …`). When the colon's
 *    narration names nobody we can tell (`Hắn quát:`, `Rồi ngài lại dồn chị Dậu:`), that line's
 *    speaker is unknown.
 * 2. In a run of dash lines with no narration between, a line that names nobody is the other
 *    person of a two-way exchange, but only when the two lines just before it have known,
 *    different speakers (A, B → A, then B…). With one known speaker, or an unknown one just
 *    before, the line stays unattributed: the narrator reads it, never a guessed character.
 * 3. Any other paragraph (narration not ending in a colon, quoted speech) ends the exchange, and
 *    so does a new chapter.
 *
 * A speaker is given to a whole line only when the line is all speech; a line with narration
 * between its dashes keeps what the text says of it.
 */

import { dialogueDashAt, findQuotes, type SegmentAttribution } from './dialogue-quotes';
import { colonSpeaker } from './speaker-names';

/** The segments' attributions with the speakers the dialogue's turns give. */
export function dialogueTurns(
  texts: readonly string[],
  attributions: readonly SegmentAttribution[],
  known: ReadonlySet<string>,
  chapterStarts: ReadonlySet<number> = new Set(),
): SegmentAttribution[] {
  let spoken: (string | null)[] = [];
  /** The speaker a colon named for the next line: undefined when no colon came just before. */
  let introduced: string | null | undefined;
  return attributions.map((found, index) => {
    const text = texts[index]!;
    const points = Array.from(text);
    const dashAt = dialogueDashAt(points);
    if (chapterStarts.has(index)) spoken = [];
    if (dashAt < 0) {
      const colon = /:\s*$/u.test(text) && found.speaker === null && found.quotes.length === 0;
      introduced = colon ? colonSpeaker(text, known) : undefined;
      if (!colon) spoken = [];
      return found;
    }
    const own = ownSpeaker(found);
    if (own !== undefined || dashAt > 0 || !allSpeech(text, points)) {
      // The line says who speaks (or says it only in part): that is all we go by.
      spoken.push(own ?? null);
      introduced = undefined;
      return found;
    }
    let speaker: string | null = null;
    if (introduced !== undefined) speaker = introduced;
    else {
      const [before, last] = spoken.slice(-2);
      if (spoken.length >= 2 && before && last && before !== last) speaker = before;
    }
    introduced = undefined;
    spoken.push(speaker);
    return speaker ? { speaker, quotes: [] } : found;
  });
}

/** The one speaker a segment's own text names, undefined when it names none. */
function ownSpeaker(found: SegmentAttribution): string | null | undefined {
  if (found.speaker) return found.speaker;
  const names = new Set(found.quotes.map((q) => q.name).filter((n) => n !== null));
  if (names.size === 1) return [...names][0]!;
  return names.size > 1 ? null : undefined;
}

/** Whether a dash line is speech from its dash to its end (no narration between dashes). */
function allSpeech(text: string, points: readonly string[]): boolean {
  const quotes = findQuotes(text);
  let end = points.length;
  while (end > 0 && /\s/u.test(points[end - 1]!)) end--;
  return quotes.length === 1 && quotes[0]!.end === end;
}
