import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';

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

    const inline = await readManuscript({ fileName: 'notes.docx', bytes }, { notes: 'inline' });
    expect(inline.chapters.flatMap((c) => c.paragraphs.map((p) => p.text))).toEqual([
      'A footnote',
      'Test footnote. Test endnote.',
      'Note: My note.',
      'Note: This is an endnote at the end of the document.',
    ]);
    expect(inline.warnings).toEqual([]);

    const appendix = await readManuscript({ fileName: 'notes.docx', bytes }, { notes: 'appendix' });
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
    const omitted = await readManuscript({ fileName: 'georgia.epub', bytes });
    const omittedText = omitted.chapters.flatMap((c) => c.paragraphs.map((p) => p.text)).join('\n');
    expect(omittedText).not.toContain('According to the usual nomenclature');
    expect(omitted.warnings.join(' ')).toMatch(/\d+ notes .*left out: import with notes "inline"/);

    const inline = await readManuscript({ fileName: 'georgia.epub', bytes }, { notes: 'inline' });
    const texts = inline.chapters.flatMap((c) => c.paragraphs.map((p) => p.text));
    const first = texts.findIndex((t) => t.startsWith('Note: 1 According to the usual nomenclature'));
    expect(first).toBeGreaterThan(0);
    expect(texts[first - 1]).toMatch(/at Tallulah Falls, a summer resort\.$/);
    const seventh = texts.findIndex((t) => t.startsWith('Note: 7 Owing to the custom'));
    expect(texts[seventh - 1]).toMatch(/may not be refilled\.$/);
    // The call's number is not read in the text.
    expect(texts[first - 1]).toContain('the upper Savannah was formerly part');

    const appendix = await readManuscript({ fileName: 'georgia.epub', bytes }, { notes: 'appendix' });
    const notes = appendix.chapters.at(-1)!;
    expect(notes.title).toBe('Notes');
    expect(notes.paragraphs[0]!.text).toMatch(/^1\. 1 According to the usual nomenclature/);
    expect(appendix.chapters.slice(0, -1).flatMap((c) => c.paragraphs.map((p) => p.text))).not.toContain(
      notes.paragraphs[0]!.text.slice(3),
    );
  });
});
