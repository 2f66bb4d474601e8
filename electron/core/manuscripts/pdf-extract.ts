/**
 * A PDF's text layer read with pdf.js (pdfjs-dist, legacy build for Node) into a Manuscript:
 * chapters from the outline (each mapped to its page, and to its place on the page when the
 * destination says), else from lines set in larger type, else one chapter; paragraphs from the
 * vertical gaps between lines; emphasis from the fonts' names (Italic/Oblique → em, Bold → strong).
 * Runs inside the reader's child process (manuscript-reader-child.ts) like every reader: a hostile
 * PDF may take gigabytes there, never in the app (reader-process.ts watches the child's time and
 * memory).
 */

import { AppError } from '../../shared/errors';
import {
  MANUSCRIPT_LIMITS,
  type EmphasisSpan,
  type Manuscript,
  type ManuscriptChapter,
  type ManuscriptParagraph,
  textLanguageOf,
} from '../../shared/manuscript';
import { tooManyParagraphs } from './errors';

/** pdf.js's display layer wants DOMMatrix at import; without @napi-rs/canvas, text does not use it. */
function installDomMatrixShim(): void {
  const scope = globalThis as { DOMMatrix?: unknown };
  scope.DOMMatrix ??= class DOMMatrix {
    a = 1;
    b = 0;
    c = 0;
    d = 1;
    e = 0;
    f = 0;
  };
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

let pdfjsLoaded: Promise<PdfJs> | undefined;
function loadPdfJs(): Promise<PdfJs> {
  installDomMatrixShim();
  pdfjsLoaded ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsLoaded;
}

/** One text run as pdf.js gives it, with what we need of its font. */
interface Run {
  text: string;
  x: number;
  y: number;
  width: number;
  size: number;
  emphasis: EmphasisSpan['kind'] | null;
}

/** A line of text: its runs left to right, on one baseline. */
interface Line {
  page: number;
  y: number;
  size: number;
  runs: Run[];
}

/** A paragraph being built: its text pieces with their emphasis. */
interface Block {
  page: number;
  y: number;
  size: number;
  pieces: { text: string; emphasis: EmphasisSpan['kind'] | null }[];
}

/** Where a chapter starts: page index and, when the outline says, the top of its place there. */
interface ChapterStart {
  title: string;
  page: number;
  top: number | null;
}

/** Reads a PDF's text layer into a Manuscript; throws AppError MANUSCRIPT_* naming the file. */
export async function extractPdf(bytes: Uint8Array, fileName: string): Promise<Manuscript> {
  const pdfjs = await loadPdfJs();
  let document: PdfDocument;
  try {
    document = await pdfjs.getDocument({
      data: bytes,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: true,
      verbosity: 0,
    }).promise;
  } catch (error) {
    throw openError(error, fileName);
  }
  try {
    return await readDocument(document, fileName);
  } finally {
    await document.destroy();
  }
}

function openError(error: unknown, fileName: string): AppError {
  const name = (error as { name?: string } | null)?.name;
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException') {
    return new AppError(
      'MANUSCRIPT_INVALID',
      `"${fileName}" is encrypted with a password: save it without one (or export its text) and import that.`,
      { file: fileName, format: 'pdf', reason: 'encrypted' },
    );
  }
  return new AppError(
    'MANUSCRIPT_INVALID',
    `"${fileName}" is not a readable PDF (${message}): it may be truncated or damaged.`,
    { file: fileName, format: 'pdf' },
  );
}

