/**
 * RTF manuscripts, tokenized by rtf-stream-parser (its Tokenize: groups, control words with
 * their parameters, `\'xx` bytes, `\uN` characters) and interpreted here as a writer's RTF is
 * read: `\par` ends a paragraph, a paragraph in a style named "heading 1" / "Title" (or with
 * `\outlinelevel0`) starts a chapter, `\b` → strong and `\i` → em; `\uN` is a Unicode character
 * (its `\ucN` fallback bytes skipped: Vietnamese in RTF is written so), `\'xx` a byte of the
 * document's code page (`\ansicpg`, Windows-1252 by default, decoded by TextDecoder); the font,
 * colour and style tables, pictures, objects, headers, footers, fields' instructions, hidden
 * text (`\v`) and every `{\*\…}` destination are not text. Title and author from `{\info}`.
 * Footnotes (`{\footnote}`) go where the notes option says (shared/manuscript.ts NOTES_MODES).
 */

import { Readable } from 'node:stream';
import { Tokenize } from 'rtf-stream-parser';
import { MANUSCRIPT_LIMITS, type NotesMode } from '../../shared/manuscript';
import { ManuscriptBuilder, type TextRun } from './builder';
import { invalidManuscript, nestedTooDeep } from './errors';
import type { ManuscriptReader } from './reader';
import { decodeWindows1252 } from './text-decoding';

/** A token of rtf-stream-parser's Tokenize (its types are a `const enum`, not exported). */
interface Token {
  type: number;
  word?: string;
  param?: number;
  data?: Buffer;
}

/** Token types of rtf-stream-parser (its `const enum` TokenType). */
const GROUP_START = 0;
const GROUP_END = 1;
const CONTROL = 2;
const TEXT = 3;

/** Destinations whose content is not the document's text. */
const SKIPPED_DESTINATIONS = new Set([
  'fonttbl',
  'colortbl',
  'pict',
  'object',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'fldinst',
  'filetbl',
  'listtable',
  'listoverridetable',
  'revtbl',
  'rsidtbl',
  'generator',
  'xmlnstbl',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'pgdsctbl',
  'mmathPr',
  'listtext',
  'pntext',
  'bkmkstart',
  'bkmkend',
]);

/** What a group sets, restored when it closes. */
interface GroupState {
  bold: boolean;
  italic: boolean;
  /** Hidden text (`\v`): not read, as Word does not show it. */
  hidden: boolean;
  /** Fallback characters after `\uN` (`\ucN`). */
  uc: number;
  /** Where its text goes: the document, a footnote, a style's name, an info field, or nowhere. */
  sink: 'text' | 'note' | 'style' | 'info' | 'title' | 'author' | 'skip';
}

/** A paragraph as read: its runs, its style's heading level (0: chapter) and its footnotes. */
interface Paragraph {
  runs: TextRun[];
  outline: number | null;
  notes: TextRun[][][];
}

/** A decoder for the code page `\ansicpg` names (Windows-1252 mended past Node's decoder: text-decoding.ts). */
function codePageDecoder(codePage: number): (bytes: Uint8Array) => string {
  if (codePage === 1252) return decodeWindows1252;
  const decoder = new TextDecoder(`windows-${codePage}`);
  return (bytes) => decoder.decode(bytes);
}

/** The file's tokens as the tokenizer makes them (streamed: a large file is never held as tokens). */
async function* tokens(bytes: Uint8Array, fileName: string): AsyncGenerator<Token> {
  const stream = Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]).pipe(
    new Tokenize(),
  );
  const iterator = stream[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<unknown>;
    try {
      next = await iterator.next();
    } catch (error) {
      throw invalidManuscript(fileName, 'rtf', `it is not readable RTF (${(error as Error).message})`, error);
    }
    if (next.done) return;
    yield next.value as Token;
  }
}

/** A style's heading level from its name: "heading 1" → 0, "Title" → 0, "heading 2" → 1. */
function styleOutline(name: string): number | null {
  const clean = name.replace(/;\s*$/, '').trim().toLowerCase();
  if (clean === 'title') return 0;
  const heading = /^heading\s*(\d)$/.exec(clean);
  return heading ? Number(heading[1]) - 1 : null;
}

