/**
 * The markup of an SSML document read with saxes (the XML parser the manuscript and lexicon
 * readers use): text, start tags, end tags and CDATA in order, each with its offset in the source,
 * for ssml.ts to build the document from. Comments and processing instructions are skipped; a
 * document type declaration fails.
 *
 * saxes says where it stands when an event fires; the API's errors and warnings name where a
 * tag, an attribute's name or an entity starts. These are found in the source from there: text
 * holds no "<", so a tag starts at the first "<" after the markup before it, and text runs up to
 * it; an attribute's name starts at the first non-space after the tag's name or the attribute
 * before it; an entity runs from a "&" to the next ";". saxes's well-formedness errors become
 * SSML errors in the API's words (SAXES_PROBLEMS); the ones ssml.ts says better itself (a wrong
 * or missing end tag, text outside <speak>, a second root) are left to it.
 */

import { SaxesParser } from 'saxes';
import type { SsmlErrorAbout } from './ssml';

/** Throws the SSML error at `at` of the source being read. */
export type Fail = (at: number, message: string, about?: SsmlErrorAbout) => never;

/** An attribute's value (entities resolved) and the offset of its name. */
export type SsmlAttributes = Map<string, { value: string; at: number }>;

/** What the reader hands on, in document order. */
export interface SsmlMarkupHandler {
  /**
   * Text between tags, entities resolved; `at`: the offset of its first non-space character
   * (of its start when it is blank).
   */
  text(value: string, at: number): void;
  /** The content of a CDATA section. */
  cdata(text: string, at: number): void;
  start(name: string, at: number, attributes: SsmlAttributes, selfClosing: boolean): void;
  end(name: string, at: number): void;
}

/** saxes's well-formedness errors that ssml.ts reports itself, in its own words, from the events. */
const LEFT_TO_SSML = [
  'text data outside of root node.',
  'documents may contain only one root.',
  'document must contain a root element.',
  'unexpected close tag.',
  'unclosed tag: ',
];

/** What is being read when saxes reports a problem: the source, and where saxes and the reader stand. */
interface Place {
  source: string;
  /** saxes's position: just after the character it read last. */
  position: number;
  /** Where the markup read last ends. */
  markupEnd: number;
  /** The name of the start tag being read. */
  tagName: string;
  /** Where the tag's name or the attribute read last ends. */
  attributeEnd: number;
}

interface Problem {
  at: number;
  message: string;
  about: SsmlErrorAbout;
}

const syntax = (at: number, message: string, about: Omit<SsmlErrorAbout, 'reason'> = {}): Problem => ({
  at,
  message,
  about: { reason: 'syntax', ...about },
});

/** An XML name at the start of a text (letters, digits, "_", ":", ".", "-"). */
const NAME = /^[\p{L}\p{M}\p{N}_:.\-\u00B7]*/u;

/** The name that starts at `at` (empty when none does). */
const nameAt = (source: string, at: number): string => NAME.exec(source.slice(at))?.[0] ?? '';

/** The offset of the first non-space character at or after `from`. */
const nonSpaceFrom = (source: string, from: number): number => {
  const skipped = source.slice(from).search(/\S/u);
  return skipped < 0 ? source.length : from + skipped;
};

/** The attribute whose name starts at the first non-space after `attributeEnd`. */
const attributeName = (place: Place): string =>
  nameAt(place.source, nonSpaceFrom(place.source, place.attributeEnd));

/** The name of the tag whose "<" (or "</") is the first after the markup read last. */
const tagName = (place: Place): string => {
  const at = place.source.indexOf('<', place.markupEnd);
  return nameAt(place.source, place.source.startsWith('</', at) ? at + 2 : at + 1);
};

/** The entity error of the entity `whole` (from its "&" to its ";", or all that follows). */
function entityProblem(at: number, whole: string): Problem {
  const about = { reason: 'entity', value: whole } as const;
  if (!/^&[^;&\s<]*;$/u.test(whole))
    return { at, message: '"&" must start an entity such as &amp;', about: { ...about, value: '&' } };
  if (whole.startsWith('&#')) return { at, message: `"${whole}" is not a valid character reference`, about };
  return { at, message: `unknown entity "${whole}" (use &amp; &lt; &gt; &quot; &apos;)`, about };
}

