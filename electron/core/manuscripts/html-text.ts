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

/** The attribute `name` of an element (`epub:type` as written), or undefined. */
export function htmlAttr(element: HtmlElement, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value;
}

/** The element's text, white space collapsed by the caller. */
export function htmlText(node: HtmlParent): string {
  let text = '';
  for (const child of node.childNodes) {
    if (child.nodeName === '#text') text += (child as DefaultTreeAdapterTypes.TextNode).value;
    else if ('childNodes' in child && !SKIPPED.has(child.nodeName)) text += htmlText(child);
  }
  return text;
}

/** Elements in document order under `node` (pre-order), including it when it is one. */
export function* htmlElements(node: HtmlParent): Generator<HtmlElement> {
  if ('tagName' in node) yield node;
  const children = node.nodeName === 'template' ? [] : node.childNodes;
  for (const child of children) if ('tagName' in child) yield* htmlElements(child);
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
    if (runs.some((run) => run.text.trim() !== '')) blocks.push({ type: 'paragraph', runs });
    runs = [];
  };

  const visit = (node: DefaultTreeAdapterTypes.ChildNode | HtmlParent): void => {
    if (node.nodeName === '#text') {
      const value = (node as DefaultTreeAdapterTypes.TextNode).value;
      runs.push({
        text: pre > 0 ? value : value.replace(/[\t\n\r\f]/g, ' '),
        emphasis: strong > 0 ? 'strong' : em > 0 ? 'em' : undefined,
      });
      return;
    }
    if (!('tagName' in node)) {
      if (node.nodeName === '#document' || node.nodeName === '#document-fragment') {
        for (const child of (node as HtmlParent).childNodes) visit(child);
      }
      return;
    }
    const tag = node.tagName.toLowerCase();
    if (SKIPPED.has(tag) || htmlAttr(node, 'hidden') !== undefined || skip(node)) return;
    if (tag === 'br') {
      runs.push({ text: '\n' });
      return;
    }
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      flush();
      for (const child of node.childNodes) visit(child);
      const text = runs.map((run) => run.text).join('');
      runs = [];
      if (text.trim()) blocks.push({ type: 'heading', level: Number(heading[1]), text });
      return;
    }
    const block = BLOCKS.has(tag);
    if (block) flush();
    if (EM.has(tag)) em++;
    if (STRONG.has(tag)) strong++;
    if (tag === 'pre') pre++;
    for (const child of node.childNodes) visit(child);
    if (EM.has(tag)) em--;
    if (STRONG.has(tag)) strong--;
    if (tag === 'pre') pre--;
    if (block) flush();
  };

  visit(root);
  flush();
  return blocks;
}
