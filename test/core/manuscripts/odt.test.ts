import { describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import { AppError } from '../../../electron/shared/errors';
import {
  VIETNAMESE_BOOK,
  billionLaughs,
  expectedParagraph,
  inlineNotesOf,
  odtFiles,
  rawZip,
  storedEntry,
  writeOdt,
  zerosEntry,
  zipOdt,
} from '../../fixtures/manuscripts';
import { readInProcess } from '../../fixtures/read-in-process';

const ALL = [...VIETNAMESE_BOOK.frontMatter!, ...VIETNAMESE_BOOK.chapters, ...VIETNAMESE_BOOK.backMatter!];

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('readOdt', () => {
  it('reads chapters from outline-level-1 headings, paragraphs, emphasis from automatic styles, meta.xml', async () => {
    const book = await readManuscript({ fileName: 'Kiều.odt', bytes: writeOdt(VIETNAMESE_BOOK) });
    expect(book.format).toBe('odt');
    expect([book.title, book.author, book.language]).toEqual([VIETNAMESE_BOOK.title, 'Nguyễn Du', 'vi']);
    expect(book.chapters.map((c) => c.title)).toEqual(ALL.map((c) => c.title));
    for (const [i, chapter] of ALL.entries()) {
      expect(book.chapters[i]!.paragraphs).toEqual(chapter.paragraphs.map(expectedParagraph));
    }
    expect(book.warnings.join(' ')).toMatch(/1 note .*left out/);
  });

  it('keeps notes after the paragraph holding them when asked', async () => {
    const book = await readInProcess(
      { fileName: 'k.odt', bytes: writeOdt(VIETNAMESE_BOOK) },
      { notes: 'inline' },
    );
    const paragraphs = VIETNAMESE_BOOK.chapters[0]!.paragraphs;
    expect(book.chapters[1]!.paragraphs.map((p) => p.text)).toEqual([
      expectedParagraph(paragraphs[0]!).text,
      expectedParagraph(paragraphs[1]!).text,
      ...inlineNotesOf(paragraphs[1]!),
      expectedParagraph(paragraphs[2]!).text,
    ]);
  });

  it('refuses a broken content.xml, a missing one, entity declarations and a zip bomb, naming the file', async () => {
    const broken = await rejection(
      readInProcess({
        fileName: 'a.odt',
        bytes: zipOdt({ ...odtFiles(VIETNAMESE_BOOK), 'content.xml': '<office:document-content>' }),
      }),
    );
    expect(broken.code).toBe('MANUSCRIPT_INVALID');
    expect(broken.message).toMatch(/"a\.odt".*content\.xml/);

    const files = odtFiles(VIETNAMESE_BOOK);
    const { 'content.xml': _content, ...rest } = files;
    const missing = await rejection(readInProcess({ fileName: 'b.odt', bytes: zipOdt(rest) }));
    expect(missing.code).toBe('MANUSCRIPT_INVALID');
    expect(missing.message).toMatch(/"b\.odt".*content\.xml/);

    const lol = billionLaughs(
      files['content.xml']!.replace(/^<\?xml[^>]*>\n/, '').replace('Trăm năm trong', 'LOL'),
    );
    const entities = await rejection(
      readInProcess({ fileName: 'c.odt', bytes: zipOdt({ ...files, 'content.xml': lol }) }),
    );
    expect(entities.code).toBe('MANUSCRIPT_INVALID');
    expect(entities.message).toMatch(/"c\.odt".*entit/);

    const bomb = rawZip([
      storedEntry('mimetype', 'application/vnd.oasis.opendocument.text'),
      storedEntry('styles.xml', files['styles.xml']!),
      zerosEntry('content.xml', 256, 5000),
    ]);
    const tooLarge = await rejection(readManuscript({ fileName: 'd.odt', bytes: bomb }));
    expect(tooLarge.code).toBe('MANUSCRIPT_TOO_LARGE');
    expect(tooLarge.message).toMatch(/"d\.odt".*content\.xml/);
  });

  it('refuses a password-protected document', async () => {
    const files = odtFiles(VIETNAMESE_BOOK);
    files['META-INF/manifest.xml'] = files['META-INF/manifest.xml']!.replace(
      '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>',
      '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"><manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x"><manifest:algorithm manifest:algorithm-name="Blowfish CFB" manifest:initialisation-vector="x"/></manifest:encryption-data></manifest:file-entry>',
    );
    const error = await rejection(readInProcess({ fileName: 'secret.odt', bytes: zipOdt(files) }));
    expect(error.code).toBe('MANUSCRIPT_INVALID');
    expect(error.message).toMatch(/"secret\.odt".*password-protected/);
  });
});