/**
 * The "&" of the entity whose ";" is at `end` (the source's length: none): each "&" outside
 * comments and CDATA opens an entity, up to the next ";".
 */
const entityStart = (place: Place, end: number): number =>
  place.source.indexOf('&', Math.max(place.markupEnd, place.source.lastIndexOf(';', end - 1) + 1));

/** The document ended inside an entity, a tag, a comment, a CDATA section or a processing instruction. */
function unfinished(place: Place): Problem {
  const { source } = place;
  const at = source.indexOf('<', place.markupEnd);
  const opened = (open: string, what: string, close: string) =>
    at >= 0 && source.startsWith(open, at)
      ? syntax(at, `the ${what} is not closed with ${close}`)
      : undefined;
  const inside =
    opened('<!--', 'comment', '-->') ??
    opened('<![CDATA[', 'CDATA section', ']]>') ??
    opened('<?', 'processing instruction', '?>');
  if (inside) return inside;
  const amp = entityStart(place, source.length);
  if (amp >= 0) return entityProblem(amp, source.slice(amp));
  if (at < 0) return syntax(source.length, 'the document ends too early');
  const name = tagName(place);
  if (name === '') return syntax(at + (source.startsWith('</', at) ? 2 : 1), 'a tag name is expected here');
  if (source.startsWith('</', at))
    return syntax(nonSpaceFrom(source, at + 2 + name.length), `">" expected to end </${name}>`, {
      tag: name,
    });
  return syntax(at, `<${name}> is not closed with ">"`, { tag: name });
}

/** An entity saxes could not resolve: from its "&" to where saxes stands (after its ";"). */
function badEntity(place: Place): Problem {
  const at = entityStart(place, place.position - 1);
  return entityProblem(at, place.source.slice(at, place.position));
}

/** Where saxes stopped, a name was expected. */
const nameExpected = (place: Place): Problem => syntax(place.position - 1, 'a tag name is expected here');

/** Where saxes stopped, after the start tag `name`'s name or an attribute, a space was expected. */
const spaceExpected = (place: Place, name: string): Problem =>
  syntax(place.position - 1, `a space is expected before an attribute of <${name}>`, { tag: name });

/** saxes's messages, in the API's words at the place they are about. */
const SAXES_PROBLEMS: Record<string, (place: Place) => Problem> = {
  'undefined entity.': badEntity,
  'disallowed character in entity name.': badEntity,
  'malformed character entity.': badEntity,
  'empty entity name.': badEntity,
  'unexpected end.': unfinished,
  'disallowed character in tag name': nameExpected,
  'weird empty close tag.': nameExpected,
  // In a start tag's name: the name read so far is the tag's (saxes has not named it yet).
  'disallowed character in tag name.': (place) => spaceExpected(place, tagName(place)),
  'no whitespace between attributes.': (place) => spaceExpected(place, place.tagName),
  'disallowed character in closing tag.': (place) => {
    const name = tagName(place);
    return name === ''
      ? nameExpected(place)
      : syntax(place.position - 1, `">" expected to end </${name}>`, { tag: name });
  },
  'inappropriately located doctype declaration.': (place) =>
    syntax(place.source.indexOf('<', place.markupEnd), 'document type declarations are not supported'),
  'forward-slash in opening tag not followed by >.': (place) =>
    syntax(place.position - 1, `">" expected after "/" to end <${place.tagName}/>`, { tag: place.tagName }),
  'disallowed character in attribute name.': (place) => {
    const attribute = attributeName(place);
    return attribute === ''
      ? syntax(place.position - 1, `an attribute name of <${place.tagName}> is expected here`, {
          tag: place.tagName,
        })
      : syntax(place.position - 1, `"=" expected after the attribute ${attribute}`, { attribute });
  },
  'attribute without value.': (place) => {
    const attribute = attributeName(place);
    return syntax(place.position - 1, `"=" expected after the attribute ${attribute}`, { attribute });
  },
  'unquoted attribute value.': (place) => {
    const attribute = attributeName(place);
    return syntax(place.position - 1, `the value of ${attribute} must be in quotes`, { attribute });
  },
  'disallowed character.': (place) => {
    const at = place.position - 1;
    const code = place.source.codePointAt(at) ?? 0;
    if (code === 0x3c) {
      const attribute = attributeName(place);
      return syntax(at, `"<" is not allowed in the value of ${attribute}`, { attribute });
    }
    return syntax(
      at,
      `the character U+${code.toString(16).toUpperCase().padStart(4, '0')} may not stand in XML`,
    );
  },
  'the string "]]>" is disallowed in char data.': (place) =>
    syntax(place.source.lastIndexOf(']]>', place.position), '"]]>" is not allowed in text'),
};