/** Control words that stand for a character of the text. */
const SYMBOLS: ReadonlyMap<string, string> = new Map([
  ['line', '\n'],
  ['tab', ' '],
  ['emdash', '—'],
  ['endash', '–'],
  ['lquote', '‘'],
  ['rquote', '’'],
  ['ldblquote', '“'],
  ['rdblquote', '”'],
  ['bullet', '•'],
  ['~', '\u00a0'],
  ['_', '-'],
]);

/** The reading of one RTF file: its tokens interpreted in order into a ManuscriptBuilder. */
class RtfReading {
  readonly builder: ManuscriptBuilder;
  private decode = codePageDecoder(1252);
  private readonly styles = new Map<number, number | null>();
  private readonly stack: GroupState[] = [];
  private state: GroupState = { bold: false, italic: false, hidden: false, uc: 1, sink: 'text' };
  /** Fallback bytes still to skip after a `\uN`. */
  private skipFallback = 0;
  private paragraph: Paragraph = { runs: [], outline: null, notes: [] };
  private note: { paragraphs: TextRun[][]; runs: TextRun[] } | null = null;
  private style: { number: number; name: string } | null = null;
  private title = '';
  private author = '';
  /** The group just opened: its first control word may name a destination. */
  private groupStart = false;
  private optional = false;

  constructor(
    private readonly fileName: string,
    private readonly mode: NotesMode,
  ) {
    this.builder = new ManuscriptBuilder(fileName, 'rtf');
  }

  read(token: Token): void {
    const starting = this.groupStart;
    this.groupStart = false;
    switch (token.type) {
      case GROUP_START:
        this.openGroup();
        break;
      case GROUP_END:
        this.closeGroup();
        break;
      case CONTROL:
        this.control(token, starting);
        break;
      case TEXT:
        this.text(token.data ?? Buffer.alloc(0));
        break;
    }
  }

  finish() {
    if (this.paragraph.runs.length > 0) this.endParagraph();
    return this.builder.finish({
      title: this.title.trim() || null,
      author: this.author.trim() || null,
      language: null,
    });
  }

  private openGroup(): void {
    this.stack.push(this.state);
    if (this.stack.length > MANUSCRIPT_LIMITS.nestingDepth) throw nestedTooDeep(this.fileName, null);
    this.state = { ...this.state };
    this.groupStart = true;
    this.optional = false;
    this.skipFallback = 0;
  }

  private closeGroup(): void {
    const { state, note, style } = this;
    if (state.sink === 'note' && this.stack.at(-1)?.sink !== 'note' && note) {
      if (note.runs.length > 0) note.paragraphs.push(note.runs);
      this.paragraph.notes.push(note.paragraphs);
      this.note = null;
    }
    if (state.sink === 'style' && style) {
      this.styles.set(style.number, styleOutline(style.name));
      this.style = null;
    }
    this.state = this.stack.pop() ?? state;
    this.skipFallback = 0;
  }

  private control(token: Token, starting: boolean): void {
    const word = token.word ?? '';
    const param = token.param;
    if (this.state.sink === 'skip') return;
    if (word === '*' && starting) {
      this.optional = true;
      this.groupStart = true;
      return;
    }
    if ((starting || this.optional) && this.destination(word)) return;
    if (
      this.state.sink === 'style' &&
      this.style === null &&
      (word === 's' || word === 'cs' || word === 'ds')
    ) {
      this.style = { number: word === 's' ? (param ?? 0) : -1, name: '' };
      return;
    }
    if (token.data && word === "'") {
      // `\'xx`: a byte of the code page, unless it is a `\uN`'s fallback.
      if (this.skipFallback > 0) this.skipFallback--;
      else this.emit(this.decode(token.data));
      return;
    }
    const symbol = SYMBOLS.get(word);
    if (symbol !== undefined) this.emit(symbol);
    else this.controlWord(word, param);
  }

