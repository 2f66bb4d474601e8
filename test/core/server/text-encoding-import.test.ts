/**
 * Text files in a code page through the real server on 127.0.0.1 (made by iconv from real
 * passages: test/fixtures/text-encodings.ts): the manuscript read route and a project import
 * name the encoding detected (`text_encoding`) and warn that it was guessed.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManuscriptReadResult } from '../../../electron/shared/manuscript-read';
import { ENGLISH, VIETNAMESE, iconv } from '../../fixtures/text-encodings';
import { startTestCore, type TestCore } from './helpers';

let t: TestCore;

beforeAll(async () => {
  t = await startTestCore({ authThrottle: { baseDelayMs: 0 } });
});
afterAll(async () => {
  await t?.close();
});

const octets = { 'content-type': 'application/octet-stream' };

describe('text encodings over HTTP', () => {
  it('the read route names Windows-1258 and warns; UTF-8 is named without a warning', async () => {
    const read = async (fileName: string, bytes: Uint8Array): Promise<ManuscriptReadResult> => {
      const res = await t.call('POST', `/api/v1/manuscripts/read?file_name=${encodeURIComponent(fileName)}`, {
        raw: Buffer.from(bytes),
        headers: octets,
      });
      expect(res.status, res.text).toBe(200);
      return res.json.result as ManuscriptReadResult;
    };
    const legacy = await read('Truyện Kiều.txt', iconv(VIETNAMESE, 'WINDOWS-1258'));
    expect(legacy.text_encoding).toBe('windows-1258');
    expect(legacy.text).toContain('Trăm năm trong cõi người ta,\nChữ tài chữ mệnh khéo là ghét nhau.');
    expect(legacy.warnings.join(' ')).toContain('Read as Windows-1258 text');
    const unicode = await read('Truyện Kiều.txt', new TextEncoder().encode(VIETNAMESE));
    expect(unicode.text_encoding).toBe('utf-8');
    expect(unicode.warnings).toEqual([]);
  });

  it('a project import of a Windows-1252 file says so, and its segments read right', async () => {
    const res = await t.call('POST', `/api/v1/projects/import?file_name=${encodeURIComponent('pride.txt')}`, {
      raw: Buffer.from(iconv(ENGLISH, 'WINDOWS-1252')),
      headers: octets,
    });
    expect(res.status, res.text).toBe(201);
    const detail = res.json.result as {
      project: { id: string };
      chapters: { id: string }[];
      text_encoding?: string;
    };
    expect(detail.text_encoding).toBe('windows-1252');
    const page = await t.call(
      'GET',
      `/api/v1/projects/${detail.project.id}/chapters/${detail.chapters[0]!.id}/segments?offset=0&limit=500`,
    );
    expect(page.status).toBe(200);
    const text = (page.json.result.items as { text: string }[]).map((s) => s.text).join(' ');
    expect(text).toContain('“My dear Mr. Bennet,” said his lady to him one day');
  });
});
