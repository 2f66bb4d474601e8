/**
 * Building a Manuscript from what a reader finds, in reading order: chapter starts and
 * paragraphs made of runs of text (plain, em or strong). One place keeps the shape's rules for
 * every format: text cleaned and NFC (shared/text cleanText), white space collapsed (a run of
 * spaces, tabs and source line breaks is one space; an explicit line break `\n` stays),
 * emphasis as code-point offsets merged across runs, empty paragraphs and chapters dropped,
 * and the character and paragraph limits kept as the text comes (the reading stops at the
 * first character or paragraph over them).
 */

import { cleanText, hasSpeakableContent } from '../../shared/text';
import {
  MANUSCRIPT_LIMITS,
  type ChapterKind,
  type EmphasisSpan,
  type LegacyVietnameseEncoding,
  type TextEncoding,
  type Manuscript,
  type ManuscriptChapter,
  type ManuscriptCover,
  type ManuscriptFormat,
  type ManuscriptParagraph,
  type NotesMode,
  textLanguageOf,
} from '../../shared/manuscript';
import { invalidManuscript, manuscriptTooLarge, tooManyParagraphs } from './errors';
import {
  namingLanguage,
  noteLabel,
  notesTitle,
  readerChapterTitle,
  sameTitle,
  type ReaderChapterName,
} from './titles';

/** A piece of a paragraph's text and its emphasis. `\n` is a line break; other white space is a space. */
export interface TextRun {
  text: string;
  emphasis?: EmphasisSpan['kind'] | undefined;
}

/** Code points in `text` (a surrogate pair counts once). */
function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xdc00 && code <= 0xdfff && i > 0) {
      const previous = text.charCodeAt(i - 1);
      if (previous >= 0xd800 && previous <= 0xdbff) length--;
    }
  }
  return length;
}

/** White space of any kind (JavaScript's \s: spaces, tabs, line breaks, no-break and wide spaces). */
const SPACES = /\s+/g;

/** A paragraph's text as it is collapsed: what is written, and the white space waiting. */
interface ParagraphText {
  text: string;
  /** Code points written. */
  length: number;
  pending: ' ' | '\n' | null;
  /** Code-point index of the last space written (not a line break). */
  lastSpace: number;
  /** Where the current run's first word starts, or -1. */
  start: number;
}

function addWord(out: ParagraphText, word: string): void {
  if (word === '') return;
  if (out.pending !== null && out.length > 0) {
    if (out.pending === ' ') out.lastSpace = out.length;
    out.text += out.pending;
    out.length++;
  }
  out.pending = null;
  if (out.start < 0) out.start = out.length;
  out.text += word;
  out.length += codePointLength(word);
}

/** Runs as one paragraph: collapsed white space, emphasis spans in code points. */
function paragraphOf(runs: readonly TextRun[]): ManuscriptParagraph | null {
  const out: ParagraphText = { text: '', length: 0, pending: null, lastSpace: -1, start: -1 };
  const emphasis: EmphasisSpan[] = [];
  for (const run of runs) {
    out.start = -1;
    const clean = cleanText(run.text);
    let last = 0;
    for (const match of clean.matchAll(SPACES)) {
      addWord(out, clean.slice(last, match.index));
      if (match[0].includes('\n')) out.pending = '\n';
      else out.pending ??= ' ';
      last = match.index + match[0].length;
    }
    addWord(out, clean.slice(last));
    const { start, length, lastSpace } = out;
    if (run.emphasis && start >= 0) {
      const previous = emphasis.at(-1);
      // Runs of one kind split only by a space are one span ("*a* *b*" reads as "a b" emphasised).
      if (
        previous &&
        previous.kind === run.emphasis &&
        (previous.end === start || (previous.end === start - 1 && lastSpace === previous.end))
      ) {
        previous.end = length;
      } else {
        emphasis.push({ start, end: length, kind: run.emphasis });
      }
    }
  }
  let { text } = out;
  const { length } = out;
  if (length === 0) return null;
  const normalised = text.normalize('NFC');
  if (normalised !== text) {
    // A combining mark at the start of a run composed with the character before it.
    text = normalised;
    const max = codePointLength(text);
    for (const span of emphasis) {
      span.start = Math.min(span.start, max);
      span.end = Math.min(span.end, max);
    }
  }
  return { text, emphasis: emphasis.filter((span) => span.end > span.start) };
}

