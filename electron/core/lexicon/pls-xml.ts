/**
 * XML for PLS lexicon files: fast-xml-parser checks it is well-formed (with the place of a fault), saxes
 * reads it (elements, attributes, text, CDATA; comments, processing instructions and a DOCTYPE
 * skipped; no declared entity expanded, an undefined one refused). Both are the parsers the
 * manuscript readers use. The check comes first because saxes 6 reads a bare "&" followed by a
 * space as the start of an entity to the end of the file, and says only that tags are unclosed.
 */

import { XMLValidator } from 'fast-xml-parser';
import { SaxesParser } from 'saxes';
import type { LanguageCode } from '../../shared/languages';
import type { LexiconFormat } from '../../shared/lexicon';
import {
  LexiconFileError,
  parseLexicon,
  place,
  type ImportedEntry,
  type XmlElement,
} from '../../shared/lexicon-files';

/** fast-xml-parser's fault in the words of the lexicon's other file readers. */
function xmlFault(code: string, message: string): string {
  const mismatch =
    /^Expected closing tag '([^']+)' \(opened in line (\d+).*instead of closing tag '([^']+)'/.exec(message);
  if (mismatch) return `</${mismatch[3]}> closes <${mismatch[1]}> (line ${mismatch[2]})`;
  const unclosed = /^Unclosed tag '([^']+)'/.exec(message);
  if (unclosed) return `the tag <${unclosed[1]}> is not closed`;
  if (code === 'InvalidChar' && message.startsWith("char '&'"))
    return 'an entity reference must end with ";"';
  if (message.startsWith('Start tag expected')) return 'the document must start with an element';
  if (message.startsWith('Extra text at the end')) return 'text after the root element';
  return message.replace(/\.$/, '');
}

/** Parses `text` as XML: one root element. Throws LexiconFileError with line and column. */
export function readXml(text: string): XmlElement {
  const fail = (message: string, line: number, column: number): never => {
    throw new LexiconFileError(`XML line ${line}, column ${column}: ${message}`, line, column);
  };
  const checked = XMLValidator.validate(text);
  if (checked !== true)
    fail(xmlFault(checked.err.code, checked.err.msg), checked.err.line || 1, checked.err.col || 1);

  const parser = new SaxesParser({ position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  /** Where the tag being read starts (saxes says where it is when it has read the name). */
  let tagAt = { line: 1, column: 1 };
  parser.on('opentagstart', () => {
    tagAt = place(text, text.lastIndexOf('<', parser.position - 1));
  });
  parser.on('opentag', (tag) => {
    if (root && stack.length === 0) fail('text after the root element', tagAt.line, tagAt.column);
    const element: XmlElement = {
      name: tag.name,
      attributes: { ...(tag.attributes as Record<string, string>) },
      children: [],
      ...tagAt,
    };
    stack.at(-1)?.children.push(element);
    root ??= element;
    if (!tag.isSelfClosing) stack.push(element);
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) stack.pop();
  });
  parser.on('text', (value) => stack.at(-1)?.children.push(value));
  parser.on('cdata', (value) => stack.at(-1)?.children.push(value));
  parser.on('error', (error) => {
    const at = place(text, Math.max(0, parser.position - 1));
    const message = error.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
    if (/only one root/.test(message)) fail('text after the root element', tagAt.line, tagAt.column);
    if (/outside of root/.test(message)) fail('text after the root element', at.line, at.column);
    if (/undefined entity/.test(message)) {
      const amp = text.lastIndexOf('&', parser.position - 1);
      const where = place(text, amp);
      fail(`unknown entity "${text.slice(amp, text.indexOf(';', amp) + 1)}"`, where.line, where.column);
    }
    fail(message, at.line, at.column);
  });
  parser.write(text).close();
  if (!root) return fail('the document must start with an element', 1, 1);
  return root;
}

/** The entries of a lexicon file (JSON, CSV or PLS), checked and normalised: `parseLexicon` with the XML reader. */
export function parseLexiconFile(
  text: string,
  format: LexiconFormat,
  language?: LanguageCode,
): ImportedEntry[] {
  return parseLexicon(text, format, language, readXml);
}
