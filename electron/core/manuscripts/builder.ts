/**
 * Building a Manuscript from what a reader finds, in reading order: chapter starts and
 * paragraphs made of runs of text (plain, em or strong). One place keeps the shape's rules for
 * every format: text cleaned and NFC (shared/text cleanText), white space collapsed (a run of
 * spaces, tabs and source line breaks is one space; an explicit line break `\n` stays),
 * emphasis as code-point offsets merged across runs, empty paragraphs and chapters dropped,
 * and the character limit kept as the text comes (the reading stops at the first character
 * over it).
 */

import { cleanText } from '../../shared/text';
import {
  MANUSCRIPT_LIMITS,
  type ChapterKind,
  type EmphasisSpan,
  type Manuscript,
  type ManuscriptChapter,
  type ManuscriptCover,
  type ManuscriptFormat,
  type ManuscriptParagraph,
} from '../../shared/manuscript';
import { invalidManuscript, manuscriptTooLarge } from './errors';

/** A piece of a paragraph's text and its emphasis. `\n` is a line break; other white space is a space. */
export interface TextRun {
  text: string;
  emphasis?: EmphasisSpan['kind'] | undefined;
}

/** The title of text before the first heading when the book has no title. */
export const OPENING_TITLE = 'Opening';

function isSpace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Runs as one paragraph: collapsed white space, emphasis spans in code points. */
export function paragraphOf(runs: readonly TextRun[]): ManuscriptParagraph | null {
  let text = '';
  let length = 0;
  let pending: ' ' | '\n' | null = null;
  /** Code-point index of the last space written (not a line break). */
  let lastSpace = -1;
  const emphasis: EmphasisSpan[] = [];
  for (const run of runs) {
    let start = -1;
    for (const ch of cleanText(run.text)) {
      const code = ch.codePointAt(0)!;
      if (code === 0x0a) {
        pending = '\n';
        continue;
      }
      if (isSpace(code)) {
        pending ??= ' ';
        continue;
      }
      if (pending !== null && length > 0) {
        if (pending === ' ') lastSpace = length;
        text += pending;
        length++;
      }
      pending = null;
      if (start < 0) start = length;
      text += ch;
      length++;
    }
    if (run.emphasis && start >= 0) {
      const last = emphasis.at(-1);
      // Runs of one kind split only by white space are one span ("*a* *b*" reads as "a b" emphasised).
      if (
        last &&
        last.kind === run.emphasis &&
        (last.end === start || (last.end === start - 1 && lastSpace === last.end))
      ) {
        last.end = length;
      } else {
        emphasis.push({ start, end: length, kind: run.emphasis });
      }
    }
  }
  if (length === 0) return null;
  const normalised = text.normalize('NFC');
  if (normalised !== text) {
    // A combining mark at the start of a run composed with the character before it.
    text = normalised;
    const max = [...text].length;
    for (const span of emphasis) {
      span.start = Math.min(span.start, max);
      span.end = Math.min(span.end, max);
    }
  }
  return { text, emphasis: emphasis.filter((span) => span.end > span.start) };
}

/** Collapsed plain text of runs (titles, metadata), or '' when there is none. */
export function plainText(text: string): string {
  return paragraphOf([{ text: text.replaceAll('\n', ' ') }])?.text ?? '';
}

interface OpenChapter {
  /** null: text before the first heading, titled when the book is finished. */
  title: string | null;
  kind: ChapterKind;
  paragraphs: ManuscriptParagraph[];
}

export class ManuscriptBuilder {
  readonly warnings: string[] = [];
  private readonly chapters: OpenChapter[] = [];
  private characters = 0;

  constructor(
    readonly fileName: string,
    readonly format: ManuscriptFormat,
  ) {}

  /** Starts a chapter; the paragraphs added next belong to it. */
  startChapter(title: string, kind: ChapterKind = 'body'): void {
    this.chapters.push({ title: plainText(title) || null, kind, paragraphs: [] });
  }

  /** The chapter paragraphs go to now (null before the first chapter). */
  get current(): { title: string | null; kind: ChapterKind; paragraphs: number } | null {
    const chapter = this.chapters.at(-1);
    return chapter
      ? { title: chapter.title, kind: chapter.kind, paragraphs: chapter.paragraphs.length }
      : null;
  }

  /** Renames the current chapter (a title found after it started, e.g. its first heading). */
  retitle(title: string): void {
    const chapter = this.chapters.at(-1);
    const plain = plainText(title);
    if (chapter && plain) chapter.title = plain;
  }

  /** Adds a paragraph to the current chapter (text before any chapter opens an untitled one). */
  addParagraph(runs: readonly TextRun[]): void {
    const paragraph = paragraphOf(runs);
    if (!paragraph) return;
    this.characters += [...paragraph.text].length;
    if (this.characters > MANUSCRIPT_LIMITS.characters) {
      throw manuscriptTooLarge(
        this.fileName,
        `it holds more than ${MANUSCRIPT_LIMITS.characters.toLocaleString('en-US')} characters of text`,
        `${MANUSCRIPT_LIMITS.characters.toLocaleString('en-US')} characters`,
        { limit_characters: MANUSCRIPT_LIMITS.characters },
      );
    }
    let chapter = this.chapters.at(-1);
    if (!chapter) {
      chapter = { title: null, kind: 'body', paragraphs: [] };
      this.chapters.push(chapter);
    }
    chapter.paragraphs.push(paragraph);
  }

  /** The manuscript; MANUSCRIPT_INVALID when it holds no text at all. */
  finish(metadata: {
    title: string | null;
    author: string | null;
    language: string | null;
    cover?: ManuscriptCover | null;
  }): Manuscript {
    const title = metadata.title === null ? null : plainText(metadata.title) || null;
    const chapters: ManuscriptChapter[] = [];
    const empty: string[] = [];
    for (const chapter of this.chapters) {
      if (chapter.paragraphs.length === 0) {
        if (chapter.title) empty.push(chapter.title);
        continue;
      }
      chapters.push({
        title: chapter.title ?? title ?? OPENING_TITLE,
        kind: chapter.kind,
        paragraphs: chapter.paragraphs,
      });
    }
    if (chapters.length === 0) throw invalidManuscript(this.fileName, this.format, 'it holds no text');
    if (empty.length > 0) {
      const names = empty
        .slice(0, 5)
        .map((name) => `"${name}"`)
        .join(', ');
      this.warnings.push(
        `${empty.length} heading${empty.length === 1 ? '' : 's'} without text after ${empty.length === 1 ? 'it' : 'them'} made no chapter: ${names}${empty.length > 5 ? '…' : ''}.`,
      );
    }
    return {
      fileName: this.fileName,
      format: this.format,
      title,
      author: metadata.author === null ? null : plainText(metadata.author) || null,
      language: metadata.language === null ? null : plainText(metadata.language) || null,
      cover: metadata.cover ?? null,
      chapters,
      warnings: this.warnings,
    };
  }
}