/** `text` written before a paragraph's text, its emphasis moved along. */
function prefix(paragraph: ManuscriptParagraph, text: string): void {
  const shift = codePointLength(text);
  paragraph.text = text + paragraph.text;
  for (const span of paragraph.emphasis) {
    span.start += shift;
    span.end += shift;
  }
}

/** The warning for notes left out: it names the option that keeps them, as each way in spells it. */
export function notesLeftOutWarning(count: number): string {
  return `${count} note${count === 1 ? '' : 's'} (footnotes, endnotes) left out: import with notes "inline" or "appendix" to keep them (--notes on the command line, the "notes" field of the API, "Notes" in the import dialog).`;
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
  /** A chapter the reader names by itself, in the book's language once it is known (titles.ts). */
  name?: ReaderChapterName;
}

export class ManuscriptBuilder {
  readonly warnings: string[] = [];
  /** Set by a reader that converted legacy Vietnamese text (legacy-vietnamese.ts). */
  legacyEncoding: LegacyVietnameseEncoding | null = null;
  /** Set by a text file's reader: the character encoding detected (text-decoding.ts). */
  textEncoding: TextEncoding | null = null;
  private readonly chapters: OpenChapter[] = [];
  private characters = 0;
  private paragraphs = 0;
  /** Notes' first paragraphs read after their paragraph: labelled ("Note:") when the language is known. */
  private readonly inlineNotes = new Set<ManuscriptParagraph>();
  /** Notes gathered for the last chapter, each a list of paragraphs. */
  private readonly appendix: ManuscriptParagraph[][] = [];
  private notesLeft = 0;

  constructor(
    readonly fileName: string,
    readonly format: ManuscriptFormat,
  ) {}

  /**
   * Starts a chapter; the paragraphs added next belong to it. A heading with nothing to say, a
   * scene break set as a heading ("* * *", "***", "⁂", "---"), starts none: it stays a line of
   * the chapter it stands in (the engine reads no words in it).
   */
  startChapter(title: string, kind: ChapterKind = 'body'): void {
    const plain = plainText(title);
    if (plain && !hasSpeakableContent(plain)) {
      this.addParagraph([{ text: plain }]);
      return;
    }
    this.chapters.push({ title: plain || null, kind, paragraphs: [] });
  }

  /**
   * Starts a chapter the reader names by itself (Project Gutenberg's header or licence): its
   * title is given in the book's language when the book is finished.
   */
  startNamedChapter(name: ReaderChapterName, kind: ChapterKind): void {
    this.chapters.push({ title: null, kind, paragraphs: [], name });
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
    if (chapter && hasSpeakableContent(plain)) chapter.title = plain;
  }

  /** Adds a paragraph to the current chapter (text before any chapter opens an untitled one). */
  addParagraph(runs: readonly TextRun[]): void {
    const paragraph = this.counted(runs);
    if (paragraph) this.addMade(paragraph);
  }

  /**
   * A footnote or endnote (its paragraphs) cited by the paragraph just added, as `mode` says:
   * `inline` reads it next ("Note: …" in the book's language), `appendix` keeps it for the last
   * chapter ("Notes"), `omit` counts it for the warning finish gives.
   */
  addNote(paragraphs: readonly (readonly TextRun[])[], mode: NotesMode = 'omit'): void {
    if (mode === 'omit') {
      this.noteLeftOut();
      return;
    }
    const made = paragraphs.map((runs) => this.counted(runs)).filter((p) => p !== null);
    if (made.length === 0) return;
    if (mode === 'appendix') {
      this.appendix.push(made);
      return;
    }
    this.inlineNotes.add(made[0]!);
    for (const paragraph of made) this.addMade(paragraph);
  }

  /** A note the reader left out without reading it (notes `omit`): finish warns, naming the option. */
  noteLeftOut(count = 1): void {
    this.notesLeft += count;
  }

