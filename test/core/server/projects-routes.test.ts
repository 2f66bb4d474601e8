/**
 * The project routes over real HTTP on a real core (the fake engine, as nothing is rendered):
 * import real DOCX and EPUB files (written by the fixtures' real writers), edit with undo and
 * redo, chapters, the cast, archives, and errors in the API's shape; another key never sees a
 * project.
 */

import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANUSCRIPT_LIMITS } from '../../../electron/shared/manuscript';
import { PROJECT_LIMITS } from '../../../electron/shared/projects';
import { pngCover, VIETNAMESE_BOOK, writeDocx, writeEpub3 } from '../../fixtures/manuscripts';
import { createApiKey } from '../../../electron/core/jobs/keys';
import { systemClock } from '../../../electron/core/platform/clock';
import { projectRow } from '../../fixtures/test-project';
import { startFakeEngineCore, type TestCore } from './helpers';

let t: TestCore;
let docx: Buffer;

beforeAll(async () => {
  t = await startFakeEngineCore({ authThrottle: { baseDelayMs: 0 } });
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

interface Segment {
  id: string;
  text: string;
  state: string;
  speaker: string | null;
}

/** Every segment of a chapter, read a page at a time through GET …/chapters/<cid>/segments. */
async function segmentsOf(projectId: string, chapterId: string, key?: string): Promise<Segment[]> {
  const all: Segment[] = [];
  for (;;) {
    const res = await t.call(
      'GET',
      `/api/v1/projects/${projectId}/chapters/${chapterId}/segments?offset=${all.length}&limit=500`,
      key ? { key } : {},
    );
    expect(res.status).toBe(200);
    all.push(...(res.json.result.items as Segment[]));
    if (res.json.result.items.length === 0 || all.length >= res.json.result.total) return all;
  }
}

/** Each chapter's title and its segments' texts, over HTTP. */
async function texts(detail: { project: { id: string }; chapters: { id: string; title: string }[] }) {
  const out: [string, string[]][] = [];
  for (const c of detail.chapters)
    out.push([c.title, (await segmentsOf(detail.project.id, c.id)).map((s) => s.text)]);
  return out;
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
    const segment = (
      await segmentsOf(detail.project.id, detail.chapters.find((c: { included: boolean }) => c.included).id)
    )[0]!;
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
    const segment = (await segmentsOf(id, body[0].id))[0]!;

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
    expect(undone.json.result.chapters[0]).not.toHaveProperty('segments');
    expect((await segmentsOf(id, body[0].id)).find((s) => s.id === segment.id)!.text).toBe(segment.text);
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
      body: {
        segment_id: (await segmentsOf(id, body[0].id))[body[0].segment_count]!.id,
        title: 'Thanh minh',
      },
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

  it('merges a character into another and splits it out again over HTTP (Pride and Prejudice, chapter 2)', async () => {
    // Standard Ebooks' text (CC0): test/fixtures/real-manuscripts/SOURCES.md.
    const chapter = readFileSync(
      new URL('../../fixtures/real-manuscripts/pride-and-prejudice/chapter-2.xhtml', import.meta.url),
    );
    const res = await importFile(chapter, 'chapter-2.xhtml', '&voice_code=en_male_onyx_default');
    expect(res.status).toBe(201);
    const base = `/api/v1/projects/${res.json.result.project.id}`;
    type Cast = { id: string; name: string; narrator: boolean; segments: number; suggested: number }[];
    const cast = res.json.result.characters as Cast;
    const mr = cast.find((c) => c.name === 'Mr. Bennet')!;
    const mrs = cast.find((c) => c.name === 'Mrs. Bennet')!;
    const narrator = cast.find((c) => c.narrator)!;
    const merged = await t.call('POST', `${base}/characters/${mrs.id}/merge`, { body: { into: mr.id } });
    expect(merged.status).toBe(200);
    const after = merged.json.result.characters as Cast;
    expect(after.some((c) => c.id === mrs.id)).toBe(false);
    expect(after.find((c) => c.id === mr.id)!.suggested).toBe(mr.suggested + mrs.suggested);
    const split = await t.call('POST', `${base}/characters/${mr.id}/split`, {
      body: { names: ['Mrs. Bennet'] },
    });
    expect(split.status).toBe(200);
    const again = split.json.result.characters as Cast;
    expect(again.find((c) => c.name === 'Mrs. Bennet')!.suggested).toBe(mrs.suggested);
    expect(again.find((c) => c.id === mr.id)!.suggested).toBe(mr.suggested);

    const refused = [
      [`${base}/characters/${mr.id}/merge`, { into: narrator.id }, 409, 'PROJECT_CONFLICT'],
      [`${base}/characters/${mr.id}/merge`, {}, 400, 'INVALID_FIELD'],
      [`${base}/characters/${mr.id}/split`, { names: [] }, 400, 'INVALID_FIELD'],
      [`${base}/characters/${mr.id}/split`, { names: ['Mr. Collins'] }, 400, 'INVALID_FIELD'],
      [`${base}/characters/${'0'.repeat(32)}/merge`, { into: mr.id }, 404, 'PROJECT_NOT_FOUND'],
    ] as const;
    for (const [path, body, status, code] of refused) {
      const answer = await t.call('POST', path, { body });
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(status);
      expect(answer.json.error_code, path).toBe(code);
    }
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
    expect(await texts(back.json.result)).toEqual(await texts(made));

    const copy = await t.call('POST', `/api/v1/projects/${made.project.id}/duplicate`);
    expect(copy.status).toBe(201);
    expect(await texts(copy.json.result)).toEqual(await texts(made));
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

describe('project answers stay bounded whatever the book (issue 36)', () => {
  it('refuses a text of 250,000 tiny paragraphs by the paragraph limit, keeping nothing', async () => {
    const key = await t.newKey();
    const text = Array.from({ length: 250_000 }, (_, i) => `P${i}.`).join('\n\n');
    const res = await importFile(Buffer.from(text), 'tiny.txt', '', key);
    expect(res.status, res.text.slice(0, 300)).toBe(413);
    expect(res.json).toMatchObject({ status: 0, error_code: 'MANUSCRIPT_TOO_LARGE' });
    expect(res.json.error_message).toContain('tiny.txt');
    // The reader's paragraph limit refuses it first (PROJECT_LIMITS.segments, the same figure, is
    // the backstop for what comes another way).
    expect(res.json.error_message).toContain(PROJECT_LIMITS.segments.toLocaleString('en-US'));
    expect((await t.call('GET', '/api/v1/projects', { key })).json.result.items).toEqual([]);
  });

  it("answers a long book's detail without its segments, and its segments a bounded window at a time", async () => {
    const count = 40_000;
    const book = `# One\n\n${Array.from({ length: count }, (_, i) => `Line ${i} of the long chapter.`).join('\n\n')}`;
    const made = await importFile(Buffer.from(book), 'long.txt');
    expect(made.status, made.text.slice(0, 300)).toBe(201);
    // The import's answer and the detail are the same few hundred bytes for 40,000 segments as for 4.
    expect(made.body.length).toBeLessThan(4096);
    const id = made.json.result.project.id;
    const detail = await t.call('GET', `/api/v1/projects/${id}`);
    expect(detail.body.length).toBeLessThan(4096);
    const [chapter] = detail.json.result.chapters;
    expect(chapter).toMatchObject({ title: 'One', segment_count: count, segments_done: 0 });
    expect(chapter).not.toHaveProperty('segments');
    expect(detail.json.result.project.segment_count).toBe(count);

    const page = (query: string) =>
      t.call('GET', `/api/v1/projects/${id}/chapters/${chapter.id}/segments${query}`);
    const first = await page('');
    expect(first.json.result).toMatchObject({ chapter_id: chapter.id, offset: 0, limit: 100, total: count });
    expect(first.json.result.items).toHaveLength(100);
    expect(first.json.result.items[0]).toMatchObject({ position: 0, text: 'Line 0 of the long chapter.' });
    const widest = await page('?offset=1000&limit=500');
    expect(widest.json.result.items).toHaveLength(PROJECT_LIMITS.segmentPage);
    expect(widest.json.result.items[0].text).toBe('Line 1000 of the long chapter.');
    const last = await page(`?offset=${count - 10}&limit=500`);
    expect(last.json.result.items.map((s: { position: number }) => s.position)).toEqual(
      Array.from({ length: 10 }, (_, i) => count - 10 + i),
    );
    for (const bad of ['?limit=501', '?limit=0', '?offset=-1', '?offset=x']) {
      const res = await page(bad);
      expect(res.status, bad).toBe(400);
      expect(res.json.error_code, bad).toBe('INVALID_FIELD');
    }
    const other = await t.newKey();
    const theirs = await t.call('GET', `/api/v1/projects/${id}/chapters/${chapter.id}/segments`, {
      key: other,
    });
    expect(theirs.status).toBe(404);
    expect(theirs.json.error_code).toBe('PROJECT_NOT_FOUND');
    // An edit's answer is the small detail too; the edited segment is read back in its window.
    const edited = await t.call('PATCH', `/api/v1/projects/${id}/chapters/${chapter.id}`, {
      body: { title: 'Một' },
    });
    expect(edited.body.length).toBeLessThan(4096);
    const changes = await t.call('GET', `/api/v1/projects/${id}/chapters/${chapter.id}/changes`);
    expect(changes.json.result.text.length).toBeLessThanOrEqual(PROJECT_LIMITS.changesCharacters);
  }, 120_000);

  it("pages a key's 250 projects, newest first, none answered twice or missed, a deleted cursor's page still following", async () => {
    const { key: secret, row } = await createApiKey(t.core.store, systemClock);
    const count = 250;
    const ids: string[] = [];
    // Made cheaply through the store (their own rows, no segments): what 250 imports would leave.
    for (let i = 0; i < count; i++) {
      const id = i.toString(16).padStart(32, '0');
      ids.push(id);
      const at = new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
      await t.core.store.projects.insertProject(
        projectRow({ id, key_id: row.id, title: `Book ${i}`, created_at: at }),
      );
    }
    const list = (query = '') => t.call('GET', `/api/v1/projects${query}`, { key: secret });

    const first = await list();
    expect(first.status).toBe(200);
    expect(first.json.result.items).toHaveLength(PROJECT_LIMITS.listPageDefault);
    expect(first.json.result.total).toBe(count);
    expect(first.json.result.items[0].id).toBe(ids[count - 1]);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`?limit=${PROJECT_LIMITS.listPage}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      expect(res.json.result.items.length).toBeLessThanOrEqual(PROJECT_LIMITS.listPage);
      expect(res.json.result.total).toBe(count);
      seen.push(...res.json.result.items.map((p: { id: string }) => p.id));
      cursor = res.json.result.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(count / PROJECT_LIMITS.listPage));
    expect(seen).toEqual([...ids].reverse());

    // The project a cursor ends on is deleted: the next page starts from the one made before it.
    const page = await list('?limit=10');
    const next = page.json.result.next_cursor as string;
    const endsOn = page.json.result.items[9].id as string;
    expect((await t.call('DELETE', `/api/v1/projects/${endsOn}`, { key: secret })).status).toBe(200);
    const after = await list(`?limit=10&cursor=${next}`);
    expect(after.json.result.items.map((p: { id: string }) => p.id)).toEqual(
      [...ids].reverse().slice(10, 20),
    );
    // Another key reading with this key's cursor sees only its own projects.
    const other = await t.newKey();
    const theirs = await t.call('GET', `/api/v1/projects?cursor=${next}`, { key: other });
    expect(theirs.status).toBe(200);
    expect(theirs.json.result).toEqual({ items: [], next_cursor: null, total: 0 });

    for (const bad of ['?limit=101', '?limit=0', '?limit=x', '?cursor=abc', `?cursor=${'A'.repeat(400)}`]) {
      const res = await list(bad);
      expect(res.status, bad).toBe(400);
      expect(res.json.error_code, bad).toBe('INVALID_FIELD');
    }
  }, 120_000);
});
