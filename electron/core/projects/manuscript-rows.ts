/** The rows a manuscript makes in a project: chapters, segments, a suggested cast; and their size. */

import type { EmphasisSpan, Manuscript } from '../../shared/manuscript';
import { PROJECT_LIMITS } from '../../shared/projects';
import { cleanText, countCharacters } from '../../shared/text';
import type { ChapterRow, CharacterRow, SegmentRow } from '../store';
import { chooseVoices, suggestCast } from './attribution';
import { jsonOrNull, newId } from './project-rows';
import { voicedCharacter } from './project-voices';
import { chapterSegments } from './segments';

/** The rows a manuscript's chapters make (appended after `firstPosition`), its cast suggested. */
export function manuscriptRows(
  projectId: string,
  manuscript: Manuscript,
  language: string,
  firstPosition: number,
  existing: readonly CharacterRow[],
): { chapters: ChapterRow[]; segments: SegmentRow[]; characters: CharacterRow[] } {
  const chapters: ChapterRow[] = [];
  const segments: SegmentRow[] = [];
  for (const [index, chapter] of manuscript.chapters.entries()) {
    const id = newId();
    chapters.push({
      id,
      project_id: projectId,
      position: firstPosition + index,
      title: cleanText(chapter.title).trim() || `Chapter ${firstPosition + index + 1}`,
      kind: chapter.kind,
      included: chapter.kind === 'body' ? 1 : 0,
      exported_text: null,
    });
    chapterSegments(chapter.paragraphs, language).forEach((draft, position) => {
      segments.push(newSegment(projectId, id, position, draft.text, draft.emphasis));
    });
  }
  const cast = suggestCast(
    segments.map((s) => s.text),
    new Set(segments.flatMap((s, i) => (s.position === 0 ? [i] : []))),
    language,
  );
  const byName = new Map(existing.filter((c) => !c.narrator).map((c) => [c.name, c]));
  const narrator = existing.find((c) => c.narrator === 1)!;
  // The cast stays within its limit: the characters heard in the most segments are suggested.
  const room = Math.max(0, PROJECT_LIMITS.cast - existing.length);
  const newOnes = cast.characters
    .filter((c) => !byName.has(c.name))
    .map((c, order) => ({ c, order }))
    .sort((a, b) => b.c.segments.length - a.c.segments.length || a.order - b.order)
    .slice(0, room)
    .sort((a, b) => a.order - b.order)
    .map(({ c }) => c);
  const voices = chooseVoices(
    newOnes,
    language,
    narrator.voice_code,
    existing.map((c) => c.voice_code),
  );
  const characters = newOnes.map((c) =>
    voicedCharacter(projectId, newId(), c.name, voices.get(c.name)!, narrator, 0),
  );
  for (const c of characters) byName.set(c.name, c);
  cast.segments.forEach((found, index) => {
    const segment = segments[index]!;
    const speaker = found.speaker ? byName.get(found.speaker) : undefined;
    if (speaker) segment.suggested_speaker = speaker.id;
    const quotes = found.quotes.flatMap((q) => {
      const character = byName.get(q.name!);
      return character ? [{ start: q.start, end: q.end, character_id: character.id }] : [];
    });
    if (quotes.length > 0) segment.quotes = JSON.stringify(quotes);
  });
  return { chapters, segments, characters };
}

/** A segment's row as an import writes it: not rendered, no speaker or quotes. */
export function newSegment(
  projectId: string,
  chapterId: string,
  position: number,
  text: string,
  emphasis: EmphasisSpan[],
): SegmentRow {
  return {
    id: newId(),
    project_id: projectId,
    chapter_id: chapterId,
    position,
    text,
    emphasis: jsonOrNull(emphasis),
    speaker: null,
    quotes: null,
    suggested_speaker: null,
    state: 'not_rendered',
    audio_key: null,
    duration_ms: null,
    error: null,
    flag_note: null,
    checks: null,
    rendered_at: null,
  };
}

/** What a manuscript adds to a project at least: a segment per paragraph. */
export function manuscriptSize(manuscript: Manuscript) {
  let segments = 0;
  let characters = 0;
  for (const chapter of manuscript.chapters) {
    segments += chapter.paragraphs.length;
    for (const p of chapter.paragraphs) characters += countCharacters(p.text);
  }
  return { chapters: manuscript.chapters.length, segments, characters };
}

/** What a manuscript's rows add to a project. */
export function rowsSize(rows: { chapters: readonly ChapterRow[]; segments: readonly SegmentRow[] }) {
  return {
    chapters: rows.chapters.length,
    segments: rows.segments.length,
    characters: rows.segments.reduce((n, s) => n + countCharacters(s.text), 0),
  };
}