async function readDocument(document: PdfDocument, fileName: string): Promise<Manuscript> {
  const warnings: string[] = [];
  const lines: Line[] = [];
  let characters = 0;
  for (let index = 0; index < document.numPages; index += 1) {
    const page = await document.getPage(index + 1);
    const pageLines = await readPageLines(page, index);
    for (const line of pageLines) characters += line.runs.reduce((sum, run) => sum + run.text.length, 0);
    if (characters > MANUSCRIPT_LIMITS.characters) {
      throw new AppError(
        'MANUSCRIPT_TOO_LARGE',
        `"${fileName}" holds more than ${MANUSCRIPT_LIMITS.characters.toLocaleString('en')} characters of text, the most a manuscript may have.`,
        { file: fileName, limit_characters: MANUSCRIPT_LIMITS.characters },
      );
    }
    lines.push(...pageLines);
    page.cleanup();
  }
  if (!lines.some((line) => line.runs.some((run) => run.text.trim() !== ''))) {
    throw new AppError(
      'MANUSCRIPT_INVALID',
      `"${fileName}" has no text layer (its pages are pictures, as in a scan); OCR is not done here: import a version with text.`,
      { file: fileName, format: 'pdf', reason: 'no_text_layer' },
    );
  }

  const blocks = paragraphsOf(lines);
  if (blocks.length > MANUSCRIPT_LIMITS.paragraphs) throw tooManyParagraphs(fileName);
  const { info } = (await document.getMetadata().catch(() => ({ info: {} }))) as {
    info: Record<string, unknown>;
  };
  const title = metadataText(info.Title);
  const author = metadataText(info.Author);
  const language = metadataText(info.Language);

  const starts = await outlineStarts(document);
  let chapters: ManuscriptChapter[];
  if (starts.length > 0) {
    chapters = chaptersFromOutline(blocks, starts, title ?? untitled(fileName));
  } else {
    chapters = chaptersFromType(blocks);
    if (chapters.length > 1) {
      warnings.push('The PDF has no outline: chapters were taken from lines set in larger type.');
    } else {
      chapters = [{ title: title ?? untitled(fileName), kind: 'body', paragraphs: blocks.map(toParagraph) }];
      warnings.push('The PDF has no outline: its text is one chapter.');
    }
  }
  chapters = chapters.filter((chapter) => chapter.paragraphs.length > 0);
  return {
    fileName,
    format: 'pdf',
    title: title ?? chapters.find((chapter) => chapter.kind === 'body')?.title ?? null,
    author,
    language,
    cover: null,
    chapters,
    warnings,
    textLanguage: textLanguageOf(chapters),
  };
}

function metadataText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.normalize('NFC').trim();
  return text === '' ? null : text;
}

function untitled(fileName: string): string {
  return fileName.replace(/\.pdf$/i, '') || 'Untitled';
}

const ITALIC = /italic|oblique/i;
const BOLD = /bold|black|heavy|semibold|demi/i;

/** The page's text runs grouped into lines, top to bottom. */
async function readPageLines(page: PdfPage, pageIndex: number): Promise<Line[]> {
  const content = await page.getTextContent();
  const items = content.items.filter((item): item is Extract<typeof item, { str: string }> => 'str' in item);
  const fontNames = await pageFontNames(page, new Set(items.map((item) => item.fontName)));
  const lines: Line[] = [];
  let current: Line | null = null;
  for (const item of items) {
    const [, , c, d, x, y] = item.transform as number[];
    const size = Math.hypot(c ?? 0, d ?? 0) || item.height;
    const fontName = fontNames.get(item.fontName) ?? '';
    const emphasis = BOLD.test(fontName) ? 'strong' : ITALIC.test(fontName) ? 'em' : null;
    const run: Run = {
      text: item.str.normalize('NFC'),
      x: x ?? 0,
      y: y ?? 0,
      width: item.width,
      size,
      emphasis,
    };
    const sameLine = current && Math.abs(current.y - run.y) <= Math.max(current.size, size) * 0.3;
    if (current && sameLine) {
      current.runs.push(run);
      current.size = Math.max(current.size, run.text.trim() ? size : 0);
    } else if (run.text !== '' || item.hasEOL) {
      if (current) lines.push(current);
      current = { page: pageIndex, y: run.y, size: run.text.trim() ? size : 0, runs: [run] };
    }
    if (item.hasEOL && current) {
      lines.push(current);
      current = null;
    }
  }
  if (current) lines.push(current);
  return lines.filter((line) => line.runs.some((run) => run.text.trim() !== ''));
}

/** The PostScript names of the page's fonts (known once its operator list is read). */
async function pageFontNames(page: PdfPage, ids: Set<string>): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  try {
    await page.getOperatorList();
    for (const id of ids) {
      const font = page.commonObjs.has(id) ? (page.commonObjs.get(id) as { name?: unknown } | null) : null;
      if (typeof font?.name === 'string') names.set(id, font.name);
    }
  } catch {
    // Fonts unreadable: no emphasis, the text is still there.
  }
  return names;
}

