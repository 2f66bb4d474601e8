/**
 * The text of an HTML or XHTML tree (parse5) as blocks in reading order: headings (h1–h6) and
 * paragraphs (p, div, li, blockquote, table cells… each block element ends the paragraph
 * before it) made of runs, em/i/cite → em and strong/b → strong. Scripts, styles, templates,
 * forms, pictures' markup, ruby annotations, hidden elements and print page numbers
 * (isPageBreak) are left out; the caller may leave out more (navigation, notes).
 *
 * Line breaks (`<br>`), as books are made: an empty line (`<br><br>`, a line of only spaces or
 * `&nbsp;`) always ends the paragraph. A single `<br>` is a line break inside the paragraph
 * (verse, an address) when it stands in a `<p>` or `<div>` with a `<p>` beside it (a book whose
 * paragraphs are `<p>`s), or in li, dt, dd, blockquote, td, th, address, caption, figcaption,
 * legend, summary or a heading, and none of that block's lines is longer than VERSE_LINE_MAX;
 * anywhere else (a `<div>`, `<section>` or `<body>` holding the text, as reading sites such as
 * vnthuquan make their books; a `<p>` holding a whole chapter) each line is a paragraph.
 * `<pre>` keeps its lines as written. A block styled as a chapter's name line (vnthuquan's
 * `<div class="chuong">`) is a level-2 heading.
 */

import type { DefaultTreeAdapterTypes } from 'parse5';
import { plainText, type TextRun } from './builder';
import type { BookTitle } from './titles';

export type HtmlElement = DefaultTreeAdapterTypes.Element;
type HtmlParent = DefaultTreeAdapterTypes.ParentNode;

/**
 * `styledAsTitle`: the paragraph stands in an element styled as a title (class="title", epub:type="title").
 * `chapterLine`: a heading that is a block styled as a chapter's name (CHAPTER_LINE_STYLES), given level 2.
 */
export type HtmlBlock = (
  | { type: 'heading'; level: number; text: string; styledAsTitle: boolean; chapterLine?: boolean }
  | { type: 'paragraph'; runs: TextRun[]; styledAsTitle: boolean }
) & {
  /** The ids asked for (`anchors` of htmlBlocks) of elements opened since the block before: they start here. */
  anchors?: string[];
};

/** A block's text, as one string (a heading's, or its runs' joined). */
export function htmlBlockText(block: HtmlBlock): string {
  return block.type === 'heading' ? block.text : block.runs.map((run) => run.text).join('');
}

/** A block as the runs of a paragraph (a heading read as a line of text). */
export function htmlBlockRuns(block: HtmlBlock): TextRun[] {
  return block.type === 'heading' ? [{ text: block.text }] : block.runs;
}

/** A line longer than this (characters) is prose: the `<br>`s of its block end paragraphs. */
export const VERSE_LINE_MAX = 200;

/** Blocks whose single `<br>`s are line breaks (lists, quotes, cells, captions: lines by nature). */
const LINE_BLOCKS = new Set([
  'li',
  'dt',
  'dd',
  'blockquote',
  'td',
  'th',
  'address',
  'caption',
  'figcaption',
  'legend',
  'summary',
]);

/**
 * Classes that style a block as its chapter's name line: vnthuquan's `<div class="chuong">`, read
 * as a level-2 heading (the chapter's title), not as its first paragraph.
 */
const CHAPTER_LINE_STYLES = new Set(['chuong']);

/** Class and epub:type tokens that style a block as the book's title. */
const TITLE_STYLES = new Set(['title', 'booktitle', 'book-title', 'fulltitle']);

const SKIPPED = new Set([
  'head',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'rt',
  'rp',
  'iframe',
  'object',
  'embed',
  'audio',
  'video',
  'canvas',
  'select',
  'button',
  'input',
  'textarea',
]);

const BLOCKS = new Set([
  'html',
  'body',
  'p',
  'div',
  'li',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'blockquote',
  'section',
  'article',
  'aside',
  'header',
  'footer',
  'main',
  'nav',
  'figure',
  'figcaption',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'pre',
  'hr',
  'address',
  'center',
  'details',
  'summary',
  'form',
  'fieldset',
  'legend',
  'hgroup',
]);