  private addMade(paragraph: ManuscriptParagraph): void {
    let chapter = this.chapters.at(-1);
    if (!chapter) {
      chapter = { title: null, kind: 'body', paragraphs: [] };
      this.chapters.push(chapter);
    }
    chapter.paragraphs.push(paragraph);
  }

  /** A paragraph of `runs` counted against the limits, or null when it holds no text. */
  private counted(runs: readonly TextRun[]): ManuscriptParagraph | null {
    const paragraph = paragraphOf(runs);
    if (!paragraph) return null;
    this.characters += codePointLength(paragraph.text);
    if (this.characters > MANUSCRIPT_LIMITS.characters) {
      throw manuscriptTooLarge(
        this.fileName,
        `it holds more than ${MANUSCRIPT_LIMITS.characters.toLocaleString('en-US')} characters of text`,
        `${MANUSCRIPT_LIMITS.characters.toLocaleString('en-US')} characters`,
        { limit_characters: MANUSCRIPT_LIMITS.characters },
      );
    }
    if (++this.paragraphs > MANUSCRIPT_LIMITS.paragraphs) throw tooManyParagraphs(this.fileName);
    return paragraph;
  }

  /**
   * The manuscript; MANUSCRIPT_INVALID when it holds no text at all. A chapter's first paragraph
   * that is the book's title (a title page, a reading site's page heading) is left out; text
   * before the first heading is named after the book, or when the book has no title "Opening"
   * in the book's language ("Mở đầu": titles.ts), as are the chapters the reader named itself
   * (startNamedChapter); the language is the one of the book's own text (those chapters left out).
   */
  finish(metadata: {
    title: string | null;
    author: string | null;
    language: string | null;
    cover?: ManuscriptCover | null;
  }): Manuscript {
    const title = metadata.title === null ? null : plainText(metadata.title) || null;
    const language = metadata.language === null ? null : plainText(metadata.language) || null;
    if (title !== null) {
      for (const chapter of this.chapters) {
        if (chapter.paragraphs[0] && sameTitle(chapter.paragraphs[0].text, title)) chapter.paragraphs.shift();
      }
    }
    const chapters: ManuscriptChapter[] = [];
    const named: [ManuscriptChapter, ReaderChapterName][] = [];
    /** The book's own text: the Project Gutenberg header and licence (English in every book) left out. */
    const own: ManuscriptChapter[] = [];
    const empty: string[] = [];
    for (const chapter of this.chapters) {
      if (chapter.paragraphs.length === 0) {
        if (chapter.title) empty.push(chapter.title);
        continue;
      }
      const made = {
        title: chapter.name ? '' : (chapter.title ?? title ?? ''),
        kind: chapter.kind,
        paragraphs: chapter.paragraphs,
      };
      if (made.title === '') named.push([made, chapter.name ?? 'opening']);
      if (!chapter.name) own.push(made);
      chapters.push(made);
    }
    if (chapters.length === 0) throw invalidManuscript(this.fileName, this.format, 'it holds no text');
    const textLanguage = textLanguageOf(own.length > 0 ? own : chapters);
    const naming = namingLanguage(language, textLanguage);
    for (const [chapter, name] of named) chapter.title = readerChapterTitle(name, naming);
    const label = noteLabel(naming);
    for (const paragraph of this.inlineNotes) prefix(paragraph, `${label} `);
    if (this.appendix.length > 0) {
      this.appendix.forEach((note, i) => prefix(note[0]!, `${i + 1}. `));
      chapters.push({ title: notesTitle(naming), kind: 'body', paragraphs: this.appendix.flat() });
    }
    if (this.notesLeft > 0) this.warnings.push(notesLeftOutWarning(this.notesLeft));
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
      language,
      cover: metadata.cover ?? null,
      chapters,
      warnings: this.warnings,
      ...(this.legacyEncoding ? { legacyEncoding: this.legacyEncoding } : {}),
      ...(this.textEncoding ? { textEncoding: this.textEncoding } : {}),
      textLanguage,
    };
  }
}
