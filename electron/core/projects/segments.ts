/**
 * A chapter's paragraphs as a project's segments: a paragraph is a segment (a line of dialogue
 * is its own paragraph, so its own segment), and a paragraph longer than `maxChars` is split at
 * sentence ends (Intl.Segmenter) into segments of at most about that size, a sentence longer than
 * that at a space. Each segment keeps the emphasis spans that fall in it, moved to its offsets.
 * Offsets are in code points, as ManuscriptParagraph's.
 */

import type { EmphasisSpan, ManuscriptParagraph } from '../../shared/manuscript';
import { hasSpeakableContent } from '../../shared/text';

/** Characters a segment may hold before its paragraph is split at sentence ends. */
const SEGMENT_MAX_CHARS = 1500;

export interface SegmentDraft {
  text: string;
  emphasis: EmphasisSpan[];
}

/**
 * The segments of a chapter's paragraphs, in order: those of its narrated paragraphs
 * (narratedParagraphs); empty paragraphs give none.
 */
export function chapterSegments(
  paragraphs: readonly ManuscriptParagraph[],
  language = 'en',
  maxChars = SEGMENT_MAX_CHARS,
): SegmentDraft[] {
  const sentences = sentenceSegmenter(language);
  return narratedParagraphs(paragraphs).flatMap((paragraph) =>
    paragraphSegments(paragraph, maxChars, sentences),
  );
}

/** A Project Gutenberg illustration marker's start: "[Illustration]", "[Illustration: caption…". */
const ILLUSTRATION_RE = /^\s*\[Illustration\b/i;

/** How many paragraphs an illustration's caption may run over while its bracket stays open. */
const CAPTION_PARAGRAPHS_MAX = 4;

/**
 * The paragraphs a narrator reads. Left out: those with nothing to say (a scene break, "* * *" or
 * "⁂": the engine refuses them; the paragraph gap stays) and Project Gutenberg's illustration
 * markers with their captions ("[Illustration]", "[Illustration: "Here's your trout," said he.
 * _Page 5._]"), which describe a picture the listener cannot see, up to the paragraph closing
 * the marker's bracket (at most CAPTION_PARAGRAPHS_MAX paragraphs).
 */
export function narratedParagraphs(paragraphs: readonly ManuscriptParagraph[]): ManuscriptParagraph[] {
  const narrated: ManuscriptParagraph[] = [];
  let open = 0;
  let caption = 0;
  for (const paragraph of paragraphs) {
    if (open === 0 && !ILLUSTRATION_RE.test(paragraph.text)) {
      if (hasSpeakableContent(paragraph.text)) narrated.push(paragraph);
      continue;
    }
    caption = open === 0 ? 1 : caption + 1;
    const brackets = Array.from(paragraph.text).reduce((n, c) => n + (c === '[' ? 1 : c === ']' ? -1 : 0), 0);
    open = caption >= CAPTION_PARAGRAPHS_MAX ? 0 : Math.max(0, open + brackets);
  }
  return narrated;
}

/** One paragraph's segments: itself, or its pieces at sentence ends when it is long. */
export function paragraphSegments(
  paragraph: ManuscriptParagraph,
  maxChars = SEGMENT_MAX_CHARS,
  sentences: Intl.Segmenter = sentenceSegmenter('en'),
): SegmentDraft[] {
  const points = Array.from(paragraph.text);
  if (points.length <= maxChars) return piece(points, paragraph.emphasis, 0, points.length);
  // Sentence ends as code-point offsets.
  const ends: number[] = [];
  let at = 0;
  for (const { segment } of sentences.segment(paragraph.text)) {
    at += Array.from(segment).length;
    ends.push(at);
  }
  const drafts: SegmentDraft[] = [];
  let start = 0;
  let last = 0; // the last sentence end not past start + maxChars
  for (const end of ends) {
    if (end - start <= maxChars) {
      last = end;
      continue;
    }
    if (last > start) {
      drafts.push(...piece(points, paragraph.emphasis, start, last));
      start = last;
    }
    // One sentence longer than the limit: cut it at spaces.
    while (end - start > maxChars) {
      const cut = spaceBefore(points, start, start + maxChars);
      drafts.push(...piece(points, paragraph.emphasis, start, cut));
      start = cut;
    }
    last = end;
  }
  if (start < points.length) drafts.push(...piece(points, paragraph.emphasis, start, points.length));
  return drafts;
}

/** A sentence segmenter for a language (`vi`, `en-US`), falling back to the root locale. */
function sentenceSegmenter(language: string): Intl.Segmenter {
  try {
    return new Intl.Segmenter(language, { granularity: 'sentence' });
  } catch {
    return new Intl.Segmenter('und', { granularity: 'sentence' });
  }
}

/** The last space in (from, to], else `to` (a word longer than a segment is cut). */
function spaceBefore(points: readonly string[], from: number, to: number): number {
  for (let i = to; i > from + 1; i--) if (/\s/u.test(points[i - 1]!)) return i;
  return to;
}

/** points[start, end) trimmed, with the emphasis inside it; nothing when only whitespace. */
function piece(
  points: readonly string[],
  emphasis: readonly EmphasisSpan[],
  start: number,
  end: number,
): SegmentDraft[] {
  while (start < end && /\s/u.test(points[start]!)) start++;
  while (end > start && /\s/u.test(points[end - 1]!)) end--;
  if (end <= start) return [];
  const spans: EmphasisSpan[] = [];
  for (const span of emphasis) {
    const from = Math.max(span.start, start);
    const to = Math.min(span.end, end);
    if (to > from) spans.push({ start: from - start, end: to - start, kind: span.kind });
  }
  return [{ text: points.slice(start, end).join(''), emphasis: spans }];
}
