/**
 * Legacy Vietnamese files through the real server on 127.0.0.1: a TCVN3 text file, a DOCX with
 * runs in VNI-Times (written by the docx package), a windows-1252 HTML page in .VnTime and a VNI
 * ODT (fflate) imported as projects whose segments are the
 * Unicode paragraph, and the manuscript read route's summary noting the conversion.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManuscriptReadResult } from '../../../electron/shared/manuscript-read';
import { latinBytes, TAT_DEN, toTcvn3, toVni, writeFontDocx } from '../../fixtures/legacy-vietnamese';
import { odtFiles, zipOdt } from '../../fixtures/manuscripts';
import { startTestCore, type TestCore } from './helpers';

let t: TestCore;

beforeAll(async () => {
  t = await startTestCore({ authThrottle: { baseDelayMs: 0 } });
});
afterAll(async () => {
  await t?.close();
});

const octets = { 'content-type': 'application/octet-stream' };

async function importedSegments(
  fileName: string,
  bytes: Uint8Array,
  legacyEncoding: string,
): Promise<string[]> {
  const res = await t.call('POST', `/api/v1/projects/import?file_name=${encodeURIComponent(fileName)}`, {
    raw: Buffer.from(bytes),
    headers: octets,
  });
  expect(res.status, res.text).toBe(201);
  const detail = res.json.result as {
    project: { id: string };
    chapters: { id: string }[];
    legacy_encoding?: string;
  };
  // The import's answer says the text was converted.
  expect(detail.legacy_encoding).toBe(legacyEncoding);
  const texts: string[] = [];
  for (const chapter of detail.chapters) {
    const page = await t.call(
      'GET',
      `/api/v1/projects/${detail.project.id}/chapters/${chapter.id}/segments?offset=0&limit=500`,
    );
    expect(page.status).toBe(200);
    texts.push(...(page.json.result.items as { text: string }[]).map((s) => s.text));
  }
  return texts;
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
    const res = await t.call(
      'POST',
      `/api/v1/manuscripts/read?file_name=${encodeURIComponent('tat-den.txt')}`,
      {
        raw: Buffer.from(latinBytes(toTcvn3(TAT_DEN))),
        headers: octets,
      },
    );
    expect(res.status, res.text).toBe(200);
    const result = res.json.result as ManuscriptReadResult;
    expect(result.text).toContain(TAT_DEN);
    expect(result.legacy_encoding).toBe('tcvn3');
    expect(result.warnings).toEqual([
      'Converted from TCVN3 (ABC) to Unicode (the file was in that legacy Vietnamese encoding).',
    ]);
  });
});
