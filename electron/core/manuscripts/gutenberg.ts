/**
 * Project Gutenberg's own text around a book (plain text and HTML from gutenberg.org): the header
 * up to "*** START OF THE PROJECT GUTENBERG EBOOK … ***" (older files: "THIS PROJECT"), with the
 * "Produced by …" credit just after it, and the licence from "*** END OF THE PROJECT GUTENBERG
 * EBOOK … ***" (or the "End of the Project Gutenberg EBook of …" line before it) to the end. The
 * readers make them front and back matter chapters (left out of narration until the writer
 * includes them), named in the book's language (titles.ts), and take the book's title, author
 * and language from the header's "Title:", "Author:" and "Language:" lines.
 */

const START_RE = /^\s*\*{3}\s*START OF (?:THE|THIS) PROJECT GUTENBERG E-?BOOK\b/i;
const END_RE = /^\s*\*{3}\s*END OF (?:THE|THIS) PROJECT GUTENBERG E-?BOOK\b/i;
/** The line older files put just before the END marker. */
const END_LINE_RE = /^\s*End of (?:the )?Project Gutenberg\b/i;
/** Volunteers' credits standing right after the START marker. */
const CREDIT_RE = /^\s*(?:Produced by|E-?text prepared by|Transcribed by|Prepared by)\b/i;

/** Languages a header's "Language:" line names, as BCP 47. */
const LANGUAGES: Readonly<Record<string, string>> = { english: 'en', vietnamese: 'vi' };

export type GutenbergLine = 'start' | 'end' | null;

/** Whether a line is Project Gutenberg's START marker, its END marker (or the line before it), or neither. */
export function gutenbergLine(line: string): GutenbergLine {
  if (START_RE.test(line)) return 'start';
  if (END_RE.test(line) || END_LINE_RE.test(line)) return 'end';
  return null;
}

/** Whether some line of `text` is a START or END marker of the kind asked. */
export function hasGutenbergLine(text: string, kind: Exclude<GutenbergLine, null>): boolean {
  return text.split(/\r\n?|\n/).some((line) => gutenbergLine(line) === kind);
}

/** Whether a paragraph right after the START marker is the volunteers' credit ("Produced by …"). */
export function isGutenbergCredit(text: string): boolean {
  return CREDIT_RE.test(text);
}

export interface GutenbergMetadata {
  title: string | null;
  author: string | null;
  language: string | null;
}

/** The title, author and language the header's lines give ("Title: …", "Author: …", "Language: English"). */
export function gutenbergMetadata(header: string): GutenbergMetadata {
  const field = (name: string): string | null => {
    const match = new RegExp(`^[ \\t]*${name}:[ \\t]*(\\S.*?)[ \\t]*$`, 'im').exec(header);
    return match ? match[1]! : null;
  };
  const language = field('Language');
  return {
    title: field('Title'),
    author: field('Author'),
    language: language === null ? null : (LANGUAGES[language.toLowerCase()] ?? null),
  };
}