const EM = new Set(['em', 'i', 'cite', 'dfn']);
const STRONG = new Set(['strong', 'b']);

const NOTE_TYPES = new Set(['footnote', 'endnote', 'rearnote', 'note', 'doc-footnote', 'doc-endnote']);
const NOTEREF_TYPES = new Set(['noteref', 'doc-noteref']);
/** Print page numbers and lists of them: never text, never a chapter. */
const PAGE_BREAK_TYPES = new Set(['pagebreak', 'doc-pagebreak', 'page-list', 'doc-pagelist']);

function semanticTypes(element: HtmlElement): string[] {
  return `${htmlAttr(element, 'epub:type') ?? ''} ${htmlAttr(element, 'role') ?? ''}`
    .split(/\s+/)
    .filter(Boolean);
}

/** A note's call in the text (`epub:type="noteref"`, `role="doc-noteref"`): its number is not read. */
export function isNoteReference(element: HtmlElement): boolean {
  return semanticTypes(element).some((type) => NOTEREF_TYPES.has(type));
}

/** A note's link back to its call (`epub:type="backlink"`, `role="doc-backlink"`, the "↩"). */
export function isNoteBacklink(element: HtmlElement): boolean {
  return semanticTypes(element).some((type) => type === 'backlink' || type === 'doc-backlink');
}

/** A footnote or endnote (`epub:type="footnote"`, `role="doc-endnote"`…). */
export function isNote(element: HtmlElement): boolean {
  return semanticTypes(element).some((type) => NOTE_TYPES.has(type));
}

/**
 * A print page's number (`epub:type="pagebreak"`, `role="doc-pagebreak"`) or a list of them
 * (`epub:type="page-list"`, `role="doc-pagelist"`): left out of the text and of titles everywhere,
 * so "…except as <span epub:type="pagebreak">176</span> a means…" reads "…except as a means…".
 */
export function isPageBreak(element: HtmlElement): boolean {
  return semanticTypes(element).some((type) => PAGE_BREAK_TYPES.has(type));
}

/** The attribute `name` of an element (`epub:type` as written), or undefined. */
export function htmlAttr(element: HtmlElement, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value;
}

type HtmlNode = DefaultTreeAdapterTypes.ChildNode | HtmlParent;

function childrenOf(node: HtmlNode): DefaultTreeAdapterTypes.ChildNode[] {
  if (node.nodeName === 'template' || !('childNodes' in node)) return [];
  return node.childNodes;
}

/** Pushes a node's children so the first pops first (a loop: a spread of 200,000 arguments would overflow). */
function pushChildren(stack: unknown[], node: HtmlNode): void {
  const children = childrenOf(node);
  for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
}

/** The element's text, white space collapsed by the caller (iterative: nesting depth is the file's choice). */
export function htmlText(node: HtmlParent): string {
  let text = '';
  const stack: HtmlNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.nodeName === '#text') text += (current as DefaultTreeAdapterTypes.TextNode).value;
    else if (!SKIPPED.has(current.nodeName) && !('tagName' in current && isPageBreak(current)))
      pushChildren(stack, current);
  }
  return text;
}

/** Elements in document order under `node` (pre-order), including it when it is one. */
export function* htmlElements(node: HtmlParent): Generator<HtmlElement> {
  const stack: HtmlNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if ('tagName' in current) yield current;
    const children = childrenOf(current);
    for (let i = children.length - 1; i >= 0; i--) if ('childNodes' in children[i]!) stack.push(children[i]!);
  }
}

/** A block element being read: how its `<br>`s count. */
interface BlockContext {
  keepsLines: boolean;
  pre: boolean;
  styledAsTitle: boolean;
  /** Inside a block styled as a chapter's name line: its text is a heading. */
  chapterLine: boolean;
}

/** Where an element's content ends, while walking (undoes what its start did). */
interface ElementEnd {
  end: string;
  block: boolean;
  heading: number;
}

