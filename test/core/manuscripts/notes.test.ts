import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import type { Manuscript } from '../../../electron/shared/manuscript';
import { zipEpub } from '../../fixtures/manuscripts';
import { readInProcess } from '../../fixtures/read-in-process';

const REAL = join(__dirname, '../../fixtures/real-manuscripts');

describe('the notes option on a Word file with a footnote and an endnote (pandoc test/docx/notes.docx)', () => {
  it('omit (default) leaves them out with a warning naming the option; inline reads each after its paragraph; appendix gathers them in "Notes"', async () => {
    const bytes = await readFile(join(REAL, 'pandoc-docx-notes.docx'));
    const omitted = await readManuscript({ fileName: 'notes.docx', bytes });
    const body = omitted.chapters.flatMap((c) => c.paragraphs.map((p) => p.text));
    expect(body).toEqual(['A footnote', 'Test footnote. Test endnote.']);
    expect(omitted.warnings.join(' ')).toMatch(
      /2 notes .*left out: import with notes "inline" or "appendix" to keep them \(--notes/,
    );

    const inline = await readInProcess({ fileName: 'notes.docx', bytes }, { notes: 'inline' });
    expect(inline.chapters.flatMap((c) => c.paragraphs.map((p) => p.text))).toEqual([
      'A footnote',
      'Test footnote. Test endnote.',
      'Note: My note.',
      'Note: This is an endnote at the end of the document.',
    ]);
    expect(inline.warnings).toEqual([]);

    const appendix = await readInProcess({ fileName: 'notes.docx', bytes }, { notes: 'appendix' });
    expect(appendix.chapters.at(-1)).toEqual({
      title: 'Notes',
      kind: 'body',
      paragraphs: [
        { text: '1. My note.', emphasis: [] },
        { text: '2. This is an endnote at the end of the document.', emphasis: [] },
      ],
    });
  });
});

describe('the notes option on an EPUB 3 with footnotes (IDPF georgia-cfi: <aside epub:type="note">, noterefs)', () => {
  it('inline reads each note right after the paragraph calling it; appendix numbers them in "Notes"; omit warns', async () => {
    const bytes = await readFile(join(REAL, 'idpf-georgia-cfi.epub'));
    const omitted = await readInProcess({ fileName: 'georgia.epub', bytes });
    const omittedText = omitted.chapters.flatMap((c) => c.paragraphs.map((p) => p.text)).join('\n');
    expect(omittedText).not.toContain('According to the usual nomenclature');
    expect(omitted.warnings.join(' ')).toMatch(/\d+ notes .*left out: import with notes "inline"/);

    const inline = await readInProcess({ fileName: 'georgia.epub', bytes }, { notes: 'inline' });
    const texts = inline.chapters.flatMap((c) => c.paragraphs.map((p) => p.text));
    const first = texts.findIndex((t) => t.startsWith('Note: 1 According to the usual nomenclature'));
    expect(first).toBeGreaterThan(0);
    expect(texts[first - 1]).toMatch(/at Tallulah Falls, a summer resort\.$/);
    const seventh = texts.findIndex((t) => t.startsWith('Note: 7 Owing to the custom'));
    expect(texts[seventh - 1]).toMatch(/may not be refilled\.$/);
    // The call's number is not read in the text.
    expect(texts[first - 1]).toContain('the upper Savannah was formerly part');

    const appendix = await readInProcess({ fileName: 'georgia.epub', bytes }, { notes: 'appendix' });
    const notes = appendix.chapters.at(-1)!;
    expect(notes.title).toBe('Notes');
    expect(notes.paragraphs[0]!.text).toMatch(/^1\. 1 According to the usual nomenclature/);
    expect(appendix.chapters.slice(0, -1).flatMap((c) => c.paragraphs.map((p) => p.text))).not.toContain(
      notes.paragraphs[0]!.text.slice(3),
    );
  });
});

describe('the notes option on an EPUB 3 whose endnotes are a file of their own (endnotes.xhtml#note-1)', () => {
  // Markup as Standard Ebooks write it (their "The Fall of Robespierre", Coleridge and Southey,
  // public domain, CC0): calls `<a href="endnotes.xhtml#note-1" epub:type="noteref">`, notes
  // `<li id="note-1" epub:type="endnote">` with a backlink "↩" in a back-matter endnotes file.
  const xhtml = (title: string, type: string, body: string) => `<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en-GB">
<head><title>${title}</title></head><body epub:type="${type}">${body}</body></html>`;
  const note = (n: number, text: string, back: string) =>
    `<li id="note-${n}" epub:type="endnote"><p>${text} <a href="${back}#noteref-${n}" epub:type="backlink">↩</a></p></li>`;
  const call = (n: number) =>
    `<a href="endnotes.xhtml#note-${n}" id="noteref-${n}" epub:type="noteref">${n}</a>`;
  const files = {
    'META-INF/container.xml': `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="epub/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    'epub/content.opf': `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="uid">robespierre</dc:identifier>
<dc:title>The Fall of Robespierre</dc:title><dc:creator>Samuel Taylor Coleridge</dc:creator><dc:language>en-GB</dc:language>
<meta property="dcterms:modified">2024-01-01T00:00:00Z</meta></metadata>
<manifest><item href="toc.xhtml" id="toc.xhtml" media-type="application/xhtml+xml" properties="nav"/>
<item href="text/act-1.xhtml" id="act-1.xhtml" media-type="application/xhtml+xml"/>
<item href="text/act-2.xhtml" id="act-2.xhtml" media-type="application/xhtml+xml"/>
<item href="text/endnotes.xhtml" id="endnotes.xhtml" media-type="application/xhtml+xml"/></manifest>
<spine><itemref idref="act-1.xhtml"/><itemref idref="act-2.xhtml"/><itemref idref="endnotes.xhtml"/></spine></package>`,
    'epub/toc.xhtml': xhtml(
      'Table of Contents',
      'frontmatter',
      `<nav epub:type="toc"><ol><li><a href="text/act-1.xhtml">Act I</a></li><li><a href="text/act-2.xhtml">Act II</a></li><li><a href="text/endnotes.xhtml">Endnotes</a></li></ol></nav>`,
    ),
    'epub/text/act-1.xhtml': xhtml(
      'Act I',
      'bodymatter',
      `<section id="act-1" epub:type="chapter"><h2>Act I</h2><p>Scene—The Tuileries.${call(1)}</p><p>Tell me, on what holy ground May Domestic Peace be found?${call(2)}</p></section>`,
    ),
    'epub/text/act-2.xhtml': xhtml(
      'Act II',
      'bodymatter',
      `<section id="act-2" epub:type="chapter"><h2>Act II</h2><p>Scene—The Convention.</p><p>Once more befits it that the voice of Truth, fearless in innocence, be heard amid this hall.${call(3)}</p></section>`,
    ),
    'epub/text/endnotes.xhtml': xhtml(
      'Endnotes',
      'backmatter',
      `<section id="endnotes" epub:type="endnotes"><h2 epub:type="title">Endnotes</h2><ol>${[
        note(1, '<i>First Act</i> by Coleridge: <i>Second and Third</i> by Southey—1794.', 'act-1.xhtml'),
        note(2, 'This Song was reprinted in Coleridge’s <i>Poems</i> of 1796.', 'act-1.xhtml'),
        note(3, 'First published at Cambridge by Benjamin Flower in 1794.', 'act-2.xhtml'),
      ].join('')}</ol></section>`,
    ),
  };
  const bytes = zipEpub(files);
  const texts = (book: Manuscript) => book.chapters.flatMap((c) => c.paragraphs.map((p) => p.text));

  it('inline reads each note after the paragraph calling it, once; appendix gathers them; omit counts them', async () => {
    const inline = await readInProcess({ fileName: 'robespierre.epub', bytes }, { notes: 'inline' });
    expect(inline.chapters.map((c) => [c.title, c.paragraphs.map((p) => p.text)])).toEqual([
      [
        'Act I',
        [
          'Scene—The Tuileries.',
          'Note: First Act by Coleridge: Second and Third by Southey—1794.',
          'Tell me, on what holy ground May Domestic Peace be found?',
          'Note: This Song was reprinted in Coleridge’s Poems of 1796.',
        ],
      ],
      [
        'Act II',
        [
          'Scene—The Convention.',
          'Once more befits it that the voice of Truth, fearless in innocence, be heard amid this hall.',
          'Note: First published at Cambridge by Benjamin Flower in 1794.',
        ],
      ],
    ]);

    const appendix = await readInProcess({ fileName: 'robespierre.epub', bytes }, { notes: 'appendix' });
    const notes = appendix.chapters.at(-1)!;
    expect(notes.title).toBe('Notes');
    expect(notes.paragraphs.map((p) => p.text)).toEqual([
      '1. First Act by Coleridge: Second and Third by Southey—1794.',
      '2. This Song was reprinted in Coleridge’s Poems of 1796.',
      '3. First published at Cambridge by Benjamin Flower in 1794.',
    ]);
    expect(texts(appendix).filter((t) => t.includes('Benjamin Flower'))).toHaveLength(1);

    const omitted = await readInProcess({ fileName: 'robespierre.epub', bytes });
    expect(texts(omitted).join('\n')).not.toContain('Benjamin Flower');
    expect(omitted.warnings.join(' ')).toMatch(/3 notes .*left out/);
  });
});