  /** A group's first control word naming where its text goes; true when it did. */
  private destination(word: string): boolean {
    const state = this.state;
    const unknownOptional = this.optional && word !== 'footnote';
    this.optional = false;
    if (unknownOptional || SKIPPED_DESTINATIONS.has(word)) {
      state.sink = 'skip';
      return true;
    }
    if (word === 'footnote') {
      state.sink = 'note';
      this.note = { paragraphs: [], runs: [] };
      return true;
    }
    if (word === 'stylesheet' || word === 'info') {
      // The stylesheet's entries are groups of their own, read as styles.
      state.sink = word === 'info' ? 'info' : 'style';
      return true;
    }
    if ((word === 'title' || word === 'author') && state.sink === 'info') {
      state.sink = word;
      return true;
    }
    return false;
  }

  /** The control words that change the code page, the formatting or the paragraph. */
  private controlWord(word: string, param: number | undefined): void {
    const state = this.state;
    switch (word) {
      case 'ansicpg':
        try {
          this.decode = codePageDecoder(param ?? 1252);
        } catch {
          this.builder.warnings.push(
            `Code page ${param} is not one we read; its accented letters may be wrong.`,
          );
        }
        break;
      case 'u': {
        const code = (param ?? 0) < 0 ? (param ?? 0) + 65536 : (param ?? 0);
        this.emit(String.fromCharCode(code));
        this.skipFallback = state.uc;
        break;
      }
      case 'uc':
        state.uc = param ?? 1;
        break;
      case 'par':
      case 'sect':
      case 'page':
        if (word === 'par' || this.paragraph.runs.length > 0) this.endParagraph();
        break;
      case 'cell':
      case 'row':
        this.endParagraph();
        break;
      case 'b':
        state.bold = param !== 0;
        break;
      case 'i':
        state.italic = param !== 0;
        break;
      case 'v':
        state.hidden = param !== 0;
        break;
      case 'plain':
        state.bold = false;
        state.italic = false;
        state.hidden = false;
        break;
      case 'pard':
        if (state.sink === 'text') this.paragraph.outline = null;
        break;
      case 's':
        if (state.sink === 'text')
          this.paragraph.outline = this.styles.get(param ?? 0) ?? this.paragraph.outline;
        break;
      case 'outlinelevel':
        if (state.sink === 'text') this.paragraph.outline = param ?? null;
        break;
    }
  }

  private text(bytes: Buffer): void {
    let data = bytes;
    if (this.skipFallback > 0) {
      const skipped = Math.min(this.skipFallback, data.length);
      this.skipFallback -= skipped;
      data = data.subarray(skipped);
    }
    this.emit(this.decode(data).replace(/[\r\n]/g, ''));
  }

  private emit(text: string): void {
    const state = this.state;
    if (text === '' || state.hidden) return;
    const emphasis = state.bold ? 'strong' : state.italic ? 'em' : undefined;
    switch (state.sink) {
      case 'text':
        this.paragraph.runs.push({ text, emphasis });
        break;
      case 'note':
        this.note?.runs.push({ text, emphasis });
        break;
      case 'style':
        if (this.style) this.style.name += text;
        break;
      case 'title':
        this.title += text;
        break;
      case 'author':
        this.author += text;
        break;
    }
  }

  private endParagraph(): void {
    const note = this.note;
    if (this.state.sink === 'note' && note) {
      note.paragraphs.push(note.runs);
      note.runs = [];
      return;
    }
    if (this.state.sink !== 'text') return;
    const done = this.paragraph;
    this.paragraph = { runs: [], outline: done.outline, notes: [] };
    const text = done.runs.map((run) => run.text).join('');
    if (done.outline === 0 && text.trim()) this.builder.startChapter(text);
    else this.builder.addParagraph(done.runs);
    for (const paragraphs of done.notes) this.builder.addNote(paragraphs, this.mode);
  }
}

export const readRtf: ManuscriptReader = async (bytes, fileName, options) => {
  const reading = new RtfReading(fileName, options.notes ?? 'omit');
  for await (const token of tokens(bytes, fileName)) reading.read(token);
  return reading.finish();
};