/** The run a `<br>` makes (compared by identity: a `\n` in `<pre>` text is not one). */
const LINE_BREAK: TextRun = { text: '\n' };

function hasText(runs: readonly TextRun[]): boolean {
  return runs.some((run) => /\S/.test(run.text));
}

function textLength(runs: readonly TextRun[]): number {
  let length = 0;
  for (const run of runs) length += run.text.length;
  return length;
}

function isStyledAsTitle(element: HtmlElement): boolean {
  return `${htmlAttr(element, 'class') ?? ''} ${htmlAttr(element, 'epub:type') ?? ''}`
    .toLowerCase()
    .split(/\s+/)
    .some((token) => TITLE_STYLES.has(token));
}

function isChapterLine(element: HtmlElement): boolean {
  return (htmlAttr(element, 'class') ?? '')
    .toLowerCase()
    .split(/\s+/)
    .some((token) => CHAPTER_LINE_STYLES.has(token));
}

/** `<p>` children of each parent, counted once (a parent of 200,000 paragraphs is not walked per child). */
class ParagraphSiblings {
  private readonly counts = new WeakMap<HtmlNode, number>();

  /** Whether `element` has a `<p>` beside it under its parent. */
  besides(element: HtmlElement): boolean {
    const parent = element.parentNode;
    if (!parent) return false;
    let count = this.counts.get(parent);
    if (count === undefined) {
      count = childrenOf(parent).filter((child) => child.nodeName === 'p').length;
      this.counts.set(parent, count);
    }
    return count - (element.tagName === 'p' ? 1 : 0) > 0;
  }
}

/**
 * Splits a block's runs into paragraphs at its `<br>` lines (the rule in this file's comment):
 * an empty line always ends a paragraph; a single `<br>` stays a line break when `keepsLines`
 * and no line is longer than VERSE_LINE_MAX.
 */
function paragraphsOfLines(runs: readonly TextRun[], keepsLines: boolean): TextRun[][] {
  const lines: TextRun[][] = [[]];
  for (const run of runs) {
    if (run === LINE_BREAK) lines.push([]);
    else lines.at(-1)!.push(run);
  }
  const keep = keepsLines && lines.every((line) => textLength(line) <= VERSE_LINE_MAX);
  const paragraphs: TextRun[][] = [];
  let paragraph: TextRun[] = [];
  for (const line of lines) {
    if (!hasText(line)) {
      if (paragraph.length > 0) paragraphs.push(paragraph);
      paragraph = [];
      continue;
    }
    if (paragraph.length > 0) {
      if (keep) paragraph.push(LINE_BREAK);
      else {
        paragraphs.push(paragraph);
        paragraph = [];
      }
    }
    for (const run of line) paragraph.push(run);
  }
  if (paragraph.length > 0) paragraphs.push(paragraph);
  return paragraphs;
}

/**
 * Blocks of text under `root`; `skip(element, blocks)` true leaves an element out with its
 * content (`blocks`: how many blocks came before, so the element stands in block `blocks`). An
 * element whose id is in `anchors` (a table of contents' fragments) marks the block that starts
 * there (`HtmlBlock.anchors`); one opening inside a paragraph ends that paragraph, one inside a
 * heading marks the heading.
 */
