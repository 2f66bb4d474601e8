/**
 * XML parts of DOCX, ODT and EPUB read with saxes (streaming events), under the limits of
 * MANUSCRIPT_LIMITS, and the entity guard every XML part of a manuscript goes through.
 *
 * saxes runs with its namespace support off: it resolves a prefix by walking the stack of open
 * elements, so a part nesting 50,000 elements costs minutes (quadratic in depth). Prefixes are
 * resolved here instead, from a stack of bindings per prefix (constant time), and the nesting
 * depth and element count are checked as each element opens, before any work grows.
 *
 * Entities: a DOCTYPE with an internal subset (where entities are declared: "billion laughs",
 * external files) is refused before anything is expanded; saxes expands no entity it was not
 * built with and refuses undefined ones. Parts another parser reads (fast-xml-parser, which
 * expands declared entities, and parse5) go through refuseEntityDeclarations, which does not
 * depend on the document being well-formed.
 */

import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { isAppError } from '../../shared/errors';
import { MANUSCRIPT_LIMITS, type ManuscriptFormat } from '../../shared/manuscript';
import { invalidManuscript, nestedTooDeep, tooManyElements } from './errors';

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

export interface XmlAttribute {
  /** The name without its prefix. */
  local: string;
  /** The namespace of its prefix ('' without one: attributes take no default namespace). */
  uri: string;
  value: string;
}

/** An element as the handlers see it: its namespace, its name without prefix, its attributes. */
export interface XmlTag {
  uri: string;
  local: string;
  attributes: readonly XmlAttribute[];
}

export interface XmlHandlers {
  open?(tag: XmlTag): void;
  close?(tag: XmlTag): void;
  text?(text: string): void;
}

/** Where a part is: for messages. */
export interface XmlPart {
  fileName: string;
  format: ManuscriptFormat;
  /** The part's name inside the file (`word/document.xml`). */
  part: string;
}

function entityRefusal(where: XmlPart): Error {
  return invalidManuscript(
    where.fileName,
    where.format,
    `${where.part} declares entities in a DOCTYPE (refused: entity expansion such as "billion laughs")`,
    undefined,
    'entities',
  );
}

/** The namespaces bound where the parser is: a stack of URIs per prefix, so a lookup is one step. */
class NamespaceScopes {
  private readonly bound = new Map<string, string[]>([
    ['xml', [XML_NS]],
    ['xmlns', [XMLNS_NS]],
  ]);
  /** The prefixes each open element declared, innermost last (null: none). */
  private readonly declared: (string[] | null)[] = [];

  open(attributes: Readonly<Record<string, string>>): void {
    let declared: string[] | null = null;
    for (const name in attributes) {
      const prefix = name === 'xmlns' ? '' : name.startsWith('xmlns:') ? name.slice(6) : null;
      if (prefix === null) continue;
      (declared ??= []).push(prefix);
      const stack = this.bound.get(prefix);
      if (stack) stack.push(attributes[name]!);
      else this.bound.set(prefix, [attributes[name]!]);
    }
    this.declared.push(declared);
  }

  close(): void {
    for (const prefix of this.declared.pop() ?? []) this.bound.get(prefix)!.pop();
  }

  /** The URI bound to `prefix`; '' for no prefix without a default namespace; undefined when unbound. */
  uri(prefix: string): string | undefined {
    const uri = this.bound.get(prefix)?.at(-1);
    return uri ?? (prefix === '' ? '' : undefined);
  }
}

function splitName(name: string): { prefix: string; local: string } {
  const colon = name.indexOf(':');
  return colon < 0
    ? { prefix: '', local: name }
    : { prefix: name.slice(0, colon), local: name.slice(colon + 1) };
}

/**
 * Parses `xml`, calling the handlers in document order. MANUSCRIPT_INVALID naming the part when
 * it is not well-formed (or uses a prefix it never bound); MANUSCRIPT_TOO_LARGE naming the part
 * and the limit when it nests deeper than MANUSCRIPT_LIMITS.nestingDepth or holds more than
 * xmlElements elements.
 */
