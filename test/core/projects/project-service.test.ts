import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProjectService, type ProjectService } from '../../../electron/core/projects/project-service';
import type { ProjectDetail } from '../../../electron/shared/projects';
import { BOOK } from '../../fixtures/project-books';
import { withSegments, type FullDetail } from '../../fixtures/project-detail';
import { openTestStore, type TestStore } from '../../fixtures/test-store';

const key = (id: string) => ({
  id,
  name: id,
  key_hash: id.padEnd(64, 'x'),
  key_prefix: 'nsk_abc',
  prefix_hash: null,
  signing_secret: 'whsec_x',
  balance_milli: 5000,
  queued: 0,
  created_at: '2025-01-01T00:00:00.000Z',
  revoked_at: null,
});

/** What undo must bring back: everything but the times and the history flags. */
function content<T extends ProjectDetail | FullDetail>(detail: T) {
  const { updated_at: _u, can_undo: _c, can_redo: _r, ...project } = detail.project;
  // How an import chose its language is in the import's answer only, not the project's content.
  const { language_choice: _l, ...rest } = detail;
  return { ...rest, project };
}

describe('project service', () => {
  let t: TestStore;
  let service: ProjectService;
  beforeEach(async () => {
    t = await openTestStore();
    await t.store.keys.insert(key('key_a'));
    await t.store.keys.insert(key('key_b'));
    service = createProjectService({ store: t.store, filesDir: join(t.dir, 'files') });
  });
  /** The detail with its segments (the service answers chapters without them). */
  const full = (detail: ProjectDetail | Promise<ProjectDetail>) => withSegments(service, 'key_a', detail);
  afterEach(async () => {
    await t.close();
  });

  /** Marks segments rendered as a render would (audio key, duration, done). */
  async function render(projectId: string, ids: readonly string[]) {
    for (const id of ids) {
      const row = (await t.store.projects.getSegment(id))!;
      await t.store.projects.putSegments([
        { ...row, state: 'done', audio_key: `key-of-${row.text.length}-${id}`, duration_ms: 1000 },
      ]);
    }
    return full(service.detail('key_a', projectId));
  }

  it("chooses an import's language from the language its reader recorded, without detecting it again", async () => {
    // BOOK is Vietnamese; a record saying English is taken as it is (the reader detected it once).
    const recorded = await service.createFromManuscript('key_a', {
      ...BOOK,
      language: null,
      textLanguage: 'en',
    });
    expect(recorded.language_choice).toEqual({
      language: 'en',
      source: 'text',
      metadata: null,
      detected: 'en',
    });
    const unknown = await service.createFromManuscript('key_a', {
      ...BOOK,
      language: 'fr-FR',
      textLanguage: 'unknown',
    });
    expect(unknown.language_choice).toEqual({
      language: 'fr',
      source: 'metadata',
      metadata: 'fr',
      detected: 'unknown',
    });
  });

  it('makes a project from a manuscript: chapters, segments, narrator, suggested cast', async () => {
    const detail = await full(
      service.createFromManuscript('key_a', BOOK, { voice_code: 'vi_male_minhtriet_mb' }),
    );
    expect(detail.project).toMatchObject({
      title: 'Ngọn hải đăng',
      author: 'Trần Văn A',
      language: 'vi',
      source_name: 'ngon-hai-dang.docx',
      source_format: 'docx',
      chapter_count: 4,
      segment_count: 8,
      can_undo: false,
    });
    expect(detail.chapters.map((c) => [c.title, c.included, c.segment_count])).toEqual([
      ['Bản quyền', false, 1],
      ['Chương một', true, 4],
      ['Chương hai', true, 2],
      ['Chương ba', true, 1],
    ]);
    expect(detail.chapters[1]!.segments[0]).toMatchObject({
      text: 'Đêm ấy biển lặng như tờ.',
      emphasis: [{ start: 6, end: 10, kind: 'em' }],
      state: 'not_rendered',
      speaker: null,
    });
    const narrator = detail.characters.find((c) => c.narrator)!;
    expect(narrator).toMatchObject({ voice_code: 'vi_male_minhtriet_mb', confirmed: true, speed_rate: 1 });
    const lan = detail.characters.find((c) => c.name === 'Lan')!;
    const tu = detail.characters.find((c) => c.name === 'Bà Tư')!;
    for (const c of [lan, tu]) {
      expect(c.confirmed).toBe(false);
      expect(c.voice_code).not.toBe(narrator.voice_code);
      expect(c.voice_code.startsWith('vi_')).toBe(true);
    }
    const [, lanLine, tuLine, narration] = detail.chapters[1]!.segments;
    expect(lanLine).toMatchObject({ suggested_speaker: lan.id, speaker: null, quotes: [] });
    expect(tuLine).toMatchObject({ suggested_speaker: tu.id });
    expect(narration!.suggested_speaker).toBeNull();
    expect(narration!.quotes).toEqual([{ start: 15, end: 30, character_id: lan.id }]);

    expect((await service.list('key_a')).items.map((p) => p.id)).toEqual([detail.project.id]);
    expect((await service.list('key_b')).items).toEqual([]);
    await expect(service.detail('key_b', detail.project.id)).rejects.toMatchObject({
      code: 'PROJECT_NOT_FOUND',
    });
    await expect(
      service.editSegment('key_b', detail.project.id, lanLine!.id, { text: 'x' }),
    ).rejects.toMatchObject({
      code: 'PROJECT_NOT_FOUND',
    });
  });

  it('marks the narrator by its role, not its name: the default is not named, a name a person types is kept as typed', async () => {
    const detail = await service.createFromManuscript('key_a', BOOK, { voice_code: 'vi_male_minhtriet_mb' });
    const narrator = detail.characters.find((c) => c.narrator)!;
    expect(narrator).toMatchObject({ name: 'Narrator', named: false });
    // The text's characters carry the names the text gave them.
    expect(detail.characters.filter((c) => !c.narrator).every((c) => c.named)).toBe(true);
    const projectId = detail.project.id;
    const renamed = await service.updateCharacter('key_a', projectId, narrator.id, { name: 'Người kể' });
    expect(renamed).toMatchObject({ name: 'Người kể', named: true });
    // A person who types the default's very words means them: named, shown as typed.
    const typed = await service.updateCharacter('key_a', projectId, narrator.id, { name: 'Narrator' });
    expect(typed).toMatchObject({ name: 'Narrator', named: true });
    // Undo brings back the earlier name and whether it was given.
    await service.undo('key_a', projectId);
    await service.undo('key_a', projectId);
    const back = (await service.detail('key_a', projectId)).characters.find((c) => c.narrator)!;
    expect(back).toMatchObject({ name: 'Narrator', named: false });
    // A row written before the flag was kept (an older archive or undo step): the default name
    // is the role, any other name is given.
    const row = (await t.store.projects.characters(projectId)).find((c) => c.narrator === 1)!;
    await t.store.projects.putCharacters([{ ...row, name_given: null }]);
    expect((await service.detail('key_a', projectId)).characters.find((c) => c.narrator)).toMatchObject({
      named: false,
    });
    await t.store.projects.putCharacters([{ ...row, name: 'Bà kể chuyện', name_given: null }]);
    expect((await service.detail('key_a', projectId)).characters.find((c) => c.narrator)).toMatchObject({
      name: 'Bà kể chuyện',
      named: true,
    });
  });

  it('an edit marks only that segment changed; undo brings its rendered text and audio back, redo the edit', async () => {
    const made = await full(service.createFromManuscript('key_a', BOOK));
    const ids = made.chapters[1]!.segments.map((s) => s.id);
    const rendered = await render(made.project.id, ids);
    const audioKey = (await t.store.projects.getSegment(ids[0]!))!.audio_key;
    expect(audioKey).toMatch(/^key-of-/);
    const segment = await service.editSegment('key_a', made.project.id, ids[0]!, {
      text: 'Đêm ấy biển lặng như tờ, gió ngừng thổi.',
    });
    expect(segment).toMatchObject({
      state: 'changed',
      duration_ms: 1000,
      emphasis: [{ start: 6, end: 10, kind: 'em' }],
    });
    let detail = await full(service.detail('key_a', made.project.id));
    expect(detail.chapters[1]!.segments.map((s) => s.state)).toEqual(['changed', 'done', 'done', 'done']);
    expect(detail.project.can_undo).toBe(true);

    detail = await full(service.undo('key_a', made.project.id));
    expect(content(detail)).toEqual(content(rendered));
    expect(detail.project.can_redo).toBe(true);
    expect((await t.store.projects.getSegment(ids[0]!))!).toMatchObject({
      state: 'done',
      audio_key: audioKey,
    });
    detail = await full(service.redo('key_a', made.project.id));
    expect(detail.chapters[1]!.segments[0]).toMatchObject({
      state: 'changed',
      text: 'Đêm ấy biển lặng như tờ, gió ngừng thổi.',
    });
    await expect(service.redo('key_a', made.project.id)).rejects.toMatchObject({ code: 'PROJECT_CONFLICT' });

    // An edit of a segment never rendered stays not_rendered; flagging changes no state.
    const other = made.chapters[2]!.segments[0]!.id;
    expect(
      await service.editSegment('key_a', made.project.id, other, { text: 'Sáng hôm sau.' }),
    ).toMatchObject({
      state: 'not_rendered',
    });
    expect(
      await service.editSegment('key_a', made.project.id, ids[1]!, { flag_note: 'Nghe lại' }),
    ).toMatchObject({
      state: 'done',
      flag_note: 'Nghe lại',
    });
    // A new edit after an undo drops the redo tail.
    await service.undo('key_a', made.project.id);
    await service.editSegment('key_a', made.project.id, ids[2]!, { flag_note: 'x' });
    await expect(service.redo('key_a', made.project.id)).rejects.toMatchObject({ code: 'PROJECT_CONFLICT' });
  });

  it('undoes and redoes every kind of edit exactly', async () => {
    const made = await full(service.createFromManuscript('key_a', BOOK));
    const id = made.project.id;
    const [front, one, two, three] = made.chapters;
    const lan = made.characters.find((c) => c.name === 'Lan')!;
    const edits: [string, () => Promise<unknown>, (d: FullDetail) => void][] = [
      [
        'settings',
        () =>
          service.updateSettings('key_a', id, {
            title: 'Hải đăng',
            voice_code: 'vi_female_hacuc_mb',
            speed_rate: 1.2,
          }),
        (d) => {
          expect(d.project.title).toBe('Hải đăng');
          expect(d.characters.find((c) => c.narrator)).toMatchObject({
            voice_code: 'vi_female_hacuc_mb',
            speed_rate: 1.2,
          });
        },
      ],
      [
        'chapter',
        () =>
          service.updateChapter('key_a', id, front!.id, { included: true, title: 'Lời đầu', kind: 'body' }),
        (d) => expect(d.chapters[0]).toMatchObject({ included: true, title: 'Lời đầu', kind: 'body' }),
      ],
      [
        'reorder',
        () => service.reorderChapters('key_a', id, [front!.id, three!.id, one!.id, two!.id]),
        (d) =>
          expect(d.chapters.map((c) => c.title)).toEqual([
            'Bản quyền',
            'Chương ba',
            'Chương một',
            'Chương hai',
          ]),
      ],
      [
        'merge',
        () => service.mergeChapters('key_a', id, [one!.id, two!.id]),
        (d) => {
          expect(d.chapters.map((c) => c.title)).toEqual(['Bản quyền', 'Chương một', 'Chương ba']);
          expect(d.chapters[1]!.segments.map((s) => s.position)).toEqual([0, 1, 2, 3, 4, 5]);
          expect(d.chapters[1]!.segments.at(-1)!.text).toBe('Minh ra bến sớm.');
        },
      ],
      [
        'split',
        () => service.splitChapter('key_a', id, one!.id, one!.segments[2]!.id, 'Chương một (tiếp)'),
        (d) => {
          expect(d.chapters.map((c) => [c.title, c.segment_count])).toEqual([
            ['Bản quyền', 1],
            ['Chương một', 2],
            ['Chương một (tiếp)', 2],
            ['Chương hai', 2],
            ['Chương ba', 1],
          ]);
          expect(d.chapters.map((c) => c.position)).toEqual([0, 1, 2, 3, 4]);
        },
      ],
      [
        'speaker',
        () => service.editSegment('key_a', id, one!.segments[0]!.id, { speaker: lan.id }),
        (d) => expect(d.chapters[1]!.segments[0]!.speaker).toBe(lan.id),
      ],
      [
        'quotes',
        () =>
          service.editSegment('key_a', id, one!.segments[0]!.id, {
            quotes: [{ start: 0, end: 6, character_id: lan.id }],
          }),
        (d) =>
          expect(d.chapters[1]!.segments[0]!.quotes).toEqual([{ start: 0, end: 6, character_id: lan.id }]),
      ],
      [
        'add character',
        () => service.addCharacter('key_a', id, { name: 'Minh', voice_code: 'vi_male_ductrong_mb' }),
        (d) =>
          expect(d.characters.find((c) => c.name === 'Minh')).toMatchObject({
            confirmed: true,
            narrator: false,
          }),
      ],
      [
        'confirm character',
        () => service.updateCharacter('key_a', id, lan.id, { confirmed: true, pitch_rate: 1.3 }),
        (d) => {
          expect(d.characters.find((c) => c.id === lan.id)).toMatchObject({
            confirmed: true,
            pitch_rate: 1.3,
          });
          expect(d.chapters[1]!.segments[1]).toMatchObject({ speaker: lan.id, suggested_speaker: null });
        },
      ],
      [
        'remove character',
        () => service.removeCharacter('key_a', id, lan.id),
        (d) => {
          expect(d.characters.some((c) => c.id === lan.id)).toBe(false);
          expect(d.chapters[1]!.segments[3]!.quotes).toEqual([]);
          expect(d.chapters[1]!.segments[1]!.suggested_speaker).toBeNull();
        },
      ],
      [
        'apply suggestions',
        () => service.applySuggestions('key_a', id),
        (d) => {
          expect(d.characters.every((c) => c.confirmed)).toBe(true);
          expect(d.chapters[1]!.segments.slice(1, 3).every((s) => s.speaker !== null)).toBe(true);
        },
      ],
      [
        'import into',
        () =>
          service.importInto('key_a', id, { ...BOOK, fileName: 'more.md', chapters: BOOK.chapters.slice(2) }),
        (d) => expect(d.chapters.map((c) => c.title).slice(4)).toEqual(['Chương hai', 'Chương ba']),
      ],
    ];
    for (const [name, run, check] of edits) {
      const before = await full(service.detail('key_a', id));
      await run();
      const after = await full(service.detail('key_a', id));
      check(after);
      const undone = await full(service.undo('key_a', id));
      expect(content(undone), `undo of ${name}`).toEqual(content(before));
      const redone = await full(service.redo('key_a', id));
      expect(content(redone), `redo of ${name}`).toEqual(content(after));
      await service.undo('key_a', id);
    }
  });

  it('refuses bad edits with clear errors and changes nothing', async () => {
    const made = await full(service.createFromManuscript('key_a', BOOK));
    const id = made.project.id;
    const one = made.chapters[1]!;
    const narrator = made.characters.find((c) => c.narrator)!;
    await expect(
      service.editSegment('key_a', id, one.segments[0]!.id, { text: '   ' }),
    ).rejects.toMatchObject({
      code: 'INVALID_FIELD',
    });
    await expect(
      service.editSegment('key_a', id, one.segments[0]!.id, { speaker: 'nobody' }),
    ).rejects.toMatchObject({
      code: 'INVALID_FIELD',
    });
    await expect(
      service.editSegment('key_a', id, one.segments[0]!.id, {
        quotes: [{ start: 3, end: 999, character_id: narrator.id }],
      }),
    ).rejects.toMatchObject({ code: 'INVALID_FIELD' });
    await expect(
      service.mergeChapters('key_a', id, [made.chapters[0]!.id, made.chapters[2]!.id]),
    ).rejects.toMatchObject({
      code: 'INVALID_FIELD',
    });
    await expect(service.splitChapter('key_a', id, one.id, one.segments[0]!.id)).rejects.toMatchObject({
      code: 'INVALID_FIELD',
    });
    await expect(service.reorderChapters('key_a', id, [one.id])).rejects.toMatchObject({
      code: 'INVALID_FIELD',
    });
    await expect(service.removeCharacter('key_a', id, narrator.id)).rejects.toMatchObject({
      code: 'PROJECT_CONFLICT',
    });
    await expect(
      service.addCharacter('key_a', id, { name: 'X', voice_code: 'xx_none' }),
    ).rejects.toMatchObject({
      code: 'UNKNOWN_VOICE',
    });
    await expect(service.undo('key_a', id)).rejects.toMatchObject({ code: 'PROJECT_CONFLICT' });
    expect(content(await full(service.detail('key_a', id)))).toEqual(content(made));
  });

  it('keeps each chapter’s text at its export and tells what changed since', async () => {
    const made = await full(service.createFromManuscript('key_a', BOOK));
    const id = made.project.id;
    const one = made.chapters[1]!;
    expect((await service.chapterChanges('key_a', id, one.id)).exported_text).toBeNull();
    await service.markExported(id, [one.id]);
    let detail = await service.detail('key_a', id);
    expect(detail.chapters[1]!).toMatchObject({ exported: true, changed_since_export: false });
    // The export contained chapter 1 only: the others did not change since an export of them.
    expect(detail.chapters[2]!).toMatchObject({ exported: false, changed_since_export: false });
    expect(detail.chapters[0]!).toMatchObject({ exported: false, changed_since_export: false });
    await service.editSegment('key_a', id, made.chapters[2]!.segments[0]!.id, { text: 'Chương khác.' });
    detail = await service.detail('key_a', id);
    expect(detail.chapters[2]!).toMatchObject({ exported: false, changed_since_export: false });
    expect(detail.chapters[1]!.changed_since_export).toBe(false);
    expect(detail.project.last_export_at).not.toBeNull();
    await service.editSegment('key_a', id, one.segments[0]!.id, { text: 'Một câu mới.' });
    detail = await service.detail('key_a', id);
    expect(detail.chapters[1]!.changed_since_export).toBe(true);
    const changes = await service.chapterChanges('key_a', id, one.id);
    expect(changes.exported_text!.startsWith('Đêm ấy biển lặng như tờ.\n\n')).toBe(true);
    expect(changes.text.startsWith('Một câu mới.\n\n')).toBe(true);
  });

  it('duplicates under new ids with the audio files linked, and deletes rows and files', async () => {
    const made = await full(service.createFromManuscript('key_a', BOOK));
    const id = made.project.id;
    const dir = service.audioDir(id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'abc.wav'), 'RIFF-audio');
    await service.updateCharacter('key_a', id, made.characters.find((c) => c.name === 'Lan')!.id, {
      confirmed: true,
    });
    const source = await full(service.detail('key_a', id));
    const copy = await full(service.duplicate('key_a', id));
    expect(copy.project.id).not.toBe(id);
    expect(copy.project.title).toBe('Ngọn hải đăng (copy)');
    expect(copy.project.can_undo).toBe(false);
    const sourceIds = new Set([
      ...source.chapters.flatMap((c) => [c.id, ...c.segments.map((s) => s.id)]),
      ...source.characters.map((c) => c.id),
    ]);
    for (const c of copy.chapters) {
      expect(sourceIds.has(c.id)).toBe(false);
      for (const s of c.segments) expect(sourceIds.has(s.id)).toBe(false);
    }
    const names = (d: FullDetail) => new Map(d.characters.map((c) => [c.id, c.name]));
    const speakers = (d: FullDetail) =>
      d.chapters.flatMap((c) =>
        c.segments.map((s) => [
          s.text,
          s.speaker && names(d).get(s.speaker),
          s.quotes.map((q) => names(d).get(q.character_id)),
        ]),
      );
    expect(speakers(copy)).toEqual(speakers(source));
    const copied = join(service.audioDir(copy.project.id), 'abc.wav');
    expect(readFileSync(copied, 'utf8')).toBe('RIFF-audio');
    expect(statSync(copied).ino).toBe(statSync(join(dir, 'abc.wav')).ino);

    expect(await service.remove('key_a', id)).toEqual({ project_id: id, removed: true });
    expect(existsSync(dir)).toBe(false);
    await expect(service.detail('key_a', id)).rejects.toMatchObject({ code: 'PROJECT_NOT_FOUND' });
    expect((await service.list('key_a')).items.map((p) => p.id)).toEqual([copy.project.id]);
    expect(existsSync(copied)).toBe(true);
  });
});
