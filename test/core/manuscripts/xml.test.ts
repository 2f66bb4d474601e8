/**
 * xml.ts: namespaces resolved without saxes's walk up the open elements (the same answers, in
 * constant time per prefix), the nesting and element limits kept as elements open, and the
 * entity guard refusing declarations whatever comes before them.
 */

import { describe, expect, it } from 'vitest';
import {
  attr,
  checkXml,
  parseXml,
  refuseEntityDeclarations,
  type XmlPart,
  type XmlTag,
} from '../../../electron/core/manuscripts/xml';
import { AppError } from '../../../electron/shared/errors';
import { MANUSCRIPT_LIMITS } from '../../../electron/shared/manuscript';
import { billionLaughs } from '../../fixtures/manuscripts';

const WHERE: XmlPart = { fileName: 'book.epub', format: 'epub', part: 'OEBPS/content.opf' };

function failure(run: () => void): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a refusal');
}

describe('parseXml', () => {
  it('resolves default and prefixed namespaces as they are bound and rebound, attributes included', () => {
    const xml = `<a:root xmlns:a="urn:a" xmlns="urn:default" a:id="1" plain="2">
      <child xml:lang="vi"><a:x xmlns:a="urn:rebound" a:k="v"/></child>
      <a:y/><other xmlns=""><inner/></other>
    </a:root>`;
    const opened: string[] = [];
    const closed: string[] = [];
    let root: XmlTag | undefined;
    let x: XmlTag | undefined;
    parseXml(xml, WHERE, {
      open(tag) {
        opened.push(`{${tag.uri}}${tag.local}`);
        if (tag.local === 'root') root = tag;
        if (tag.local === 'x') x = tag;
      },
      close(tag) {
        closed.push(tag.local);
      },
    });
    expect(opened).toEqual([
      '{urn:a}root',
      '{urn:default}child',
      '{urn:rebound}x',
      '{urn:a}y',
      '{}other',
      '{}inner',
    ]);
    expect(closed).toEqual(['x', 'child', 'y', 'inner', 'other', 'root']);
    expect(attr(root!, 'urn:a', 'id')).toBe('1');
    // An attribute without a prefix has no namespace, whatever the default.
    expect(attr(root!, '', 'plain')).toBe('2');
    expect(attr(root!, 'urn:default', 'plain')).toBeUndefined();
    expect(attr(x!, 'urn:rebound', 'k')).toBe('v');
  });

  it('refuses an unbound prefix and markup that is not well-formed, naming the file and the part', () => {
    const unbound = failure(() => parseXml('<w:document/>', WHERE));
    expect(unbound.code).toBe('MANUSCRIPT_INVALID');
    expect(unbound.message).toBe(
      '"book.epub" cannot be read as EPUB: OEBPS/content.opf is not well-formed XML (unbound namespace prefix "w").',
    );
    const broken = failure(() => parseXml('<a><b></a>', WHERE));
    expect(broken.message).toMatch(
      /^"book\.epub" cannot be read as EPUB: OEBPS\/content\.opf is not well-formed XML/,
    );
  });

  it('reads nesting at the depth limit and refuses one deeper as the element opens', () => {
    const depth = MANUSCRIPT_LIMITS.nestingDepth;
    const nested = (n: number) => `<r xmlns="urn:x">${'<e>'.repeat(n - 1)}${'</e>'.repeat(n - 1)}</r>`;
    let most = 0;
    let open = 0;
    parseXml(nested(depth), WHERE, {
      open: () => (most = Math.max(most, ++open)),
      close: () => open--,
    });
    expect(most).toBe(depth);
    const error = failure(() => parseXml(nested(depth + 1), WHERE));
    expect(error.code).toBe('MANUSCRIPT_TOO_LARGE');
    expect(error.message).toBe(
      `"book.epub" is too large: OEBPS/content.opf nests elements more than ${depth} deep (the limit is ${depth} elements deep).`,
    );
    expect(error.details).toMatchObject({ entry: 'OEBPS/content.opf', limit_depth: depth });
  });

  it('stops at the first element past the element limit of a part', () => {
    const limit = MANUSCRIPT_LIMITS.xmlElements;
    let seen = 0;
    const error = failure(() =>
      parseXml(`<r>${'<e/>'.repeat(limit)}</r>`, WHERE, {
        open: () => seen++,
      }),
    );
    expect(error.code).toBe('MANUSCRIPT_TOO_LARGE');
    expect(error.message).toContain(`holds more than ${limit.toLocaleString('en-US')} elements`);
    expect(seen).toBe(limit);
  }, 60_000);
});

describe('refuseEntityDeclarations', () => {
  const root = '<package><metadata><title>LOL</title></metadata></package>';
  const lol = billionLaughs(root);

  it.each([
    ['as written', lol],
    ['after a comment holding "--"', lol.replace('<!DOCTYPE', '<!-- a -- b -->\n<!DOCTYPE')],
    ['after an unterminated comment', lol.replace('<!DOCTYPE', '<!-- never closed\n<!DOCTYPE')],
    ['after a processing instruction', lol.replace('<!DOCTYPE', '<?pi data?>\n<!DOCTYPE')],
    ['in lower case', lol.replace('<!DOCTYPE', '<!doctype')],
    [
      'behind a quoted ">" in the system identifier',
      `<!DOCTYPE package SYSTEM "a>b" [ <!ATTLIST x y CDATA "z"> ]>${root}`,
    ],
    ['as an internal subset without entities', `<!DOCTYPE package [ <!ELEMENT package ANY> ]>${root}`],
    ['as an ENTITY outside any DOCTYPE', `<!ENTITY x "y">${root}`],
    ['after the root element', `${root}<!DOCTYPE package [<!ENTITY x "y">]>`],
  ])('refuses entity declarations %s', (_how, xml) => {
    const error = failure(() => refuseEntityDeclarations(xml, WHERE));
    expect(error.code).toBe('MANUSCRIPT_INVALID');
    expect(error.message).toBe(
      '"book.epub" cannot be read as EPUB: OEBPS/content.opf declares entities in a DOCTYPE (refused: entity expansion such as "billion laughs").',
    );
  });

  it('lets a DOCTYPE without an internal subset through', () => {
    const xhtml =
      '<?xml version="1.0"?><!-- a -- b --><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd"><html/>';
    expect(() => refuseEntityDeclarations(xhtml, WHERE)).not.toThrow();
    expect(() => refuseEntityDeclarations('<!DOCTYPE html><html><p>a [b] c</p></html>', WHERE)).not.toThrow();
  });

  it('checkXml also refuses what the strict parser cannot read, before a lenient one sees it', () => {
    const error = failure(() => checkXml(`<!-- a -- b -->${root}`, WHERE));
    expect(error.code).toBe('MANUSCRIPT_INVALID');
    expect(error.message).toContain('OEBPS/content.opf is not well-formed XML');
  });
});
