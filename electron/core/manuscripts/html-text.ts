/**
 * The text of an HTML or XHTML tree (parse5) as blocks in reading order: headings (h1–h6) and
 * paragraphs (p, div, li, blockquote, table cells… each block element ends the paragraph
 * before it) made of runs, em/i/cite → em and strong/b → strong. Scripts, styles, templates,
 * forms, pictures' markup, ruby annotations and hidden elements are left out; the caller
 * may leave out more (navigation, notes).
 */

import type { DefaultTreeAdapterTypes } from 'parse5';
import type { TextRun } from './builder';

export type HtmlElement = DefaultTreeAdapterTypes.Element;
type HtmlParent = DefaultTreeAdapterTypes.ParentNode;

export type HtmlBlock =
  { type: 'heading'; level: number; text: string } | { type: 'paragraph'; runs: TextRun[] };

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

function semanticTypes(element: HtmlElement): string[] {
  return `${htmlAttr(element, 'epub:type') ?? ''} ${htmlAttr(element, 'role') ?? ''}`
    .split(/\s+/)
    .filter(Boolean);
}

/** A note's call in the text (`epub:type="noteref"`, `role="doc-noteref"`): its number is not read. */
export function isNoteReference(element: HtmlElement): boolean {
  return semanticTypes(element).some((type) => NOTEREF_TYPES.has(type));
}

/** A footnote or endnote (`epub:type="footnote"`, `role="doc-endnote"`…). */
export function isNote(element: HtmlElement): boolean {
  return semanticTypes(element).some((type) => NOTE_TYPES.has(type));
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
    else if (!SKIPPED.has(current.nodeName)) pushChildren(stack, current);
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

/** Where an element's content ends, while walking (undoes what its start did). */
interface ElementEnd {
  end: string;
  block: boolean;
  heading: number;
}

/** Blocks of text under `root`; `skip(element)` true leaves an element out with its content. */
export function htmlBlocks(
  root: HtmlParent,
  skip: (element: HtmlElement) => boolean = () => false,
): HtmlBlock[] {
  const blocks: HtmlBlock[] = [];
  let runs: TextRun[] = [];
  let em = 0;
  let strong = 0;
  let pre = 0;

  const flush = (): void => {
    if (runs.length > 0 && runs.some((run) => /\S/.test(run.text))) blocks.push({ type: 'paragraph', runs });
    runs = [];
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
        const text = runs.map((run) => run.text).join('');
        runs = [];
        if (text.trim()) blocks.push({ type: 'heading', level: item.heading, text });
      } else if (item.block) flush();
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
    if (SKIPPED.has(tag) || htmlAttr(node, 'hidden') !== undefined || skip(node)) continue;
    if (tag === 'br') {
      runs.push({ text: '\n' });
      continue;
    }
    const heading = /^h([1-6])$/.exec(tag);
    const block = BLOCKS.has(tag);
    if (heading || block) flush();
    if (EM.has(tag)) em++;
    if (STRONG.has(tag)) strong++;
    if (tag === 'pre') pre++;
    stack.push({ end: tag, block, heading: heading ? Number(heading[1]) : 0 });
    pushChildren(stack, node);
  }
  flush();
  return blocks;
}
