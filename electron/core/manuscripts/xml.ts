/**
 * XML parts of DOCX and ODT read with saxes (namespace-aware, streaming events), and the
 * entity guard every XML part of a manuscript goes through: a DOCTYPE with an internal subset
 * (where entities are declared: "billion laughs", external files) is refused before anything is
 * expanded; saxes itself expands no entity it was not built with and refuses undefined ones.
 */

import { SaxesParser, type SaxesAttributeNS, type SaxesTagNS } from 'saxes';
import { isAppError } from '../../shared/errors';
import type { ManuscriptFormat } from '../../shared/manuscript';
import { invalidManuscript } from './errors';

export type XmlTag = SaxesTagNS;

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
  );
}

/** Parses `xml`, calling the handlers in document order; MANUSCRIPT_INVALID naming the part when it is not well-formed. */
export function parseXml(xml: string, where: XmlPart, handlers: XmlHandlers): void {
  const parser = new SaxesParser({ xmlns: true, fileName: where.part });
  parser.on('doctype', (doctype) => {
    if (doctype.includes('[')) throw entityRefusal(where);
  });
  parser.on('error', (error) => {
    throw error;
  });
  if (handlers.open) parser.on('opentag', handlers.open);
  if (handlers.close) parser.on('closetag', handlers.close);
  if (handlers.text) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  try {
    parser.write(xml).close();
  } catch (error) {
    if (isAppError(error)) throw error;
    throw invalidManuscript(
      where.fileName,
      where.format,
      `${where.part} is not well-formed XML (${(error as Error).message})`,
      error,
    );
  }
}

const STOP = Symbol('stop');

/**
 * Refuses a document whose DOCTYPE declares entities, looking only at its prolog (up to the
 * root element): for parts another parser reads (fast-xml-parser, parse5).
 */
export function refuseEntityDeclarations(xml: string, where: XmlPart): void {
  const parser = new SaxesParser({ fileName: where.part });
  parser.on('doctype', (doctype) => {
    if (doctype.includes('[')) throw entityRefusal(where);
  });
  parser.on('opentagstart', () => {
    throw STOP;
  });
  parser.on('error', () => {
    // Not well-formed XML (XHTML read as HTML may not be): the other parser judges the rest.
    throw STOP;
  });
  try {
    parser.write(xml).close();
  } catch (error) {
    if (error !== STOP) throw error;
  }
}

/** The attribute `local` of namespace `uri` (any of `uris`), or undefined. */
export function attr(tag: XmlTag, uris: string | readonly string[], local: string): string | undefined {
  for (const key in tag.attributes) {
    const attribute = tag.attributes[key] as SaxesAttributeNS;
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
