/**
 * The project routes over real HTTP on a real core: import real DOCX and EPUB files (written by
 * the fixtures' real writers), edit with undo and redo, chapters, the cast, archives, and errors
 * in the API's shape; another key never sees a project.
 */

import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANUSCRIPT_LIMITS } from '../../../electron/shared/manuscript';
import { pngCover, VIETNAMESE_BOOK, writeDocx, writeEpub3 } from '../../fixtures/manuscripts';
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

const octets = { 'content-type': 'application/octet-stream' };

async function importFile(bytes: Buffer, fileName: string, extra = '', key?: string) {
  return t.call('POST', `/api/v1/projects/import?file_name=${encodeURIComponent(fileName)}${extra}`, {
    raw: bytes,
    headers: octets,
    ...(key ? { key } : {}),
  });
}

describe('project routes', () => {
  it('imports a DOCX as a project, lists it, and keeps it from other keys', async () => {
    const res = await importFile(docx, 'Truyện Kiều.docx', '&voice_code=vi_female_thuytrang_mb');
    expect(res.status).toBe(201);
    const detail = res.json.result;
    expect(detail.project).toMatchObject({
      title: 'Truyện Kiều — Bản thử',
      language: 'vi',
      source_format: 'docx',
    });
    expect(detail.characters[0]).toMatchObject({ narrator: true, voice_code: 'vi_female_thuytrang_mb' });
    const titles = detail.chapters.map((c: { title: string; included: boolean; segment_count: number }) => [
      c.title,
      c.included,
      c.segment_count,
    ]);
    expect(titles).toContainEqual(['Chương 1: Trăm năm', true, 3]);
    expect(titles).toContainEqual(['Chương 3: Gặp gỡ', true, 1]);

    const list = await t.call('GET', '/api/v1/projects');
    expect(list.json.result.items.map((p: { id: string }) => p.id)).toContain(detail.project.id);

    const other = await t.newKey();
    const theirs = await t.call('GET', `/api/v1/projects/${detail.project.id}`, { key: other });
    expect(theirs.status).toBe(404);
    expect(theirs.json).toMatchObject({ status: 0, error_code: 'PROJECT_NOT_FOUND' });
    const segment = detail.chapters.find((c: { included: boolean }) => c.included).segments[0];
    for (const [method, path, body] of [
      ['PATCH', `/api/v1/projects/${detail.project.id}/segments/${segment.id}`, { text: 'x' }],
      ['DELETE', `/api/v1/projects/${detail.project.id}`, undefined],
      ['GET', `/api/v1/projects/${detail.project.id}/archive`, undefined],
      ['POST', `/api/v1/projects/${detail.project.id}/undo`, undefined],
    ] as const) {
      const res = await t.call(method, path, { key: other, ...(body ? { body } : {}) });
      expect(res.status, path).toBe(404);
      expect(res.json.error_code, path).toBe('PROJECT_NOT_FOUND');
    }
    expect((await t.call('GET', '/api/v1/projects', { key: other })).json.result.items).toEqual([]);
    expect((await t.call('GET', '/api/v1/projects', { key: null })).status).toBe(401);
  });

  it("serves a project's cover once it has one", async () => {
    const made = await t.call('POST', '/api/v1/projects', { body: { title: 'Bìa' } });
    const id = made.json.result.project.id;
    const none = await t.call('GET', `/api/v1/projects/${id}/cover`);
    expect(none.status).toBe(404);
    expect(none.json.error_code).toBe('PROJECT_NOT_FOUND');
    const png = Buffer.from(pngCover().bytes);
    const set = await t.call('PATCH', `/api/v1/projects/${id}`, {
      body: { cover: `data:image/png;base64,${png.toString('base64')}` },
    });
    expect(set.json.result.project.has_cover).toBe(true);
    const cover = await t.call('GET', `/api/v1/projects/${id}/cover`);
    expect(cover.status).toBe(200);
    expect(cover.headers['content-type']).toBe('image/png');
    expect(cover.body.equals(png)).toBe(true);
  });

  it('edits a segment with undo and redo, chapters and the cast, over HTTP', async () => {
    const id = (await importFile(Buffer.from(writeEpub3(VIETNAMESE_BOOK)), 'kieu.epub')).json.result.project
      .id;
    const base = `/api/v1/projects/${id}`;
    let detail = (await t.call('GET', base)).json.result;
    expect(detail.project.source_format).toBe('epub');
    const body = detail.chapters.filter((c: { kind: string }) => c.kind === 'body');
    const segment = body[0].segments[0];

    const edited = await t.call('PATCH', `${base}/segments/${segment.id}`, {
      body: { text: 'Một câu mới.', flag_note: 'nghe lại' },
    });
    expect(edited.status).toBe(200);
    expect(edited.json.result).toMatchObject({
      text: 'Một câu mới.',
      state: 'not_rendered',
      flag_note: 'nghe lại',
    });
    const undone = await t.call('POST', `${base}/undo`);
    expect(
      undone.json.result.chapters
        .flatMap((c: { segments: { id: string; text: string }[] }) => c.segments)
        .find((s: { id: string }) => s.id === segment.id).text,
    ).toBe(segment.text);
    expect(undone.json.result.project.can_redo).toBe(true);
    expect((await t.call('POST', `${base}/redo`)).status).toBe(200);
    const nothing = await t.call('POST', `${base}/redo`);
    expect(nothing.status).toBe(409);
    expect(nothing.json.error_code).toBe('PROJECT_CONFLICT');

    const changes = await t.call('GET', `${base}/chapters/${body[0].id}/changes`);
    expect(changes.json.result).toMatchObject({ chapter_id: body[0].id, exported_text: null });
    expect(changes.json.result.text.startsWith('Một câu mới.')).toBe(true);

    const order = [...detail.chapters].reverse().map((c: { id: string }) => c.id);
    detail = (await t.call('POST', `${base}/chapters/order`, { body: { chapter_ids: order } })).json.result;
    expect(detail.chapters.map((c: { id: string }) => c.id)).toEqual(order);
    detail = (await t.call('POST', `${base}/undo`)).json.result;
    const merged = await t.call('POST', `${base}/chapters/merge`, {
      body: { chapter_ids: [body[0].id, body[1].id] },
    });
    expect(merged.status).toBe(200);
    const mergedChapter = merged.json.result.chapters.find((c: { id: string }) => c.id === body[0].id);
    expect(mergedChapter.segment_count).toBe(body[0].segment_count + body[1].segment_count);
    const split = await t.call('POST', `${base}/chapters/${body[0].id}/split`, {
      body: { segment_id: mergedChapter.segments[body[0].segment_count].id, title: 'Thanh minh' },
    });
    expect(split.json.result.chapters.map((c: { title: string }) => c.title)).toContain('Thanh minh');
    const renamed = await t.call('PATCH', `${base}/chapters/${body[0].id}`, {
      body: { title: 'Mở đầu', included: false },
    });
    expect(renamed.json.result.chapters.find((c: { id: string }) => c.id === body[0].id)).toMatchObject({
      title: 'Mở đầu',
      included: false,
    });

    const added = await t.call('POST', `${base}/characters`, {
      body: { name: 'Kiều', voice_code: 'vi_female_hacuc_mb', pitch_rate: 1.2 },
    });
    expect(added.status).toBe(201);
    const kieu = added.json.result;
    expect(kieu).toMatchObject({ name: 'Kiều', narrator: false, confirmed: true, pitch_rate: 1.2 });
    const spoken = await t.call('PATCH', `${base}/segments/${segment.id}`, { body: { speaker: kieu.id } });
    expect(spoken.json.result.speaker).toBe(kieu.id);
    const patched = await t.call('PATCH', `${base}/characters/${kieu.id}`, { body: { volume: 120 } });
    expect(patched.json.result.volume).toBe(120);
    const removed = await t.call('DELETE', `${base}/characters/${kieu.id}`);
    expect(removed.json.result.characters.some((c: { id: string }) => c.id === kieu.id)).toBe(false);
    expect((await t.call('POST', `${base}/suggestions/apply`, { body: {} })).status).toBe(200);
    const settings = await t.call('PATCH', base, {
      body: { title: 'Kiều', preset: 'podcast', speed_rate: 1.1 },
    });
    expect(settings.json.result.project).toMatchObject({ title: 'Kiều', preset: 'podcast' });
  });

  it('answers bad input in the API error shape, naming the file', async () => {
    const bad = await t.call('PATCH', '/api/v1/projects/0123', { body: { title: '' } });
    expect(bad.status).toBe(400);
    const id = (
      await t.call('POST', '/api/v1/projects', {
        body: { title: 'Empty book', voice_code: 'en_female_emily_us' },
      })
    ).json.result.project.id;
    expect((await t.call('GET', `/api/v1/projects/${id}`)).json.result.characters[0].voice_code).toBe(
      'en_female_emily_us',
    );
    for (const [body, code] of [
      [{ title: '' }, 'INVALID_FIELD'],
      [{ voice_code: 'xx_nobody' }, 'UNKNOWN_VOICE'],
      [{ speed_rate: 9 }, 'INVALID_FIELD'],
      [[1, 2], 'INVALID_JSON'],
    ] as const) {
      const res = await t.call('PATCH', `/api/v1/projects/${id}`, { body });
      expect(res.json, JSON.stringify(body)).toMatchObject({ status: 0, error_code: code });
    }
    const noName = await t.call('POST', '/api/v1/projects/import', { raw: docx, headers: octets });
    expect(noName.json).toMatchObject({ status: 0, error_code: 'MISSING_FIELD' });
    const unknown = await importFile(Buffer.from('\u0000\u0001binary'), 'photo.bmp');
    expect(unknown.json.error_code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(unknown.json.error_message).toContain('photo.bmp');
    const broken = await importFile(docx.subarray(0, 200), 'broken.docx');
    expect(broken.json.error_code).toBe('MANUSCRIPT_INVALID');
    expect(broken.json.error_message).toContain('broken.docx');
    const empty = await importFile(Buffer.alloc(0), 'empty.docx');
    expect(empty.json.error_code).toBe('MANUSCRIPT_INVALID');
    const badArchive = await t.call('POST', '/api/v1/projects/import-archive?file_name=old.narration.zip', {
      raw: Buffer.from('PK\u0003\u0004 not really'),
      headers: { 'content-type': 'application/zip' },
    });
    expect(badArchive.json.error_code).toBe('MANUSCRIPT_INVALID');
    expect(badArchive.json.error_message).toContain('old.narration.zip');
    expect(
      (await t.call('GET', '/api/v1/projects')).json.result.items.some(
        (p: { title: string }) => p.title === 'old',
      ),
    ).toBe(false);
  });

  it('refuses an import body over the limit at once, naming the file and the limit', async () => {
    const url = new URL(`${t.core.url}/api/v1/projects/import?file_name=huge.docx`);
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${t.key}`,
          'content-type': 'application/octet-stream',
          'content-length': String(MANUSCRIPT_LIMITS.fileBytes + 1),
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.write(Buffer.alloc(64 * 1024));
    });
    expect(answer.status).toBe(413);
    const json = JSON.parse(answer.text) as { error_code: string; error_message: string };
    expect(json.error_code).toBe('MANUSCRIPT_TOO_LARGE');
    expect(json.error_message).toContain('huge.docx');
    expect(json.error_message).toContain(`${MANUSCRIPT_LIMITS.fileBytes / 1024 ** 2} MiB`);
  });

  it('exports a project as an archive and imports it back as a new project; duplicates and deletes', async () => {
    const made = (await importFile(docx, 'kieu.docx')).json.result;
    const archive = await t.call('GET', `/api/v1/projects/${made.project.id}/archive`);
    expect(archive.status).toBe(200);
    expect(archive.headers['content-type']).toBe('application/zip');
    expect(decodeURIComponent(String(archive.headers['content-disposition']))).toContain(
      'Truyện Kiều — Bản thử.narration.zip',
    );
    const back = await t.call('POST', '/api/v1/projects/import-archive?file_name=kieu.narration.zip', {
      raw: archive.body,
      headers: { 'content-type': 'application/zip' },
    });
    expect(back.status).toBe(201);
    expect(back.json.result.project.id).not.toBe(made.project.id);
    const texts = (d: { chapters: { title: string; segments: { text: string }[] }[] }) =>
      d.chapters.map((c) => [c.title, c.segments.map((s) => s.text)]);
    expect(texts(back.json.result)).toEqual(texts(made));

    const copy = await t.call('POST', `/api/v1/projects/${made.project.id}/duplicate`);
    expect(copy.status).toBe(201);
    expect(texts(copy.json.result)).toEqual(texts(made));
    const removed = await t.call('DELETE', `/api/v1/projects/${made.project.id}`);
    expect(removed.json.result).toEqual({ project_id: made.project.id, removed: true });
    expect((await t.call('GET', `/api/v1/projects/${made.project.id}`)).status).toBe(404);

    const into = await t.call(
      'POST',
      `/api/v1/projects/${copy.json.result.project.id}/import?file_name=more.docx`,
      {
        raw: docx,
        headers: octets,
      },
    );
    expect(into.status).toBe(200);
    expect(into.json.result.chapters).toHaveLength(made.chapters.length * 2);
  });
});
