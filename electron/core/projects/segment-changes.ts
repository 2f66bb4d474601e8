/**
 * How an edit changes segment rows: a character's speech moved to another, a suggestion taken,
 * spans kept on the words they covered when the text changes, quote voices checked.
 */

import { AppError } from '../../shared/errors';
import type { QuoteVoice, SegmentState } from '../../shared/projects';
import { countCharacters } from '../../shared/text';
import type { CharacterRow, SegmentRow } from '../store';
import { jsonOrNull, parseJson } from './project-rows';

/** The state of a segment whose words changed: `changed` when it has audio, else `not_rendered`. */
/** Whether a segment is a character's: spoken, suggested, or a quote in its voice. */
export function speaksAs(s: SegmentRow, characterId: string): boolean {
  return (
    s.speaker === characterId ||
    s.suggested_speaker === characterId ||
    parseJson<QuoteVoice[]>(s.quotes, []).some((q) => q.character_id === characterId)
  );
}

/**
 * A segment with a character's speech given to another (null: back to the narrator, its quote
 * voices dropped): its quotes that `quote` picks, and (when `whole`) the segment's speaker and
 * suggested speaker; marked changed when its voices change.
 */
export function moveSpeech(
  s: SegmentRow,
  from: string,
  to: string | null,
  quote: (q: QuoteVoice) => boolean,
  whole = true,
): SegmentRow {
  const quotes = parseJson<QuoteVoice[]>(s.quotes, []).flatMap((q) =>
    q.character_id !== from || !quote(q) ? [q] : to === null ? [] : [{ ...q, character_id: to }],
  );
  const row: SegmentRow = {
    ...s,
    speaker: whole && s.speaker === from ? to : s.speaker,
    suggested_speaker: whole && s.suggested_speaker === from ? to : s.suggested_speaker,
    quotes: jsonOrNull(quotes),
  };
  return row.speaker !== s.speaker || row.quotes !== s.quotes ? { ...row, ...edited(row) } : row;
}

export function edited(row: SegmentRow): Pick<SegmentRow, 'state' | 'error'> {
  return { state: (row.audio_key ? 'changed' : 'not_rendered') satisfies SegmentState, error: null };
}

export function applySuggestion(s: SegmentRow): SegmentRow {
  if (!s.suggested_speaker) return s;
  const row = { ...s, speaker: s.suggested_speaker, suggested_speaker: null };
  return row.speaker !== s.speaker ? { ...row, ...edited(row) } : row;
}

/**
 * Where offsets of the old text land in the new one: the common start stays, the common end
 * moves by the change in length, offsets inside the changed part go to its end (null: dropped
 * when a span lies wholly inside the changed part).
 */
export function offsetMap(before: string, after: string): (offset: number, isEnd: boolean) => number {
  const a = Array.from(before);
  const b = Array.from(after);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) {
    suffix++;
  }
  return (offset, isEnd) => {
    if (offset < prefix || (isEnd && offset === prefix)) return offset;
    if (offset >= a.length - suffix) return offset - a.length + b.length;
    return isEnd ? b.length - suffix : prefix;
  };
}

export function remapSpans<T extends { start: number; end: number }>(
  spans: readonly T[],
  shift: (o: number, end: boolean) => number,
): T[] {
  return spans
    .map((s) => ({ ...s, start: shift(s.start, false), end: shift(s.end, true) }))
    .filter((s) => s.end > s.start);
}

export function checkQuotes(
  quotes: readonly QuoteVoice[],
  text: string,
  characters: readonly CharacterRow[],
): QuoteVoice[] {
  const length = countCharacters(text);
  const sorted = [...quotes].sort((x, y) => x.start - y.start);
  let last = 0;
  for (const q of sorted) {
    if (q.start < last || q.end <= q.start || q.end > length) {
      throw new AppError(
        'INVALID_FIELD',
        `quotes must be ranges within the segment's ${length} characters, not overlapping (start < end).`,
        { field: 'quotes' },
      );
    }
    if (!characters.some((c) => c.id === q.character_id)) {
      throw new AppError('INVALID_FIELD', `quotes: "${q.character_id}" is not a character of this project.`, {
        field: 'quotes',
      });
    }
    last = q.end;
  }
  return sorted.map((q) => ({ start: q.start, end: q.end, character_id: q.character_id }));
}