export function htmlBlocks(
  root: HtmlParent,
  skip: (element: HtmlElement, blocks: number) => boolean = () => false,
  anchors: ReadonlySet<string> = new Set(),
): HtmlBlock[] {
  const blocks: HtmlBlock[] = [];
  let pendingAnchors: string[] = [];
  const push = (block: HtmlBlock): void => {
    if (pendingAnchors.length > 0) {
      block.anchors = pendingAnchors;
      pendingAnchors = [];
    }
    blocks.push(block);
  };
  let headingDepth = 0;
  let runs: TextRun[] = [];
  let em = 0;
  let strong = 0;
  let pre = 0;
  // Text standing directly in the root (or body, section…) is read as a vnthuquan <div>'s.
  const contexts: BlockContext[] = [
    { keepsLines: false, pre: false, styledAsTitle: false, chapterLine: false },
  ];
  const siblings = new ParagraphSiblings();

  const flush = (): void => {
    const context = contexts.at(-1)!;
    const taken = runs;
    runs = [];
    if (!hasText(taken)) return;
    if (context.chapterLine) {
      const text = taken.map((run) => run.text).join('');
      push({
        type: 'heading',
        level: 2,
        text,
        styledAsTitle: context.styledAsTitle,
        chapterLine: true,
      });
      return;
    }
    const paragraphs = context.pre ? [taken] : paragraphsOfLines(taken, context.keepsLines);
    for (const paragraph of paragraphs) {
      push({ type: 'paragraph', runs: paragraph, styledAsTitle: context.styledAsTitle });
    }
  };

  // Iterative, so a file nesting 100,000 elements deep costs memory, not the call stack.
  const stack: (HtmlNode | ElementEnd)[] = [root];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ('end' in item) {
      const tag = item.end;
      if (EM.has(tag)) em--;
      if (STRONG.has(tag)) strong--;
      if (tag === 'pre') pre--;
      if (item.heading > 0) {
        headingDepth--;
        const text = runs.map((run) => run.text).join('');
        runs = [];
        const styledAsTitle = contexts.pop()!.styledAsTitle;
        if (text.trim()) push({ type: 'heading', level: item.heading, text, styledAsTitle });
      } else if (item.block) {
        flush();
        contexts.pop();
      }
      continue;
    }
    const node = item;
    if (node.nodeName === '#text') {
      const value = (node as DefaultTreeAdapterTypes.TextNode).value;
      runs.push({
        text: pre > 0 ? value : value.replace(/[\t\n\r\f]/g, ' '),
        emphasis: strong > 0 ? 'strong' : em > 0 ? 'em' : undefined,
      });
      continue;
    }
    if (!('tagName' in node)) {
      if (node.nodeName === '#document' || node.nodeName === '#document-fragment') {
        pushChildren(stack, node);
      }
      continue;
    }
    const tag = node.tagName.toLowerCase();
    const id = anchors.size > 0 ? htmlAttr(node, 'id') : undefined;
    if (id !== undefined && anchors.has(id)) {
      // A table of contents may point at a page break or an empty <a id>: the anchor counts before the skipping.
      if (headingDepth === 0) flush();
      pendingAnchors.push(id);
    }
    if (
      SKIPPED.has(tag) ||
      htmlAttr(node, 'hidden') !== undefined ||
      isPageBreak(node) ||
      skip(node, blocks.length)
    )
      continue;
    if (tag === 'br') {
      runs.push(LINE_BREAK);
      continue;
    }
    const heading = /^h([1-6])$/.exec(tag);
    const block = BLOCKS.has(tag);
    if (heading || block) {
      flush();
      const inPre = pre > 0 || tag === 'pre';
      contexts.push({
        keepsLines:
          heading !== null ||
          LINE_BLOCKS.has(tag) ||
          ((tag === 'p' || tag === 'div') && siblings.besides(node)),
        pre: inPre,
        styledAsTitle: isStyledAsTitle(node) || contexts.at(-1)!.styledAsTitle,
        chapterLine: isChapterLine(node) || contexts.at(-1)!.chapterLine,
      });
    }
    if (EM.has(tag)) em++;
    if (STRONG.has(tag)) strong++;
    if (tag === 'pre') pre++;
    if (heading) headingDepth++;
    stack.push({ end: tag, block, heading: heading ? Number(heading[1]) : 0 });
    pushChildren(stack, node);
  }
  flush();
  return blocks;
}

/**
 * Whether a block is the book's title (an h1/h2 or a block styled as a title that is the title,
 * or that gives it when the book has none): neither text nor a chapter.
 */
export function isBookTitle(block: HtmlBlock, title: BookTitle): boolean {
  if (block.type === 'heading' ? block.level > 2 && !block.styledAsTitle : !block.styledAsTitle) return false;
  return title.claims(plainText(htmlBlockText(block)), block.styledAsTitle);
}