/** The text of a line, with a space where two runs stand apart without one. */
function lineBlockPieces(line: Line): Block['pieces'] {
  const pieces: Block['pieces'] = [];
  let previous: Run | null = null;
  for (const run of line.runs) {
    if (previous && !/\s$/.test(previous.text) && !/^\s/.test(run.text)) {
      const gap = run.x - (previous.x + previous.width);
      if (gap > run.size * 0.15) pieces.push({ text: ' ', emphasis: null });
    }
    pieces.push({ text: run.text, emphasis: run.emphasis });
    previous = run;
  }
  return pieces;
}

/** Lines joined into paragraphs: a gap clearly wider than the usual line spacing starts a new one. */
function paragraphsOf(lines: Line[]): Block[] {
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i += 1) {
    const a = lines[i - 1]!;
    const b = lines[i]!;
    if (a.page === b.page && a.y > b.y) gaps.push((a.y - b.y) / Math.max(a.size, 1));
  }
  gaps.sort((x, y) => x - y);
  // The usual spacing inside a paragraph: low in the spread, as paragraph gaps may be as many.
  const usual = gaps.length > 0 ? gaps[Math.floor(gaps.length / 5)]! : 1.2;
  const blocks: Block[] = [];
  let block: Block | null = null;
  let last: Line | null = null;
  for (const line of lines) {
    const pieces = lineBlockPieces(line);
    let starts = !block || !last;
    if (block && last) {
      if (line.page !== last.page) {
        // A page break ends a paragraph only where its last line ends a sentence.
        starts = /[.!?…:"”»)]\s*$/.test(blockText(block));
      } else {
        const gap = (last.y - line.y) / Math.max(last.size, 1);
        starts = gap > usual * 1.35 || gap < 0 || Math.abs(line.size - last.size) > last.size * 0.15;
      }
    }
    if (starts || !block) {
      block = { page: line.page, y: line.y, size: line.size, pieces: [...pieces] };
      blocks.push(block);
    } else {
      joinLine(block, pieces);
    }
    last = line;
  }
  return blocks.filter((b) => blockText(b).trim() !== '');
}

function blockText(block: Block): string {
  return block.pieces.map((piece) => piece.text).join('');
}

/** Appends a line to a paragraph: a space between, or nothing after a word broken by a hyphen. */
function joinLine(block: Block, pieces: Block['pieces']): void {
  const last = block.pieces[block.pieces.length - 1];
  const first = pieces[0];
  if (last && first && /\p{L}-$/u.test(last.text) && /^\p{Ll}/u.test(first.text)) {
    last.text = last.text.slice(0, -1);
  } else if (last && !/\s$/.test(last.text) && first && !/^\s/.test(first.text)) {
    block.pieces.push({ text: ' ', emphasis: null });
  }
  block.pieces.push(...pieces);
}

/** A block as a paragraph: spaces tidied, emphasis as code-point spans (adjacent ones merged). */
function toParagraph(block: Block): ManuscriptParagraph {
  let text = '';
  let length = 0;
  const emphasis: EmphasisSpan[] = [];
  for (const piece of block.pieces) {
    let pieceText = piece.text.replace(/\s+/g, ' ');
    if (text === '' || text.endsWith(' ')) pieceText = pieceText.replace(/^ /, '');
    if (pieceText === '') continue;
    const start = length;
    const count = Array.from(pieceText).length;
    text += pieceText;
    length += count;
    if (!piece.emphasis) continue;
    const lead = Array.from(pieceText).length - Array.from(pieceText.trimStart()).length;
    const trail = Array.from(pieceText).length - Array.from(pieceText.trimEnd()).length;
    const span = { start: start + lead, end: start + count - trail, kind: piece.emphasis };
    if (span.end <= span.start) continue;
    const previous = emphasis[emphasis.length - 1];
    const between = previous ? Array.from(text).slice(previous.end, span.start).join('') : '';
    if (previous && previous.kind === span.kind && between.trim() === '') previous.end = span.end;
    else emphasis.push(span);
  }
  const trimmed = text.trimEnd();
  const total = Array.from(trimmed).length;
  return {
    text: trimmed,
    emphasis: emphasis
      .filter((span) => span.start < total)
      .map((span) => ({ ...span, end: Math.min(span.end, total) })),
  };
}

