// test-tier: slow (PDFs and manuscripts read over HTTP, each in a reader child process)
/**
 * POST /api/v1/manuscripts/read over real HTTP on 127.0.0.1 against the real core (fake engine): a PDF written
 * by pdfkit and plain text read into chapters and text, a picture and a PDF without text refused
 * with the server's message, a body over the file limit refused (declared or streamed) naming the
 * file and the limit, the studio's session let in.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANUSCRIPT_LIMITS } from '../../../electron/shared/manuscript';
import type { ManuscriptReadResult } from '../../../electron/shared/manuscript-read';
import { expectedParagraph, VIETNAMESE_BOOK, writeDocx } from '../../fixtures/manuscripts';
import { PDF_BOOK, PDF_ITALIC_TAIL, writeImageOnlyPdf, writePdfBook } from '../../fixtures/pdf-files';
import { startFakeEngineStudio, type SignedInTestCore } from './helpers';

let t: SignedInTestCore;

beforeAll(async () => {
  t = await startFakeEngineStudio();
});
afterAll(async () => {
  await t?.close();
});

const read = (fileName: string, bytes: Buffer | string, headers: Record<string, string> = {}) =>
  t.call('POST', `/api/v1/manuscripts/read?file_name=${encodeURIComponent(fileName)}`, {
    raw: bytes,
    headers: { 'content-type': 'application/octet-stream', ...headers },
  });

describe('POST /api/v1/manuscripts/read', () => {
  it('reads a PDF into its chapters, metadata and text with # headings', async () => {
    const res = await read('Hải đăng.pdf', await writePdfBook());
    expect(res.status, res.text).toBe(200);
    const result = res.json.result as ManuscriptReadResult;
    expect(result).toMatchObject({
      file_name: 'Hải đăng.pdf',
      format: 'pdf',
      title: PDF_BOOK.title,
      author: PDF_BOOK.author,
    });
    expect(result.chapters).toEqual(
      PDF_BOOK.chapters.map((c) => ({ title: c.title, kind: 'body', paragraphs: c.paragraphs.length })),
    );
    const expected = PDF_BOOK.chapters
      .map((c) => [`# ${c.title}`, ...c.paragraphs.map((p) => `${p} ${PDF_ITALIC_TAIL}`)].join('\n\n'))
      .join('\n\n');
    expect(result.text).toBe(expected.normalize('NFC'));
  });

  it('reads a DOCX (written by the docx package) into chapters with # headings, not its zip bytes', async () => {
    const res = await read('Truyện Kiều.docx', Buffer.from(await writeDocx(VIETNAMESE_BOOK)));
    expect(res.status, res.text).toBe(200);
    const result = res.json.result as ManuscriptReadResult;
    expect(result.format).toBe('docx');
    expect(result.title).toBe(VIETNAMESE_BOOK.title);
    const titles = result.chapters.map((c) => c.title);
    expect(titles.filter((t) => VIETNAMESE_BOOK.chapters.some((c) => c.title === t))).toEqual(
      VIETNAMESE_BOOK.chapters.map((c) => c.title),
    );
    const first = VIETNAMESE_BOOK.chapters[0]!;
    expect(result.text).toContain(
      [`# ${first.title}`, ...first.paragraphs.map((p) => expectedParagraph(p).text)].join('\n\n'),
    );
    expect(result.text).not.toContain('PK');
    expect(result.text).not.toContain('word/document.xml');
  });

  it('reads plain text', async () => {
    const text = 'Chương một\n\nNgày xưa có một ngọn hải đăng.\n\nỞ đó có một người gác đèn.\n';
    const res = await read('notes.txt', text);
    expect(res.status, res.text).toBe(200);
    const result = res.json.result as ManuscriptReadResult;
    expect(result.format).toBe('text');
    expect(result.text).toContain('Ngày xưa có một ngọn hải đăng.');
    expect(result.text).toContain('Ở đó có một người gác đèn.');
  });

  it('lets the signed-in studio in, as a key', async () => {
    const { headers } = t.studio;
    const res = await t.call('POST', '/api/v1/manuscripts/read?file_name=book.pdf', {
      key: null,
      raw: await writePdfBook(),
      headers: { ...headers, 'content-type': 'application/octet-stream' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.chapters).toHaveLength(PDF_BOOK.chapters.length);
  });

  it('refuses a picture with a message naming the file, never its bytes', async () => {
    const png = readFileSync(join(import.meta.dirname, '../../../assets/icons/32x32.png'));
    const res = await read('cover.png', png);
    expect(res.status).toBe(415);
    expect(res.json).toMatchObject({ status: 0, error_code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(res.json.error_message).toContain('"cover.png" is not a manuscript we can read');
  });

  it('refuses a PDF without a text layer, in the error shape', async () => {
    const res = await read('scan.pdf', await writeImageOnlyPdf());
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ status: 0, error_code: 'MANUSCRIPT_INVALID' });
    expect(res.json.error_message).toMatch(/"scan\.pdf" has no text layer.*OCR is not done/);
  });

  it('asks for the file name', async () => {
    const res = await t.call('POST', '/api/v1/manuscripts/read', { raw: 'Hello.' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: 0, error_code: 'MISSING_FIELD' });
  });

  it('refuses a body over the file limit, declared or streamed, naming the file and the limit', async () => {
    const limitMiB = MANUSCRIPT_LIMITS.fileBytes / 1024 / 1024;
    const declared = await read('huge.txt', Buffer.alloc(MANUSCRIPT_LIMITS.fileBytes + 1, 0x61));
    expect(declared.status).toBe(413);
    expect(declared.json).toMatchObject({ status: 0, error_code: 'MANUSCRIPT_TOO_LARGE' });
    expect(declared.json.error_message).toContain('"huge.txt"');
    expect(declared.json.error_message).toContain(`at most ${limitMiB} MiB`);

    // Chunked, no length said: what passes the limit is dropped, not kept, and the error answered.
    const chunk = Buffer.alloc(1024 * 1024, 0x62);
    let sent = 0;
    const body = Readable.from(
      (function* () {
        for (let i = 0; i < limitMiB * 2; i += 1) {
          sent += chunk.length;
          yield chunk;
        }
      })(),
    );
    const response = await request(`${t.core.url}/api/v1/manuscripts/read?file_name=stream.md`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/octet-stream' },
      body,
    });
    const answer = (await response.body.json()) as { error_code: string; error_message: string };
    expect(response.statusCode).toBe(413);
    expect(answer.error_code).toBe('MANUSCRIPT_TOO_LARGE');
    expect(answer.error_message).toContain('"stream.md"');
    expect(answer.error_message).toContain(`at most ${limitMiB} MiB`);
    expect(sent).toBe(limitMiB * 2 * 1024 * 1024);
  });
});
