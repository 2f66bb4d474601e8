import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChapterRow, CharacterRow, SegmentRow } from '../../../electron/core/store';
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

const project = (id: string, keyId: string, at: string) => ({
  id,
  key_id: keyId,
  title: `Book ${id}`,
  author: 'An Author',
  language: 'en',
  cover_type: 'image/png',
  cover_base64: 'iVBORw0KGgo=',
  model_id: 'std-v1.6' as const,
  preset: 'acx' as const,
  format: 'm4b' as const,
  folder_format: null,
  source_name: 'book.md',
  source_format: 'markdown' as const,
  created_at: at,
  updated_at: at,
});

function segment(
  projectId: string,
  chapterId: string,
  position: number,
  extra: Partial<SegmentRow> = {},
): SegmentRow {
  return {
    id: `${chapterId}-s${position}`,
    project_id: projectId,
    chapter_id: chapterId,
    position,
    text: `Paragraph ${position} of ${chapterId}, with “quotes” and Tiếng Việt.`,
    emphasis: null,
    speaker: null,
    quotes: null,
    suggested_speaker: null,
    state: 'not_rendered',
    audio_key: null,
    duration_ms: null,
    error: null,
    error_code: null,
    error_details: null,
    flag_note: null,
    checks: null,
    rendered_at: null,
    ...extra,
  };
}

