/**
 * Legacy Vietnamese text in an HTML or XHTML tree (an HTML manuscript, each XHTML document of an
 * EPUB): the document's text nodes judged together as a text file's are (legacy-vietnamese.ts
 * legacyEncodingOfText: TCVN3 or VNI codes standing as Latin-1 characters, as old pages in
 * `<font face=".VnTime">` or a windows-1252 charset hold them, or VIQR), then each text node
 * converted in place (a node in Unicode Vietnamese, such as a title line, is kept). Markup (tags, attributes) is untouched; scripts and styles are not text.
 * TCVN3 under a `.Vn…H` font (`<font face>` or a style's font-family) comes out in capitals.
 */

import type { DefaultTreeAdapterTypes } from 'parse5';
import {
  decodeLegacyName,
  fontEncoding,
  legacyEncodingOfText,
  type LegacyVietnameseEncoding,
} from './legacy-vietnamese';

type HtmlNode = DefaultTreeAdapterTypes.Node;
type TextNode = DefaultTreeAdapterTypes.TextNode;

const NOT_TEXT = new Set(['script', 'style', 'template']);

/** The font an element names: `<font face>`'s first name, else its style's font-family's. */
function fontOf(node: HtmlNode): string | null {
  if (!('attrs' in node)) return null;
  const face = node.attrs.find((a) => a.name === 'face')?.value;
  const style = node.attrs.find((a) => a.name === 'style')?.value;
  const family = style ? /font-family\s*:\s*([^;]+)/i.exec(style)?.[1] : undefined;
  const first = (face ?? family)
    ?.split(',')[0]
    ?.trim()
    .replace(/^["']|["']$/g, '');
  return first || null;
}

/** Text nodes in document order, each with whether a `.Vn…H` font holds it. */
function textNodes(root: HtmlNode): { node: TextNode; capitals: boolean }[] {
  const found: { node: TextNode; capitals: boolean }[] = [];
  // Iterative: nesting depth is the file's choice (html-parse.ts bounds it).
  const stack: { node: HtmlNode; capitals: boolean }[] = [{ node: root, capitals: false }];
  while (stack.length > 0) {
    const { node, capitals } = stack.pop()!;
    if (node.nodeName === '#text') {
      found.push({ node: node as TextNode, capitals });
      continue;
    }
    if (NOT_TEXT.has(node.nodeName) || !('childNodes' in node)) continue;
    const font = fontEncoding(fontOf(node));
    const inner = font ? font.encoding === 'tcvn3' && font.capitals : capitals;
    for (let i = node.childNodes.length - 1; i >= 0; i--)
      stack.push({ node: node.childNodes[i]!, capitals: inner });
  }
  return found;
}

/**
 * Converts the document's text to Unicode when it is in a legacy Vietnamese encoding; returns
 * that encoding, or null when the text is left as it was.
 */
export function convertLegacyHtml(document: HtmlNode): LegacyVietnameseEncoding | null {
  const nodes = textNodes(document);
  const encoding = legacyEncodingOfText(nodes.map(({ node }) => node.value).join('\n'));
  if (encoding === null) return null;
  for (const { node, capitals } of nodes) node.value = decodeLegacyName(node.value, encoding, capitals);
  return encoding;
}
