/**
 * Legacy Vietnamese files through the real server on 127.0.0.1 (fake engine): a TCVN3 text file, a DOCX with
 * runs in VNI-Times (written by the docx package), a windows-1252 HTML page in .VnTime and a VNI
 * ODT (fflate) imported as projects whose segments are the
 * Unicode paragraph, and the manuscript read route's summary noting the conversion; text files in
 * a code page (Windows-1258, Windows-1252) named by `text_encoding` on reading and importing.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManuscriptReadResult } from '../../../electron/shared/manuscript-read';
import { latinBytes, TAT_DEN, toTcvn3, toVni, writeFontDocx } from '../../fixtures/legacy-vietnamese';
import { odtFiles, zipOdt } from '../../fixtures/manuscripts';
import { ENGLISH, VIETNAMESE, iconv } from '../../fixtures/text-encodings';
import { startFakeEngineCore, type TestCore } from './helpers';

let t: TestCore;

beforeAll(async () => {
  t = await startFakeEngineCore({ authThrottle: { baseDelayMs: 0 } });
});
afterAll(async () => {
  await t?.close();
});

const octets = { 'content-type': 'application/octet-stream' };

/** A file imported as a project: the import's answer and its segments' texts. */
async function imported(
  fileName: string,
  bytes: Uint8Array,
): Promise<{ detail: { legacy_encoding?: string; text_encoding?: string }; texts: string[] }> {
  const res = await t.call('POST', `/api/v1/projects/import?file_name=${encodeURIComponent(fileName)}`, {
    raw: Buffer.from(bytes),
    headers: octets,
  });
  expect(res.status, res.text).toBe(201);
  const detail = res.json.result as {
    project: { id: string };
    chapters: { id: string }[];
    legacy_encoding?: string;
    text_encoding?: string;
  };
  const texts: string[] = [];
  for (const chapter of detail.chapters) {
    const page = await t.call(
      'GET',
      `/api/v1/projects/${detail.project.id}/chapters/${chapter.id}/segments?offset=0&limit=500`,
    );
    expect(page.status).toBe(200);
    texts.push(...(page.json.result.items as { text: string }[]).map((s) => s.text));
  }
  return { detail, texts };
}

/** The segments of a file imported as a project, the answer saying its text was converted. */
async function importedSegments(
  fileName: string,
  bytes: Uint8Array,
  legacyEncoding: string,
): Promise<string[]> {
  const { detail, texts } = await imported(fileName, bytes);
  expect(detail.legacy_encoding).toBe(legacyEncoding);
  return texts;
}

/** The manuscript read route's answer for a file. */
async function readSummary(fileName: string, bytes: Uint8Array): Promise<ManuscriptReadResult> {
  const res = await t.call('POST', `/api/v1/manuscripts/read?file_name=${encodeURIComponent(fileName)}`, {
    raw: Buffer.from(bytes),
    headers: octets,
  });
  expect(res.status, res.text).toBe(200);
  return res.json.result as ManuscriptReadResult;
}

describe('legacy Vietnamese encodings on import', () => {
  it('imports a TCVN3 text file and a VNI-Times DOCX as projects in Unicode, the answer naming the encoding', async () => {
    const tcvn3 = await importedSegments('Tắt đèn.txt', latinBytes(toTcvn3(TAT_DEN)), 'tcvn3');
    expect(tcvn3.join(' ')).toBe(TAT_DEN);
    const vni = await importedSegments(
      'Tắt đèn.docx',
      await writeFontDocx([{ text: toVni(TAT_DEN), font: 'VNI-Times' }]),
      'vni',
    );
    expect(vni.join(' ')).toBe(TAT_DEN);
  });

  it('imports a windows-1252 HTML page in .VnTime and a VNI ODT (written with fflate) the same way', async () => {
    const page = latinBytes(
      `<html><head><meta charset="windows-1252"></head><body><p><font face=".VnTime">${toTcvn3(TAT_DEN)}</font></p></body></html>`,
    );
    expect((await importedSegments('tat-den.html', page, 'tcvn3')).join(' ')).toBe(TAT_DEN);
    const odt = zipOdt(
      odtFiles({
        title: 'Tắt đèn',
        author: 'Ngô Tất Tố',
        language: 'vi',
        chapters: [{ title: 'Chương mười tám', paragraphs: [toVni(TAT_DEN)] }],
      }),
    );
    expect((await importedSegments('tat-den.odt', odt, 'vni')).join(' ')).toBe(TAT_DEN);
  });

  it('says so in the read summary (warnings)', async () => {
    const result = await readSummary('tat-den.txt', latinBytes(toTcvn3(TAT_DEN)));
    expect(result.text).toContain(TAT_DEN);
    expect(result.legacy_encoding).toBe('tcvn3');
    expect(result.text_encoding).toBe('tcvn3');
    expect(result.warnings).toEqual([
      'Converted from TCVN3 (ABC) to Unicode (the file was in that legacy Vietnamese encoding).',
    ]);
  });
});

describe('text file encodings over HTTP (files made by iconv: test/fixtures/text-encodings.ts)', () => {
  it('the read route names Windows-1258 and warns; UTF-8 is named without a warning', async () => {
    const legacy = await readSummary('Truyện Kiều.txt', iconv(VIETNAMESE, 'WINDOWS-1258'));
    expect(legacy.text_encoding).toBe('windows-1258');
    expect(legacy.legacy_encoding).toBeNull();
    expect(legacy.text).toContain('Trăm năm trong cõi người ta,\nChữ tài chữ mệnh khéo là ghét nhau.');
    expect(legacy.warnings.join(' ')).toContain('Read as Windows-1258 text');
    const unicode = await readSummary('Truyện Kiều.txt', new TextEncoder().encode(VIETNAMESE));
    expect(unicode.text_encoding).toBe('utf-8');
    expect(unicode.warnings).toEqual([]);
  });

  it('a project import of a Windows-1252 file says so, and its segments read right', async () => {
    const { detail, texts } = await imported('pride.txt', iconv(ENGLISH, 'WINDOWS-1252'));
    expect(detail.text_encoding).toBe('windows-1252');
    expect(detail.legacy_encoding).toBeUndefined();
    expect(texts.join(' ')).toContain('“My dear Mr. Bennet,” said his lady to him one day');
  });
});
