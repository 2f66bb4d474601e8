/**
 * A Vietnamese book made the way reading sites make them (vnthuquan: one <div> a chapter, <br>
 * paragraphs, dc:language en, a title paragraph on every page), imported over real HTTP on a
 * real core: each line of dialogue is its own segment, the title page paragraph is the title.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readingSiteEpubFiles, readingSiteParagraphs, zipEpub } from '../../fixtures/manuscripts';
import { startTestCore, type TestCore } from './helpers';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => {
  await t?.close();
});

const CHAPTER = readingSiteParagraphs(40, 1);

describe('importing a book as Vietnamese reading sites make it', () => {
  it('makes a segment of each <br> line, narration and dialogue apart, and the title paragraph the title', async () => {
    const epub = zipEpub(
      readingSiteEpubFiles({
        title: 'Số đỏ',
        pageTitle: 'SỐ ĐỎ',
        author: 'Vũ Trọng Phụng',
        language: 'en',
        introduction: ['Tiểu thuyết trào phúng, đăng báo năm 1936.'],
        chapters: [{ title: 'Chương một', paragraphs: CHAPTER }],
      }),
    );
    const res = await t.call(
      'POST',
      `/api/v1/projects/import?file_name=${encodeURIComponent('Số đỏ.epub')}`,
      {
        raw: Buffer.from(epub),
        headers: { 'content-type': 'application/octet-stream' },
      },
    );
    expect(res.status).toBe(201);
    const detail = res.json.result;
    expect(detail.project.title).toBe('Số đỏ');
    const chapters = detail.chapters.map((c: { title: string; included: boolean; segment_count: number }) => [
      c.title,
      c.included,
      c.segment_count,
    ]);
    expect(chapters).toEqual([
      ['Mục lục', false, 1],
      ['Giới thiệu', true, 2],
      // The chapter's <div class="chuong"> name line is its title, not a segment.
      ['Chương một', true, CHAPTER.length],
    ]);
    const chapter = detail.chapters[2] as { id: string };
    const page = await t.call(
      'GET',
      `/api/v1/projects/${detail.project.id}/chapters/${chapter.id}/segments?offset=0&limit=500`,
    );
    const texts = (page.json.result.items as { text: string }[]).map((s) => s.text);
    expect(texts).toEqual(CHAPTER);
    expect(texts.filter((text) => /^[—–-] /.test(text))).toHaveLength(20);
    expect(texts.filter((text) => /SỐ ĐỎ/.test(text))).toEqual([]);
  });
});