/** The outline's top-level entries with the page (and place) each points to, in reading order. */
async function outlineStarts(document: PdfDocument): Promise<ChapterStart[]> {
  const outline = await document.getOutline().catch(() => null);
  if (!outline) return [];
  const starts: ChapterStart[] = [];
  for (const item of outline) {
    try {
      const dest = typeof item.dest === 'string' ? await document.getDestination(item.dest) : item.dest;
      if (!Array.isArray(dest) || dest.length === 0) continue;
      const target = dest[0] as unknown;
      const page =
        typeof target === 'number'
          ? target
          : await document.getPageIndex(target as Parameters<PdfDocument['getPageIndex']>[0]);
      const kind = (dest[1] as { name?: string } | undefined)?.name;
      const top =
        (kind === 'XYZ' || kind === 'FitH' || kind === 'FitBH') &&
        typeof dest[kind === 'XYZ' ? 3 : 2] === 'number'
          ? (dest[kind === 'XYZ' ? 3 : 2] as number)
          : null;
      const title = item.title.normalize('NFC').replace(/\s+/g, ' ').trim();
      if (title) starts.push({ title, page, top });
    } catch {
      // An entry pointing nowhere is left out.
    }
  }
  return starts.sort((a, b) => a.page - b.page || (b.top ?? Infinity) - (a.top ?? Infinity));
}

/** Blocks cut at the outline's places; text before the first entry is front matter. */
function chaptersFromOutline(
  blocks: Block[],
  starts: ChapterStart[],
  frontTitle: string,
): ManuscriptChapter[] {
  const chapters: ManuscriptChapter[] = [{ title: frontTitle, kind: 'front', paragraphs: [] }];
  let next = 0;
  let chapterBlocks: Block[] = [];
  const flush = (): void => {
    const chapter = chapters[chapters.length - 1]!;
    chapter.paragraphs.push(...chapterBlocks.map(toParagraph));
    chapterBlocks = [];
  };
  for (const block of blocks) {
    while (next < starts.length && startsBefore(starts[next]!, block)) {
      flush();
      chapters.push({ title: starts[next]!.title, kind: 'body', paragraphs: [] });
      next += 1;
    }
    chapterBlocks.push(block);
  }
  flush();
  for (; next < starts.length; next += 1)
    chapters.push({ title: starts[next]!.title, kind: 'body', paragraphs: [] });
  for (const chapter of chapters) {
    // The chapter's own heading is its title, not a paragraph to read twice.
    const first = chapter.paragraphs[0];
    if (first && sameWords(first.text, chapter.title)) chapter.paragraphs.shift();
  }
  return chapters;
}

function startsBefore(start: ChapterStart, block: Block): boolean {
  if (block.page !== start.page) return block.page > start.page;
  return start.top === null || block.y <= start.top + block.size * 0.5;
}

function sameWords(a: string, b: string): boolean {
  const words = (text: string): string =>
    text
      .toLocaleLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  return words(a) === words(b);
}

/** Without an outline: a short paragraph set clearly larger than the body text is a heading. */
function chaptersFromType(blocks: Block[]): ManuscriptChapter[] {
  const weight = new Map<number, number>();
  for (const block of blocks) {
    const size = Math.round(block.size * 2) / 2;
    weight.set(size, (weight.get(size) ?? 0) + blockText(block).length);
  }
  const body = [...weight.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  const chapters: ManuscriptChapter[] = [];
  for (const block of blocks) {
    const text = blockText(block).replace(/\s+/g, ' ').trim();
    if (block.size >= body * 1.3 && text.length <= 120) {
      chapters.push({ title: text, kind: 'body', paragraphs: [] });
    } else if (chapters.length === 0) {
      chapters.push({ title: '', kind: 'front', paragraphs: [toParagraph(block)] });
    } else {
      chapters[chapters.length - 1]!.paragraphs.push(toParagraph(block));
    }
  }
  const front = chapters[0];
  if (front && front.title === '') front.title = 'Front matter';
  return chapters;
}
