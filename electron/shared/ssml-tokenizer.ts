/**
 * The XML of an SSML document read as text, start tags, end tags and CDATA, in order, each with
 * its offset in the source (ssml.ts builds the document from them). Comments and processing
 * instructions are skipped; a document type declaration, a malformed tag or attribute and a bad
 * entity fail with the SSML error naming the line and column. Hand-written rather than saxes:
 * the API's SSML errors and warnings name where a tag, an attribute's name or an entity starts,
 * and saxes 6 gives only where it stands when an event or error fires (after the tag name's next
 * character, after an attribute's closing quote, at the end of an entity, tag or document). Its
 * errors also differ: `&b c` runs on to "unclosed tag" at the end, `<` in a value is dropped with a
 * recoverable error, and it turns CRLF into LF in text and tabs and newlines in values into spaces
 * (every later break and mark offset would move). Checked on test/shared/ssml.test.ts's cases.
 */

import type { SsmlErrorAbout } from './ssml';

/** Throws the SSML error at `at` of the source being read. */
export type Fail = (at: number, message: string, about?: SsmlErrorAbout) => never;

/** An attribute's value (entities resolved) and the offset of its name. */
export type SsmlAttributes = Map<string, { value: string; at: number }>;

/** What the reader hands on, in document order. */
export interface SsmlTokenHandler {
  /** Text between tags, as written (entities not resolved: see decodeEntities). */
  text(raw: string, at: number): void;
  /** The content of a CDATA section. */
  cdata(text: string, at: number): void;
  start(name: string, at: number, attributes: SsmlAttributes, selfClosing: boolean): void;
  end(name: string, at: number): void;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const NAME = /[A-Za-z_][\w.:-]*/y;

/** Resolves the entities of `raw` (starting at `at` in the source). */
export function decodeEntities(raw: string, at: number, fail: Fail): string {
  return raw.replace(/&([^;&\s<]*);?/gu, (whole, name: string, index: number) => {
    const where = at + index;
    if (!whole.endsWith(';'))
      fail(where, '"&" must start an entity such as &amp;', { reason: 'entity', value: '&' });
    if (name.startsWith('#')) {
      const code = /^#x[0-9a-f]+$/iu.test(name)
        ? parseInt(name.slice(2), 16)
        : /^#\d+$/u.test(name)
          ? parseInt(name.slice(1), 10)
          : NaN;
      if (!Number.isInteger(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        fail(where, `"${whole}" is not a valid character reference`, { reason: 'entity', value: whole });
      }
      return String.fromCodePoint(code);
    }
    const value = ENTITIES[name];
    if (value === undefined)
      fail(where, `unknown entity "${whole}" (use &amp; &lt; &gt; &quot; &apos;)`, {
        reason: 'entity',
        value: whole,
      });
    return value as string;
  });
}

/** Reads `source` from start to end, handing each piece to `handler`. */
export function tokenizeSsml(source: string, fail: Fail, handler: SsmlTokenHandler): void {
  const cursor = { i: 0 };
  const readName = (at: number): string => {
    NAME.lastIndex = at;
    const m = NAME.exec(source);
    if (!m) fail(at, 'a tag name is expected here', { reason: 'syntax' });
    return (m as RegExpExecArray)[0];
  };
  const skipSpace = () => {
    while (cursor.i < source.length && /\s/u.test(source[cursor.i] as string)) cursor.i++;
  };
  /** Skips a comment or processing instruction opened at the cursor; false when none is. */
  const skipped = (open: string, close: string, what: string): boolean => {
    if (!source.startsWith(open, cursor.i)) return false;
    const end = source.indexOf(close, cursor.i + open.length);
    if (end < 0) fail(cursor.i, `the ${what} is not closed with ${close}`, { reason: 'syntax' });
    cursor.i = end + close.length;
    return true;
  };

  while (cursor.i < source.length) {
    const i = cursor.i;
    if (source[i] !== '<') {
      const next = source.indexOf('<', i);
      const end = next < 0 ? source.length : next;
      handler.text(source.slice(i, end), i);
      cursor.i = end;
      continue;
    }
    if (skipped('<!--', '-->', 'comment')) continue;
    if (source.startsWith('<![CDATA[', i)) {
      const end = source.indexOf(']]>', i + 9);
      if (end < 0) fail(i, 'the CDATA section is not closed with ]]>', { reason: 'syntax' });
      handler.cdata(source.slice(i + 9, end), i);
      cursor.i = end + 3;
      continue;
    }
    if (skipped('<?', '?>', 'processing instruction')) continue;
    if (source.startsWith('<!', i))
      fail(i, 'document type declarations are not supported', { reason: 'syntax' });
    if (source[i + 1] === '/') {
      const name = readName(i + 2);
      cursor.i = i + 2 + name.length;
      skipSpace();
      if (source[cursor.i] !== '>')
        fail(cursor.i, `">" expected to end </${name}>`, { reason: 'syntax', tag: name });
      cursor.i++;
      handler.end(name, i);
      continue;
    }
    const name = readName(i + 1);
    cursor.i = i + 1 + name.length;
    const attributes = readAttributes(source, cursor, name, i, { fail, readName, skipSpace });
    const selfClosing = source[cursor.i] === '/';
    cursor.i += selfClosing ? 2 : 1;
    handler.start(name, i, attributes, selfClosing);
  }
}

/** The attributes of the start tag `name` (at `tagAt`), the cursor after them, on `>` or `/>`. */
function readAttributes(
  source: string,
  cursor: { i: number },
  name: string,
  tagAt: number,
  read: { fail: Fail; readName(at: number): string; skipSpace(): void },
): SsmlAttributes {
  const { fail, readName, skipSpace } = read;
  const attributes: SsmlAttributes = new Map();
  for (;;) {
    const before = cursor.i;
    skipSpace();
    if (source[cursor.i] === '>' || source.startsWith('/>', cursor.i)) return attributes;
    if (cursor.i >= source.length)
      fail(tagAt, `<${name}> is not closed with ">"`, { reason: 'syntax', tag: name });
    if (cursor.i === before)
      fail(cursor.i, `a space is expected before an attribute of <${name}>`, { reason: 'syntax', tag: name });
    const attrAt = cursor.i;
    const attr = readName(cursor.i);
    cursor.i += attr.length;
    skipSpace();
    if (source[cursor.i] !== '=')
      fail(cursor.i, `"=" expected after the attribute ${attr}`, { reason: 'syntax', attribute: attr });
    cursor.i++;
    skipSpace();
    const quote = source[cursor.i];
    if (quote !== '"' && quote !== "'")
      fail(cursor.i, `the value of ${attr} must be in quotes`, { reason: 'syntax', attribute: attr });
    const end = source.indexOf(quote as string, cursor.i + 1);
    if (end < 0) fail(cursor.i, `the value of ${attr} is not closed`, { reason: 'syntax', attribute: attr });
    const raw = source.slice(cursor.i + 1, end);
    if (raw.includes('<'))
      fail(cursor.i + 1 + raw.indexOf('<'), `"<" is not allowed in the value of ${attr}`, {
        reason: 'syntax',
        attribute: attr,
      });
    if (attributes.has(attr))
      fail(attrAt, `the attribute ${attr} is given twice`, { reason: 'syntax', attribute: attr });
    attributes.set(attr, { value: decodeEntities(raw, cursor.i + 1, fail), at: attrAt });
    cursor.i = end + 1;
  }
}