export function parseXml(xml: string, where: XmlPart, handlers: XmlHandlers = {}): void {
  const parser = new SaxesParser<{ fileName: string; xmlns: false }>({ fileName: where.part, xmlns: false });
  const scopes = new NamespaceScopes();
  const open: XmlTag[] = [];
  let elements = 0;
  parser.on('doctype', (doctype) => {
    if (doctype.includes('[')) throw entityRefusal(where);
  });
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentagstart', () => {
    elements++;
    if (elements > MANUSCRIPT_LIMITS.xmlElements) {
      throw tooManyElements(where.fileName, where.part, MANUSCRIPT_LIMITS.xmlElements);
    }
    if (open.length >= MANUSCRIPT_LIMITS.nestingDepth) throw nestedTooDeep(where.fileName, where.part);
  });
  parser.on('opentag', (saxesTag: SaxesTagPlain) => {
    scopes.open(saxesTag.attributes);
    const tag = resolveTag(saxesTag, scopes, where);
    open.push(tag);
    handlers.open?.(tag);
  });
  parser.on('closetag', () => {
    const tag = open.pop()!;
    handlers.close?.(tag);
    scopes.close();
  });
  if (handlers.text) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  try {
    parser.write(xml).close();
  } catch (error) {
    if (isAppError(error)) throw error;
    throw notWellFormed(where, (error as Error).message, error);
  }
}

function resolveTag(saxesTag: SaxesTagPlain, scopes: NamespaceScopes, where: XmlPart): XmlTag {
  const { prefix, local } = splitName(saxesTag.name);
  const uri = scopes.uri(prefix);
  if (uri === undefined) throw notWellFormed(where, `unbound namespace prefix "${prefix}"`);
  const attributes: XmlAttribute[] = [];
  for (const name in saxesTag.attributes) {
    const split = splitName(name);
    const attributeUri = split.prefix === '' ? (name === 'xmlns' ? XMLNS_NS : '') : scopes.uri(split.prefix);
    if (attributeUri === undefined) throw notWellFormed(where, `unbound namespace prefix "${split.prefix}"`);
    attributes.push({ local: split.local, uri: attributeUri, value: saxesTag.attributes[name]! });
  }
  return { uri, local, attributes };
}

function notWellFormed(where: XmlPart, reason: string, cause?: unknown): Error {
  return invalidManuscript(
    where.fileName,
    where.format,
    `${where.part} is not well-formed XML (${reason})`,
    cause,
  );
}

/** `<!DOCTYPE` and `<!ENTITY`, in any case (a lenient parser may take either). */
const DECLARATION = /<!(doctype|entity)/gi;

/**
 * Refuses a document that declares entities, whatever it is otherwise: a DOCTYPE with an
 * internal subset (`[`, outside its quoted identifiers) or an `<!ENTITY` anywhere, comments,
 * processing instructions and broken markup before it notwithstanding (a lenient parser may
 * read past what a strict one stops at). For parts another parser reads (fast-xml-parser,
 * parse5); a book's text never holds either (its `<` is escaped).
 */
export function refuseEntityDeclarations(xml: string, where: XmlPart): void {
  for (const match of xml.matchAll(DECLARATION)) {
    if (match[1]!.toLowerCase() === 'entity' || hasInternalSubset(xml, match.index + match[0].length)) {
      throw entityRefusal(where);
    }
  }
}

/** Whether the DOCTYPE whose name starts at `from` opens an internal subset before it ends. */
function hasInternalSubset(xml: string, from: number): boolean {
  let quote: string | null = null;
  for (let i = from; i < xml.length; i++) {
    const c = xml[i]!;
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') return true;
    else if (c === '>') return false;
  }
  // Never closed: whatever a lenient parser makes of it, it is not a plain DOCTYPE.
  return true;
}

/**
 * Checks a part before another parser reads it (fast-xml-parser): no entity declarations,
 * well-formed XML (a document saxes refuses never reaches the lenient parser), within the
 * nesting and element limits.
 */
export function checkXml(xml: string, where: XmlPart): void {
  refuseEntityDeclarations(xml, where);
  parseXml(xml, where);
}

/** The attribute `local` of namespace `uri` (any of `uris`), or undefined. */
export function attr(tag: XmlTag, uris: string | readonly string[], local: string): string | undefined {
  for (const attribute of tag.attributes) {
    if (
      attribute.local === local &&
      (typeof uris === 'string' ? attribute.uri === uris : uris.includes(attribute.uri))
    ) {
      return attribute.value;
    }
  }
  return undefined;
}

/** An OOXML/ODF on-off value: absent or "true"/"1"/"on" is on. */
export function onOff(value: string | undefined): boolean {
  return value === undefined || !(value === 'false' || value === '0' || value === 'off' || value === 'none');
}
