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
import { MANUSCRIPT_LIMITS } from '../../shared/manuscript';
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

export const readRtf: ManuscriptReader = async (bytes, fileName, options) => {
  const mode = options.notes ?? 'omit';
  const builder = new ManuscriptBuilder(fileName, 'rtf');
  let decode = codePageDecoder(1252);
  const styles = new Map<number, number | null>();
  const stack: GroupState[] = [];
  let state: GroupState = { bold: false, italic: false, hidden: false, uc: 1, sink: 'text' };
  /** Fallback bytes still to skip after a `\uN`. */
  let skipFallback = 0;
  let paragraph: Paragraph = { runs: [], outline: null, notes: [] };
  let note: { paragraphs: TextRun[][]; runs: TextRun[] } | null = null;
  let style: { number: number; name: string } | null = null;
  let title = '';
  let author = '';
  /** The group just opened: its first control word may name a destination. */
  let groupStart = false;
  let optional = false;

  const emit = (text: string): void => {
    if (text === '' || state.hidden) return;
    const emphasis = state.bold ? 'strong' : state.italic ? 'em' : undefined;
    switch (state.sink) {
      case 'text':
        paragraph.runs.push({ text, emphasis });
        break;
      case 'note':
        note?.runs.push({ text, emphasis });
        break;
      case 'style':
        if (style) style.name += text;
        break;
      case 'title':
        title += text;
        break;
      case 'author':
        author += text;
        break;
    }
  };
  const endParagraph = (): void => {
    if (state.sink === 'note' && note) {
      note.paragraphs.push(note.runs);
      note.runs = [];
      return;
    }
    if (state.sink !== 'text') return;
    const done = paragraph;
    paragraph = { runs: [], outline: done.outline, notes: [] };
    const text = done.runs.map((run) => run.text).join('');
    if (done.outline === 0 && text.trim()) builder.startChapter(text);
    else builder.addParagraph(done.runs);
    for (const paragraphs of done.notes) builder.addNote(paragraphs, mode);
  };

  for await (const token of tokens(bytes, fileName)) {
    const starting = groupStart;
    groupStart = false;
    switch (token.type) {
      case GROUP_START:
        stack.push(state);
        if (stack.length > MANUSCRIPT_LIMITS.nestingDepth) throw nestedTooDeep(fileName, null);
        state = { ...state };
        groupStart = true;
        optional = false;
        skipFallback = 0;
        break;
      case GROUP_END: {
        if (state.sink === 'note' && stack.at(-1)?.sink !== 'note' && note) {
          if (note.runs.length > 0) note.paragraphs.push(note.runs);
          paragraph.notes.push(note.paragraphs);
          note = null;
        }
        if (state.sink === 'style' && style) {
          styles.set(style.number, styleOutline(style.name));
          style = null;
        }
        state = stack.pop() ?? state;
        skipFallback = 0;
        break;
      }
      case CONTROL: {
        const word = token.word ?? '';
        const param = token.param;
        if (state.sink === 'skip') break;
        if (word === '*' && starting) {
          optional = true;
          groupStart = true;
          break;
        }
        if (starting || optional) {
          const unknownOptional = optional && word !== 'footnote';
          optional = false;
          if (unknownOptional || SKIPPED_DESTINATIONS.has(word)) {
            state.sink = 'skip';
            break;
          }
          if (word === 'footnote') {
            state.sink = 'note';
            note = { paragraphs: [], runs: [] };
            break;
          }
          if (word === 'stylesheet' || word === 'info') {
            // The stylesheet's entries are groups of their own, read as styles.
            state.sink = word === 'info' ? 'info' : 'style';
            break;
          }
          if ((word === 'title' || word === 'author') && state.sink === 'info') {
            state.sink = word;
            break;
          }
        }
        if (state.sink === 'style' && style === null && (word === 's' || word === 'cs' || word === 'ds')) {
          style = { number: word === 's' ? (param ?? 0) : -1, name: '' };
          break;
        }
        if (token.data && word === "'") {
          // `\'xx`: a byte of the code page, unless it is a `\uN`'s fallback.
          if (skipFallback > 0) skipFallback--;
          else emit(decode(token.data));
          break;
        }
        switch (word) {
          case 'ansicpg':
            try {
              decode = codePageDecoder(param ?? 1252);
            } catch {
              builder.warnings.push(
                `Code page ${param} is not one we read; its accented letters may be wrong.`,
              );
            }
            break;
          case 'u': {
            const code = (param ?? 0) < 0 ? (param ?? 0) + 65536 : (param ?? 0);
            emit(String.fromCharCode(code));
            skipFallback = state.uc;
            break;
          }
          case 'uc':
            state.uc = param ?? 1;
            break;
          case 'par':
          case 'sect':
          case 'page':
            if (word === 'par' || paragraph.runs.length > 0) endParagraph();
            break;
          case 'line':
            emit('\n');
            break;
          case 'tab':
            emit(' ');
            break;
          case 'cell':
          case 'row':
            endParagraph();
            break;
          case 'emdash':
            emit('—');
            break;
          case 'endash':
            emit('–');
            break;
          case 'lquote':
            emit('‘');
            break;
          case 'rquote':
            emit('’');
            break;
          case 'ldblquote':
            emit('“');
            break;
          case 'rdblquote':
            emit('”');
            break;
          case 'bullet':
            emit('•');
            break;
          case '~':
            emit('\u00a0');
            break;
          case '_':
            emit('-');
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
            if (state.sink === 'text') paragraph.outline = null;
            break;
          case 's':
            if (state.sink === 'text') paragraph.outline = styles.get(param ?? 0) ?? paragraph.outline;
            break;
          case 'outlinelevel':
            if (state.sink === 'text') paragraph.outline = param ?? null;
            break;
        }
        break;
      }
      case TEXT: {
        let data = token.data ?? Buffer.alloc(0);
        if (skipFallback > 0) {
          const skipped = Math.min(skipFallback, data.length);
          skipFallback -= skipped;
          data = data.subarray(skipped);
        }
        emit(decode(data).replace(/[\r\n]/g, ''));
        break;
      }
    }
  }
  if (paragraph.runs.length > 0) endParagraph();
  return builder.finish({ title: title.trim() || null, author: author.trim() || null, language: null });
};
