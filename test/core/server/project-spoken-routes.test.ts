/**
 * The spoken structure's fields over real HTTP on a real core (issue 39): a Vietnamese DOCX (made
 * by the fixtures' real writer) imported as a project speaks headings and has credits by default
 * (ACX), made in Vietnamese; the preset's default, the settings, a chapter's spoken heading, undo,
 * an archive and a duplicate keep them; bad values answer in the API's error shape.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIETNAMESE_BOOK, writeDocx } from '../../fixtures/manuscripts';
import { parseSrt } from '../../../electron/shared/srt';
import { startTestCore, type TestCore } from './helpers';

let t: TestCore;
let docx: Buffer;

beforeAll(async () => {
  t = await startTestCore({ authThrottle: { baseDelayMs: 0 } });
  docx = Buffer.from(await writeDocx(VIETNAMESE_BOOK));
});
afterAll(async () => {
  await t?.close();
});

interface Detail {
  project: Record<string, unknown> & { id: string };
  chapters: { id: string; title: string; spoken_heading: string; spoken_heading_edited: boolean }[];
}

const patch = async (path: string, body: unknown): Promise<Detail> => {
  const res = await t.call('PATCH', path, { body });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.result as Detail;
};

describe('spoken structure over the project routes', () => {
  it('makes headings and credits in the book language, follows the preset, and keeps edits', async () => {
    const res = await t.call('POST', `/api/v1/projects/import?file_name=${encodeURIComponent('Kiều.docx')}`, {
      raw: docx,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.status).toBe(201);
    const made = res.json.result as Detail;
    const id = made.project.id;
    expect(made.project).toMatchObject({
      preset: 'acx',
      speak_headings: true,
      credits: true,
      narrator_name: null,
      copyright: null,
      opening_credits: 'Truyện Kiều — Bản thử. Tác giả: Nguyễn Du.',
      closing_credits: 'Hết.',
      opening_credits_edited: false,
      closing_credits_edited: false,
    });
    const first = made.chapters.find((c) => c.title === 'Chương 1: Trăm năm')!;
    expect(first).toMatchObject({ spoken_heading: 'Chương một. Trăm năm', spoken_heading_edited: false });
    expect(made.chapters.find((c) => c.title === 'Chương 2: Thanh minh')!.spoken_heading).toBe(
      'Chương hai. Thanh minh',
    );

    // The podcast preset has neither by default; a setting says otherwise, null gives it back.
    const podcast = await patch(`/api/v1/projects/${id}`, { preset: 'podcast' });
    expect(podcast.project).toMatchObject({ speak_headings: false, credits: false });
    const on = await patch(`/api/v1/projects/${id}`, { speak_headings: true });
    expect(on.project).toMatchObject({ speak_headings: true, credits: false });
    const back = await patch(`/api/v1/projects/${id}`, { speak_headings: null, preset: 'acx' });
    expect(back.project).toMatchObject({ speak_headings: true, credits: true });
    const off = await patch(`/api/v1/projects/${id}`, { credits: false });
    expect(off.project).toMatchObject({ speak_headings: true, credits: false });

    // The credits' words are made from the fields until a person writes them.
    const named = await patch(`/api/v1/projects/${id}`, {
      credits: true,
      narrator_name: 'Trần Minh',
      copyright: 'Bản quyền 2026 Nhà xuất bản Thử nghiệm',
    });
    expect(named.project).toMatchObject({
      opening_credits: 'Truyện Kiều — Bản thử. Tác giả: Nguyễn Du. Người đọc: Trần Minh.',
      closing_credits: 'Hết. Bản quyền 2026 Nhà xuất bản Thử nghiệm.',
    });
    const written = await patch(`/api/v1/projects/${id}`, { closing_credits: 'Kết thúc.  ' });
    expect(written.project).toMatchObject({ closing_credits: 'Kết thúc.', closing_credits_edited: true });

    // A chapter's spoken heading: edited, undone, redone, and made from the title again.
    const chapterPath = `/api/v1/projects/${id}/chapters/${first.id}`;
    const edited = await patch(chapterPath, { spoken_heading: 'Hồi thứ nhất' });
    expect(edited.chapters.find((c) => c.id === first.id)).toMatchObject({
      spoken_heading: 'Hồi thứ nhất',
      spoken_heading_edited: true,
    });
    const undone = (await t.call('POST', `/api/v1/projects/${id}/undo`)).json.result as Detail;
    expect(undone.chapters.find((c) => c.id === first.id)!.spoken_heading).toBe('Chương một. Trăm năm');
    await t.call('POST', `/api/v1/projects/${id}/redo`);

    // An archive and a duplicate keep all of it.
    const archive = await t.call('GET', `/api/v1/projects/${id}/archive`);
    const imported = await t.call('POST', '/api/v1/projects/import-archive?file_name=kieu.narration.zip', {
      raw: archive.body,
      headers: { 'content-type': 'application/zip' },
    });
    const copy = await t.call('POST', `/api/v1/projects/${id}/duplicate`);
    for (const other of [imported.json.result as Detail, copy.json.result as Detail]) {
      expect(other.project).toMatchObject({
        speak_headings: true,
        credits: true,
        narrator_name: 'Trần Minh',
        closing_credits: 'Kết thúc.',
        closing_credits_edited: true,
      });
      expect(other.chapters.find((c) => c.title === first.title)).toMatchObject({
        spoken_heading: 'Hồi thứ nhất',
        spoken_heading_edited: true,
      });
    }

    const reset = await patch(chapterPath, { spoken_heading: null });
    expect(reset.chapters.find((c) => c.id === first.id)).toMatchObject({
      spoken_heading: 'Chương một. Trăm năm',
      spoken_heading_edited: false,
    });
  });

  it('answers bad values in the API error shape', async () => {
    const id = (await t.call('POST', '/api/v1/projects', { body: { title: 'Empty book', language: 'en' } }))
      .json.result.project.id;
    for (const body of [{ speak_headings: 'yes' }, { credits: 1 }, { copyright: 'x'.repeat(1001) }]) {
      const res = await t.call('PATCH', `/api/v1/projects/${id}`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toMatchObject({ status: 0, error_code: expect.any(String) });
    }
    const english = (await t.call('GET', `/api/v1/projects/${id}`)).json.result as Detail;
    expect(english.project).toMatchObject({ opening_credits: 'Empty book.', closing_credits: 'The end.' });
  });

  it('keeps the spoken structure a new project is created with (it was dropped before)', async () => {
    const res = await t.call('POST', '/api/v1/projects', {
      body: {
        title: 'Empty book',
        language: 'en',
        speak_headings: false,
        narrator_name: 'Ada Reader',
        copyright: '© 2026 A. B.',
      },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect((res.json.result as Detail).project).toMatchObject({
      preset: 'acx',
      speak_headings: false,
      credits: true,
      narrator_name: 'Ada Reader',
      opening_credits: 'Empty book. Narrated by Ada Reader.',
      closing_credits: 'The end. © 2026 A. B.',
    });
  });

  it("serves a finished export's book-wide subtitles, SRT and WebVTT, named after the book", async () => {
    const text = 'CHƯƠNG 1\n\nChị Dậu bế con ra đầu làng.\n\nCHƯƠNG 2\n\nTrời đã tối hẳn.\n';
    const imported = await t.call('POST', '/api/v1/projects/import?file_name=tat-den.txt', {
      raw: Buffer.from(text),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(imported.status, imported.text).toBe(201);
    const id = imported.json.result.project.id as string;
    const started = await t.call('POST', `/api/v1/projects/${id}/exports`, { body: { format: 'm4b' } });
    expect(started.status, started.text).toBe(201);
    const exportPath = `/api/v1/projects/${id}/exports/${started.json.result.id as string}`;
    let record = started.json.result as {
      status: string;
      subtitles?: string[];
      chapters: { title: string }[];
    };
    for (let i = 0; i < 1200 && record.status !== 'done' && record.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      record = (await t.call('GET', exportPath)).json.result;
    }
    expect(record.status, JSON.stringify(record)).toBe('done');
    expect(record.chapters.map((c) => c.title)).toEqual(['Phần mở đầu', 'CHƯƠNG 1', 'CHƯƠNG 2', 'Phần kết']);
    expect(record.subtitles).toEqual(['tat-den.srt', 'tat-den.vtt']);

    const srt = await t.call('GET', `${exportPath}/subtitles/srt`);
    expect(srt.status).toBe(200);
    expect(srt.headers['content-type']).toBe('application/x-subrip; charset=utf-8');
    expect(decodeURIComponent(String(srt.headers['content-disposition']))).toContain('tat-den.srt');
    const cues = parseSrt(srt.text);
    expect(cues.map((c) => c.text.replace(/\s+/g, ' '))).toContain('Chương một');
    const vtt = await t.call('GET', `${exportPath}/subtitles/vtt`);
    expect(vtt.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(vtt.text.startsWith('WEBVTT\n')).toBe(true);
    const bad = await t.call('GET', `${exportPath}/subtitles/ass`);
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
  }, 180_000);
});
