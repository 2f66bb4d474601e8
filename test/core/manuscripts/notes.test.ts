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
