/**
 * The studio's typed client of the book projects' routes (projects-api.ts) against the real
 * server, signed in as the studio page is: the calls the Projects view makes, from importing a
 * DOCX to undo, chapters, cast, a render, a segment's audio and timings, and an archive.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../renderer/src/lib/api-client';
import { createProjectsApi, type ProjectsApi } from '../../renderer/src/lib/projects-api';
import { writeDocx } from '../fixtures/manuscripts';
import { PROJECT_BOOK } from '../fixtures/project-book';
import { startSignedIn, type SignedIn } from './helpers';

describe('projects-api: the studio’s client of /api/v1/projects', () => {
  let s: SignedIn;
  let api: ProjectsApi;

  beforeAll(async () => {
    s = await startSignedIn();
    api = createProjectsApi(s.client());
  });
  afterAll(async () => s?.t.close());

  it('imports a DOCX, edits it with undo and redo, and lists it', async () => {
    const docx = new Blob([Buffer.from(await writeDocx(PROJECT_BOOK))]);
    const detail = await api.importManuscript(docx, 'the-lighthouse.docx');
    expect(detail.project.title).toBe('The Lighthouse');
    expect(detail.chapters.map((c) => c.title)).toEqual(['Opening', 'Morning']);
    const id = detail.project.id;

    const renamed = await api.update(id, { title: 'The Lighthouse, revised' });
    expect(renamed.project.can_undo).toBe(true);
    expect((await api.undo(id)).project.title).toBe('The Lighthouse');
    expect((await api.redo(id)).project.title).toBe('The Lighthouse, revised');

    const [first, second] = detail.chapters;
    const reordered = await api.reorderChapters(id, [second!.id, first!.id]);
    expect(reordered.chapters.map((c) => c.title)).toEqual(['Morning', 'Opening']);
    const left = await api.updateChapter(id, second!.id, { included: false });
    expect(left.chapters.find((c) => c.id === second!.id)!.included).toBe(false);

    const page = await api.segments(id, first!.id, 0, 500);
    expect(page).toMatchObject({ chapter_id: first!.id, offset: 0, limit: 500, total: first!.segment_count });
    const segment = page.items[0]!;
    const edited = await api.updateSegment(id, segment.id, {
      text: 'The keeper climbed.',
      flag_note: 'check',
    });
    expect(edited).toMatchObject({ text: 'The keeper climbed.', flag_note: 'check', state: 'not_rendered' });
    const changes = await api.chapterChanges(id, first!.id);
    expect(changes.text).toContain('The keeper climbed.');

    expect((await api.list()).items.map((p) => p.id)).toContain(id);
    const copy = await api.duplicate(id);
    expect(copy.project.id).not.toBe(id);
    expect((await api.remove(copy.project.id)).removed).toBe(true);
  });

  it('refuses a broken manuscript in the API’s words, naming the file', async () => {
    const refused = await api
      .importManuscript(new Blob(['PK\u0003\u0004 not a zip']), 'broken.docx')
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).message).toContain('broken.docx');
  });

  it('casts a character, renders a chapter, and reads a segment’s audio and timings', async () => {
    const detail = await api.importManuscript(
      new Blob([Buffer.from(await writeDocx(PROJECT_BOOK))]),
      'book.docx',
    );
    const id = detail.project.id;
    const tom = await api.addCharacter(id, {
      name: 'Keeper',
      voice_code: 'en_male_onyx_default',
      speed_rate: 1.1,
    });
    expect(tom).toMatchObject({ name: 'Keeper', narrator: false, confirmed: true });
    const chapter = detail.chapters[1]!;
    const [firstSegment] = (await api.segments(id, chapter.id, 0, 1)).items;
    await api.updateSegment(id, firstSegment!.id, { speaker: tom.id });

    let render = await api.render(id, { chapter_ids: [chapter.id] });
    expect(render.chapter_ids).toEqual([chapter.id]);
    for (let i = 0; i < 600 && !['done', 'failed', 'cancelled'].includes(render.status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      render = (await api.renders(id))[0]!;
    }
    expect(render.status).toBe('done');
    expect((await api.get(id)).chapters.find((c) => c.id === chapter.id)).toMatchObject({
      segments_done: chapter.segment_count,
    });
    const done = await api.segments(id, chapter.id, 0, 500);
    expect(done.items.every((seg) => seg.state === 'done' && seg.duration_ms! > 0)).toBe(true);

    const wav = await api.segmentAudio(id, done.items[0]!.id);
    expect(new TextDecoder().decode(new Uint8Array(await wav.arrayBuffer()).slice(0, 4))).toBe('RIFF');
    const words = await api.segmentTimings(id, done.items[0]!.id);
    expect(words.length).toBeGreaterThan(3);
    expect(words[0]!.startMs).toBeLessThanOrEqual(words.at(-1)!.startMs);

    const archive = await api.archive(id);
    expect(archive.size).toBeGreaterThan(wav.size);
    const restored = await api.importArchive(archive, 'book.narration.zip');
    expect(restored.project.id).not.toBe(id);
    expect(restored.chapters.map((c) => c.title)).toEqual(detail.chapters.map((c) => c.title));
  });
});
