/**
 * Markdown manuscripts, read with markdown-it (+ markdown-it-footnote): `#` and `##` headings
 * and `[chapter: Title]` lines start chapters; paragraphs (also in lists, quotes and tables)
 * with *em* and **strong** as emphasis; deeper headings are paragraphs; raw HTML is left out.
 * Footnotes are left out unless asked for (the notes option: read after the paragraph citing
 * them, or gathered in a last chapter). A YAML front matter's title, author and lang are the metadata. The paragraph
 * limit stops the parse itself, not only the building.
 */

import MarkdownIt, { type MarkdownIt as Markdown, type StateBlock, type Token } from 'markdown-it';
import footnote from 'markdown-it-footnote';
import { MANUSCRIPT_LIMITS } from '../../shared/manuscript';
import { ManuscriptBuilder, type TextRun } from './builder';
import { FENCE_RE, MARKER_RE, markerTitle } from './chapter-lines';
import { tooManyParagraphs } from './errors';
import type { ManuscriptReader } from './reader';
import { noteLegacyConversion } from './legacy-vietnamese';
import { decodeManuscriptText, noteTextEncoding } from './text-decoding';

/** What the paragraph limit's rule keeps in a parse's env. */
interface ParagraphCount {
  fileName: string;
  /** Tokens looked at so far. */
  seen: number;
  paragraphs: number;
}

/**
 * Stops the parse once the text holds more paragraphs than MANUSCRIPT_LIMITS.paragraphs:
 * markdown-it writes every token before the builder sees one (a million tiny paragraphs cost
 * 3.5 s and 1.1 GB of tokens), so a block rule run first at each block start counts the
 * paragraphs written so far (inline tokens with text; headings are chapters) and never matches.
 */
function paragraphLimit(md: Markdown): void {
  md.block.ruler.before('table', 'paragraph_limit', (state: StateBlock) => {
    const count = (state.env as { paragraphCount?: ParagraphCount }).paragraphCount;
    if (!count) return false;
    const { tokens } = state;
    for (; count.seen < tokens.length; count.seen++) {
      const token = tokens[count.seen]!;
      if (
        token.type === 'inline' &&
        tokens[count.seen - 1]?.type !== 'heading_open' &&
        token.content.trim() !== ''
      ) {
        count.paragraphs++;
      }
    }
    if (count.paragraphs > MANUSCRIPT_LIMITS.paragraphs) throw tooManyParagraphs(count.fileName);
    return false;
  });
}

const markdown = new MarkdownIt({ html: true }).use(footnote).use(paragraphLimit);

/** YAML front matter (`---` … `---` at the very start): its simple `key: value` lines, and the text after it. */
function frontMatter(text: string): { fields: Map<string, string>; body: string } {
  const fields = new Map<string, string>();
  const lines = text.split('\n');
  if (lines[0]?.trim() !== '---') return { fields, body: text };
  const end = lines.findIndex((line, i) => i > 0 && (line.trim() === '---' || line.trim() === '...'));
  if (end < 0) return { fields, body: text };
  for (const line of lines.slice(1, end)) {
    const colon = line.indexOf(':');
    if (colon <= 0 || /^\s/.test(line)) continue;
    const value = line
      .slice(colon + 1)
      .trim()
      .replace(/^(["'])(.*)\1$/, '$2');
    if (value) fields.set(line.slice(0, colon).trim().toLowerCase(), value);
  }
  return { fields, body: lines.slice(end + 1).join('\n') };
}

/** Blank lines around `[chapter: …]` lines (outside fenced code), so each is a paragraph of its own. */
function isolateMarkers(text: string): string {
  let fence: string | undefined;
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const fenceMatch = FENCE_RE.exec(line);
    if (fenceMatch) {
      const mark = fenceMatch[1]!;
      if (fence === undefined) fence = mark;
      else if (mark[0] === fence[0] && mark.length >= fence.length) fence = undefined;
      out.push(line);
    } else if (fence === undefined && MARKER_RE.test(line)) out.push('', line.trim(), '');
    else out.push(line);
  }
  return out.join('\n');
}

function inlineRuns(token: Token, refs: number[]): TextRun[] {
  const runs: TextRun[] = [];
  let em = 0;
  let strong = 0;
  for (const child of token.children ?? []) {
    const emphasis = strong > 0 ? 'strong' : em > 0 ? 'em' : undefined;
    switch (child.type) {
      case 'text':
      case 'code_inline':
        runs.push({ text: child.content, emphasis });
        break;
      case 'softbreak':
        runs.push({ text: ' ' });
        break;
      case 'hardbreak':
        runs.push({ text: '\n' });
        break;
      case 'em_open':
        em++;
        break;
      case 'em_close':
        em--;
        break;
      case 'strong_open':
        strong++;
        break;
      case 'strong_close':
        strong--;
        break;
      case 'footnote_ref':
        refs.push((child.meta as { id: number }).id);
        break;
    }
  }
  return runs;
}

export const readMarkdown: ManuscriptReader = async (bytes, fileName, options) => {
  const { text, encoding, legacy } = decodeManuscriptText(bytes, fileName, 'markdown');
  const { fields, body } = frontMatter(text.replace(/\r\n?/g, '\n'));
  const paragraphCount: ParagraphCount = { fileName, seen: 0, paragraphs: 0 };
  const tokens = markdown.parse(isolateMarkers(body), { paragraphCount });
  const builder = new ManuscriptBuilder(fileName, 'markdown');
  noteTextEncoding(builder, encoding);
  if (legacy) noteLegacyConversion(builder, legacy, 'the file');

  // Footnotes first (their block comes last): id → paragraphs.
  const notes = new Map<number, TextRun[][]>();
  let noteId: number | null = null;
  for (const token of tokens) {
    if (token.type === 'footnote_open') noteId = (token.meta as { id: number }).id;
    else if (token.type === 'footnote_close') noteId = null;
    else if (noteId !== null && token.type === 'inline') {
      notes.set(noteId, [...(notes.get(noteId) ?? []), inlineRuns(token, [])]);
    }
  }

  let inNotes = false;
  let heading: string | null = null;
  for (const token of tokens) {
    if (token.type === 'footnote_block_open') inNotes = true;
    else if (token.type === 'footnote_block_close') inNotes = false;
    if (inNotes) continue;
    if (token.type === 'heading_open') heading = token.tag;
    else if (token.type === 'heading_close') heading = null;
    else if (token.type === 'inline') {
      const refs: number[] = [];
      const runs = inlineRuns(token, refs);
      const marker = heading === null ? markerTitle(token.content) : null;
      if (marker !== null) builder.startChapter(marker);
      else if (heading === 'h1' || heading === 'h2')
        builder.startChapter(runs.map((run) => run.text).join(''));
      else builder.addParagraph(runs);
      for (const id of refs) builder.addNote(notes.get(id) ?? [], options.notes);
    } else if (token.type === 'fence' || token.type === 'code_block') {
      builder.addParagraph([{ text: token.content.trimEnd() }]);
    }
  }
  return builder.finish({
    title: fields.get('title') ?? null,
    author: fields.get('author') ?? fields.get('creator') ?? null,
    language: fields.get('lang') ?? fields.get('language') ?? null,
  });
};