describe('projects repository (both databases)', () => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore();
    await t.store.keys.insert(key('key_a'));
    await t.store.keys.insert(key('key_b'));
  });
  afterEach(async () => {
    await t.close();
  });

  it('stores a project with chapters, cast and segments, and lists it with its figures', async () => {
    const { projects } = t.store;
    await projects.insertProject(project('p1', 'key_a', '2025-01-01T00:00:00.000Z'));
    await projects.insertProject(project('p2', 'key_a', '2025-01-02T00:00:00.000Z'));
    await projects.insertProject(project('p3', 'key_b', '2025-01-03T00:00:00.000Z'));
    const chapters: ChapterRow[] = [
      {
        id: 'c1',
        project_id: 'p1',
        position: 0,
        title: 'One',
        kind: 'body',
        included: 1,
        exported_text: null,
        spoken_heading: 'Chapter One',
      },
      {
        id: 'c2',
        project_id: 'p1',
        position: 1,
        title: 'Index',
        kind: 'back',
        included: 0,
        exported_text: null,
        spoken_heading: null,
      },
    ];
    await projects.putChapters(chapters);
    const narrator: CharacterRow = {
      id: 'n1',
      project_id: 'p1',
      name: 'Narrator',
      voice_code: 'en_male_onyx_default',
      speed_rate: 1.1,
      pitch_rate: 0.9,
      volume: 100,
      narrator: 1,
      confirmed: 1,
      name_given: 0,
    };
    await projects.putCharacters([narrator]);
    await projects.putSegments([
      segment('p1', 'c1', 0, { state: 'done', duration_ms: 1500, audio_key: 'k0' }),
      segment('p1', 'c1', 1, { emphasis: JSON.stringify([{ start: 0, end: 3, kind: 'em' }]) }),
      segment('p1', 'c2', 0, { state: 'done', duration_ms: 700, audio_key: 'k1' }),
    ]);

    expect(await projects.getProject('p1')).toMatchObject({
      title: 'Book p1',
      cover_base64: 'iVBORw0KGgo=',
      history_position: 0,
    });
    expect(await projects.chapters('p1')).toEqual(chapters);
    expect(await projects.characters('p1')).toEqual([narrator]);
    const segments = await projects.segments('p1');
    expect(segments.map((s) => s.id)).toEqual(['c1-s0', 'c1-s1', 'c2-s0']);
    expect(segments[0]).toEqual(
      segment('p1', 'c1', 0, { state: 'done', duration_ms: 1500, audio_key: 'k0' }),
    );

    const list = await projects.listProjects('key_a', { limit: 100 });
    expect(list.map((p) => p.id)).toEqual(['p2', 'p1']);
    const p1 = list[1]!;
    expect(p1.cover_base64).toBeNull();
    expect(p1).toMatchObject({
      chapter_count: 2,
      segment_count: 3,
      segments_done: 2,
      // Only the included chapter's audio counts.
      duration_ms: 1500,
      can_undo: 0,
      can_redo: 0,
    });
    expect(p1.characters).toBe(segments.reduce((n, s) => n + s.text.length, 0));
    expect(list[0]).toMatchObject({ chapter_count: 0, segment_count: 0, characters: 0, duration_ms: 0 });
    expect((await projects.listProjects('key_b', { limit: 100 })).map((p) => p.id)).toEqual(['p3']);
  });

  it('replaces whole rows by id, updates settings, removes rows and whole projects', async () => {
    const { projects } = t.store;
    await projects.insertProject(project('p1', 'key_a', '2025-01-01T00:00:00.000Z'));
    await projects.putChapters([
      {
        id: 'c1',
        project_id: 'p1',
        position: 0,
        title: 'One',
        kind: 'body',
        included: 1,
        exported_text: null,
      },
    ]);
    await projects.putSegments([segment('p1', 'c1', 0), segment('p1', 'c1', 1)]);
    await projects.putSegments([
      segment('p1', 'c1', 1, { text: 'Changed.', state: 'changed', audio_key: 'k' }),
    ]);
    expect(await projects.getSegment('c1-s1')).toMatchObject({
      text: 'Changed.',
      state: 'changed',
      audio_key: 'k',
    });
    await projects.setExportedText('c1', 'the text');
    expect((await projects.chapters('p1'))[0]!.exported_text).toBe('the text');

    await projects.updateProject(
      'p1',
      { title: 'New', author: null, cover_type: null, cover_base64: null },
      '2025-02-01T00:00:00.000Z',
    );
    expect(await projects.getProject('p1')).toMatchObject({
      title: 'New',
      author: null,
      cover_base64: null,
      updated_at: '2025-02-01T00:00:00.000Z',
    });

    await projects.removeSegments(['c1-s0']);
    expect((await projects.chapterSegments('c1')).map((s) => s.id)).toEqual(['c1-s1']);
    expect(await projects.removeProject('p1')).toBe(true);
    expect(await projects.getProject('p1')).toBeUndefined();
    expect(await projects.segments('p1')).toEqual([]);
    expect(await projects.chapters('p1')).toEqual([]);
    expect(await projects.removeProject('p1')).toBe(false);
  });

  it('keeps an undo history: a new entry drops the redo tail and the oldest beyond the limit', async () => {
    const { projects } = t.store;
    await projects.insertProject(project('p1', 'key_a', '2025-01-01T00:00:00.000Z'));
    const entry = (position: number) => ({
      project_id: 'p1',
      position,
      label: `edit ${position}`,
      undo: `{"u":${position}}`,
      redo: `{"r":${position}}`,
      created_at: '2025-01-01T00:00:00.000Z',
    });
    for (const position of [1, 2, 3]) await projects.pushHistory(entry(position), 100);
    expect((await projects.getProject('p1'))!.history_position).toBe(3);
    await projects.setHistoryPosition('p1', 1);
    expect((await projects.listProjects('key_a', { limit: 100 }))[0]).toMatchObject({
      can_undo: 1,
      can_redo: 1,
    });
    await projects.pushHistory(entry(2), 100);
    expect(await projects.historyAt('p1', 2)).toEqual(entry(2));
    expect(await projects.historyAt('p1', 3)).toBeUndefined();
    expect((await projects.listProjects('key_a', { limit: 100 }))[0]).toMatchObject({
      can_undo: 1,
      can_redo: 0,
    });
    for (const position of [3, 4, 5]) await projects.pushHistory(entry(position), 2);
    expect(await projects.historyAt('p1', 3)).toBeUndefined();
    expect(await projects.historyAt('p1', 4)).toEqual(entry(4));
  });

  it('inserts a 5,000-segment book in one transaction, and a failed one leaves nothing', async () => {
    const { store } = t;
    await store.projects.insertProject(project('big', 'key_a', '2025-01-01T00:00:00.000Z'));
    const chapters: ChapterRow[] = Array.from({ length: 50 }, (_, i) => ({
      id: `big-c${i}`,
      project_id: 'big',
      position: i,
      title: `Chapter ${i + 1}`,
      kind: 'body',
      included: 1,
      exported_text: null,
    }));
    const segments = chapters.flatMap((c) => Array.from({ length: 100 }, (_, i) => segment('big', c.id, i)));
    segments.push(segment('big', 'big-c0', 100)); // 5,001: the batches' remainder paths too
    await store.transaction(async (tx) => {
      await tx.projects.putChapters(chapters);
      await tx.projects.putSegments(segments);
    });
    const stored = await store.projects.segments('big');
    expect(stored).toHaveLength(5001);
    expect(new Set(stored.map((s) => s.id))).toEqual(new Set(segments.map((s) => s.id)));

    await store.projects.insertProject(project('bad', 'key_a', '2025-01-01T00:00:00.000Z'));
    await expect(
      store.transaction(async (tx) => {
        await tx.projects.putChapters([{ ...chapters[0]!, id: 'bad-c0', project_id: 'bad' }]);
        await tx.projects.putSegments([segment('bad', 'bad-c0', 0), segment('bad', 'no-such-chapter', 0)]);
      }),
    ).rejects.toThrow();
    expect(await store.projects.chapters('bad')).toEqual([]);
    expect(await store.projects.segments('bad')).toEqual([]);
  });
});