/** saxes, reporting its errors to `report` (with saxes's own words, without its line and column). */
class ReportingParser extends SaxesParser {
  constructor(private readonly report: (message: string) => void) {
    super({ position: true });
  }

  override fail(message: string): this {
    this.report(message);
    return this;
  }
}

/** Reads `source` from start to end, handing each piece to `handler`. */
export function readSsmlMarkup(source: string, fail: Fail, handler: SsmlMarkupHandler): void {
  const place: Place = { source, position: 0, markupEnd: 0, tagName: '', attributeEnd: 0 };
  let tagAt = 0;
  let attributes: SsmlAttributes = new Map();
  const parser = new ReportingParser((message) => {
    place.position = parser.position;
    if (message.startsWith('unmatched closing tag: ')) {
      // An end tag with nothing open: ssml.ts says so.
      handler.end(tagName(place), source.indexOf('<', place.markupEnd));
    }
    if (LEFT_TO_SSML.some((left) => message.startsWith(left))) return;
    const problem = SAXES_PROBLEMS[message]?.(place) ?? syntax(Math.max(0, place.position - 1), message);
    fail(Math.max(0, problem.at), problem.message, problem.about);
  });
  const nextMarkup = () => {
    const at = source.indexOf('<', place.markupEnd);
    return at < 0 ? source.length : at;
  };
  const markupRead = () => {
    place.markupEnd = parser.position;
  };

  parser.on('text', (value) => {
    const end = nextMarkup();
    const word = source.slice(place.markupEnd, end).search(/\S/u);
    handler.text(value, word < 0 ? place.markupEnd : place.markupEnd + word);
  });
  parser.on('opentagstart', (tag) => {
    tagAt = nextMarkup();
    place.tagName = tag.name;
    place.attributeEnd = tagAt + 1 + tag.name.length;
    attributes = new Map();
  });
  parser.on('attribute', ({ name, value }) => {
    const at = nonSpaceFrom(source, place.attributeEnd);
    if (attributes.has(name))
      fail(at, `the attribute ${name} is given twice`, { reason: 'syntax', attribute: name });
    attributes.set(name, { value, at });
    place.attributeEnd = parser.position;
  });
  parser.on('opentag', (tag) => {
    markupRead();
    handler.start(tag.name, tagAt, attributes, tag.isSelfClosing);
  });
  parser.on('closetag', (tag) => {
    if (tag.isSelfClosing) return;
    const at = nextMarkup();
    const name = tagName(place);
    markupRead();
    handler.end(name, at);
  });
  parser.on('cdata', (text) => {
    const at = nextMarkup();
    markupRead();
    handler.cdata(text, at);
  });
  parser.on('comment', markupRead);
  parser.on('processinginstruction', markupRead);
  parser.on('xmldecl', markupRead);
  parser.on('doctype', () =>
    fail(nextMarkup(), 'document type declarations are not supported', { reason: 'syntax' }),
  );
  parser.write(source).close();
}
