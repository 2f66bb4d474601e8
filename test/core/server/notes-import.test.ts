/**
 * The notes option through the real server on 127.0.0.1: pandoc's notes.docx (a footnote and an
 * endnote) imported with `notes=appendix` has a last chapter "Notes", without it none; a value that is not one of omit, inline, appendix is refused in the
 * API's error shape. An FB2 and an RTF file (pandoc's) import as projects.
 */

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCore, type TestCore } from './helpers';

let t: TestCore;
const REAL = join(__dirname, '../../fixtures/real-manuscripts');
const octets = { 'content-type': 'application/octet-stream' };

beforeAll(async () => {
  t = await startTestCore({ authThrottle: { baseDelayMs: 0 } });
});
afterAll(async () => {
  await t?.close();
});

async function importFile(name: string, query = '') {
  return t.call('POST', `/api/v1/projects/import?file_name=${encodeURIComponent(name)}${query}`, {
    raw: await readFile(join(REAL, name)),
    headers: octets,
  });
}

describe('POST /api/v1/projects/import with notes', () => {
  it('notes=appendix adds a last chapter "Notes" after the text; without it there is none', async () => {
    const appendix = await importFile('pandoc-docx-notes.docx', '&notes=appendix');
    expect(appendix.status, appendix.text).toBe(201);
    const titles = (appendix.json.result.chapters as { title: string }[]).map((c) => c.title);
    expect(titles).toEqual(['Opening', 'Notes']);

    const omitted = await importFile('pandoc-docx-notes.docx');
    expect(omitted.status, omitted.text).toBe(201);
    expect((omitted.json.result.chapters as { title: string }[]).map((c) => c.title)).not.toContain('Notes');
  });

  it('POST /projects/<id>/import takes notes too: the appended chapters end with "Notes"', async () => {
    const first = await importFile('pandoc-rtf-heading.rtf');
    expect(first.status, first.text).toBe(201);
    const id = (first.json.result.project as { id: string }).id;
    const res = await t.call(
      'POST',
      `/api/v1/projects/${id}/import?file_name=pandoc-docx-notes.docx&notes=appendix`,
      { raw: await readFile(join(REAL, 'pandoc-docx-notes.docx')), headers: octets },
    );
    expect(res.status, res.text).toBe(200);
    expect((res.json.result.chapters as { title: string }[]).map((c) => c.title)).toEqual([
      'Heading 1',
      'Opening',
      'Notes',
    ]);
  });

  it('refuses another value in the error shape', async () => {
    const res = await importFile('pandoc-docx-notes.docx', '&notes=footer');
    expect(res.status).toBe(400);
    expect(res.json.error_code).toBe('INVALID_FIELD');
    expect(res.json.error_details).toEqual({ field: 'notes' });
    expect(res.json.error_message).toBe('notes: must be one of omit, inline, appendix.');
  });

  it('imports FB2 and RTF files as projects', async () => {
    const fb2 = await importFile('pandoc-fb2-reader-poem.fb2');
    expect(fb2.status, fb2.text).toBe(201);
    const rtf = await importFile('pandoc-rtf-heading.rtf');
    expect(rtf.status, rtf.text).toBe(201);
    expect((rtf.json.result.chapters as { title: string }[]).map((c) => c.title)).toEqual(['Heading 1']);
  });
});
