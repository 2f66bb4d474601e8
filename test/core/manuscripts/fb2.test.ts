import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import { readInProcess } from '../../fixtures/read-in-process';

const REAL = join(__dirname, '../../fixtures/real-manuscripts');
const real = async (name: string): Promise<Uint8Array> => readFile(join(REAL, name));

describe('readFb2 (FictionBook files by pandoc and by a FictionBook library)', () => {
  it('reads pandoc-written FB2: nested titles with no text between are one chapter, emphasis kept, source line breaks are spaces, the note call unread', async () => {
    const book = await readManuscript({ fileName: 'basic.fb2', bytes: await real('pandoc-fb2-basic.fb2') });
    expect(book.format).toBe('fb2');
    expect(book.chapters.map((c) => c.title)).toEqual(['Top-level title — Section — Subsection']);
    const [first] = book.chapters[0]!.paragraphs;
    expect(first!.text).toBe('This emphasized strong verbatim markdown. See this link.');
    expect(first!.emphasis).toEqual([
      { start: 5, end: 15, kind: 'em' },
      { start: 16, end: 22, kind: 'strong' },
    ]);
    const texts = book.chapters[0]!.paragraphs.map((p) => p.text);
    expect(texts).toContain('Blockquote is for citatons.');
    expect(texts).toContain(
      'Strikeout is Pandoc’s extension. Superscript and subscripts too: H2O is a liquid. 210 is 1024.',
    );
    expect(book.warnings).toHaveLength(1);
    expect(book.warnings[0]).toMatch(/^1 note .*left out: import with notes "inline" or "appendix"/);
  });

  it('reads the same book zipped (.fb2.zip, made by Info-ZIP)', async () => {
    const plain = await readInProcess({ fileName: 'basic.fb2', bytes: await real('pandoc-fb2-basic.fb2') });
    const zipped = await readInProcess({
      fileName: 'basic.fb2.zip',
      bytes: await real('pandoc-fb2-basic.fb2.zip'),
    });
    expect(zipped.format).toBe('fb2');
    expect(zipped.chapters).toEqual(plain.chapters);
  });

  it('keeps the notes body inline after the citing paragraph, or as a "Notes" appendix', async () => {
    const bytes = await real('pandoc-fb2-reader-notes.fb2');
    const inline = await readInProcess({ fileName: 'notes.fb2', bytes }, { notes: 'inline' });
    expect(inline.chapters.flatMap((c) => c.paragraphs.map((p) => p.text))).toEqual([
      'Note.',
      'Note: Note contents',
      'Second note.',
      'Note: Second note contents.',
    ]);
    expect(inline.warnings).toEqual([]);
    const appendix = await readInProcess({ fileName: 'notes.fb2', bytes }, { notes: 'appendix' });
    expect(appendix.chapters.at(-1)).toEqual({
      title: 'Notes',
      kind: 'body',
      paragraphs: [
        { text: '1. Note contents', emphasis: [] },
        { text: '2. Second note contents.', emphasis: [] },
      ],
    });
    expect(appendix.chapters[0]!.paragraphs.map((p) => p.text)).toEqual(['Note.', 'Second note.']);
  });

  it('reads poems (titles, epigraph, stanzas, verse lines, text-author) as lines', async () => {
    const book = await readInProcess({
      fileName: 'poem.fb2',
      bytes: await real('pandoc-fb2-reader-poem.fb2'),
    });
    expect(book.chapters[0]!.paragraphs.map((p) => p.text)).toEqual([
      'Poem title',
      'Poem epigraph',
      'Subtitle',
      'First stanza title',
      'Verse',
      'More verse',
      'One more stanza',
      'Author',
      'April 2018',
    ]);
  });

  it('takes title, author and language from title-info (Russian, Cyrillic text)', async () => {
    const book = await readInProcess({
      fileName: 'complex.fb2',
      bytes: await real('r-glazkov-fb2-complex.fb2'),
    });
    expect(book.title).toBe('Вторая мировая война');
    expect(book.author).toBe('Уинстон Спенсер Черчилль');
    expect(book.language).toBe('ru');
    expect(book.chapters.flatMap((c) => c.paragraphs.map((p) => p.text))).toContain('Танечка');
  });

  it('reads Vietnamese FB2 in windows-1258 by its XML declaration, and refuses a file that is not FictionBook', async () => {
    const xml = `<?xml version="1.0" encoding="windows-1258"?><FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0"><description><title-info><book-title>Truy\xea\xf2n Ki\xea\xccu</book-title><lang>vi</lang></title-info></description><body><section><title><p>H\xf4\xcci m\xf4\xf2t</p></title><p>Tr\xe3m n\xe3m trong co\xdei ng\xfd\xf5\xcci ta.</p></section></body></FictionBook>`;
    const book = await readInProcess({ fileName: 'kieu.fb2', bytes: Buffer.from(xml, 'latin1') });
    expect(book.title).toBe('Truyện Kiều');
    expect(book.chapters[0]!.title).toBe('Hồi một');
    expect(book.chapters[0]!.paragraphs[0]!.text).toBe('Trăm năm trong cõi người ta.');
    await expect(
      readInProcess({ fileName: 'x.fb2', bytes: Buffer.from('<?xml version="1.0"?><html><body/></html>') }),
    ).rejects.toMatchObject({
      code: 'MANUSCRIPT_INVALID',
      message: expect.stringContaining('not a FictionBook'),
    });
  });
});
