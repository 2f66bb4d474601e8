/**
 * HTML and XHTML parsed with parse5 under MANUSCRIPT_LIMITS: a tree adapter that counts the
 * elements and comments parse5 creates and how deep it places each, and stops the parse at
 * the first one past a limit. parse5's tree building walks its stack of open elements, so
 * nesting is what makes a hostile file expensive (16 MB of nested inline markup took 70 s and
 * 1.5 GB); an element past the depth limit ends the parse there, before the cost grows.
 */

import {
  defaultTreeAdapter,
  parse,
  type DefaultTreeAdapterMap,
  type DefaultTreeAdapterTypes,
  type TreeAdapter,
} from 'parse5';
import { MANUSCRIPT_LIMITS } from '../../shared/manuscript';
import { nestedTooDeep, tooManyElements } from './errors';

type HtmlNode = DefaultTreeAdapterTypes.Node;

/**
 * The document in `html`; MANUSCRIPT_TOO_LARGE naming the file (and `part`, the document's name
 * inside it, null for an HTML file) when it nests deeper than MANUSCRIPT_LIMITS.nestingDepth or
 * holds more than htmlElements elements and comments.
 */
export function parseHtmlDocument(
  html: string,
  fileName: string,
  part: string | null,
): DefaultTreeAdapterTypes.Document {
  const depths = new WeakMap<HtmlNode, number>();
  let created = 0;
  const count = (): void => {
    if (++created > MANUSCRIPT_LIMITS.htmlElements) {
      throw tooManyElements(fileName, part, MANUSCRIPT_LIMITS.htmlElements);
    }
  };
  const place = (parent: HtmlNode, child: HtmlNode): void => {
    const depth = (depths.get(parent) ?? 0) + 1;
    if (depth > MANUSCRIPT_LIMITS.nestingDepth) throw nestedTooDeep(fileName, part);
    depths.set(child, depth);
  };
  const treeAdapter: TreeAdapter<DefaultTreeAdapterMap> = {
    ...defaultTreeAdapter,
    createElement(tagName, namespaceURI, attrs) {
      count();
      return defaultTreeAdapter.createElement(tagName, namespaceURI, attrs);
    },
    createCommentNode(data) {
      count();
      return defaultTreeAdapter.createCommentNode(data);
    },
    appendChild(parent, child) {
      place(parent, child);
      defaultTreeAdapter.appendChild(parent, child);
    },
    insertBefore(parent, child, reference) {
      place(parent, child);
      defaultTreeAdapter.insertBefore(parent, child, reference);
    },
    // A template's content is a fragment of its own: it starts as deep as the template.
    setTemplateContent(template, content) {
      depths.set(content, depths.get(template) ?? 0);
      defaultTreeAdapter.setTemplateContent(template, content);
    },
  };
  return parse(html, { treeAdapter });
}
