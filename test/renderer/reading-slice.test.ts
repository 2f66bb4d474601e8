/**
 * The "How it will be read" view's store against the real server: a typed text read for a
 * language or a voice, the Studio editor's text read for its voice, a book project's chapter
 * gathered from its segments and read for its narrator, refusals in the interface's words, and
 * the written text cut into the runs the view marks.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READING_MAX_CHARS } from '../../electron/shared/api';
import { ApiError } from '../../renderer/src/lib/api-client';
import { createProjectsApi } from '../../renderer/src/lib/projects-api';
import { createStudioStore } from '../../renderer/src/stores';
import {
  readingBase,
  readingIsStale,
  readingPieces,
  targetOf,
  targetValue,
} from '../../renderer/src/stores/reading-slice';
import { writeMarkdown } from '../fixtures/manuscripts';
import {
  READING_BOOK,
  READING_BOOK_FILE,
  READING_CHAPTER,
  READING_CHAPTER_TEXT,
} from '../fixtures/reading-book';
import { memoryStorage, startSignedIn, type SignedIn } from './helpers';

describe('reading: the pieces of the written text', () => {
  it('cuts the text into runs read as written and changed runs, in order', () => {
    const text = 'Ngày 21/11/2026, giá 50.000đ.';
    const changes = [
      { from: 5, to: 15 },
      { from: 21, to: 28 },
    ];
    expect(readingPieces(text, changes)).toEqual([
      { text: 'Ngày ' },
      { text: '21/11/2026', change: 0 },
      { text: ', giá ' },
      { text: '50.000đ', change: 1 },
      { text: '.' },
    ]);
    // Text all changed, nothing changed.
    expect(readingPieces('$5', [{ from: 0, to: 2 }])).toEqual([{ text: '$5', change: 0 }]);
    expect(readingPieces('xin chào', [])).toEqual([{ text: 'xin chào' }]);
    // A change that overlaps the one before it or runs past the text is left unmarked: the
    // text is shown whole, never twice.
    const odd = readingPieces('abcdef', [
      { from: 1, to: 3 },
      { from: 2, to: 4 },
      { from: 5, to: 9 },
    ]);
    expect(odd.map((p) => p.text).join('')).toBe('abcdef');
    expect(odd.filter((p) => p.change !== undefined)).toEqual([{ text: 'bc', change: 0 }]);
  });
});

describe('reading: what a text is read for', () => {
  it('writes a voice or a language as one value and reads it back', () => {
    expect(targetValue({ voice_code: 'vi_male_lehoang_mb' })).toBe('vi_male_lehoang_mb');
    expect(targetValue({ language: 'en' })).toBe('language:en');
    expect(targetOf('language:en')).toEqual({ language: 'en' });
    expect(targetOf('ban-tin')).toEqual({ voice_code: 'ban-tin' });
  });
});

describe('reading slice, against the real server', () => {
  let s: SignedIn;
  const makeStore = () => createStudioStore({ client: s.client(), storage: memoryStorage(), pollMs: 20 });

  beforeAll(async () => {
    s = await startSignedIn();
  });
  afterAll(async () => s?.t.close());

  it('reads a typed text for a language, then for a voice; a later edit marks the reading stale', async () => {
    const store = makeStore();
    const text = 'Ngày 21/11/2026, vé giá 50.000đ.';
    store.getState().setReadingText(text);
    store.getState().setReadingTarget({ language: 'vi' });
    await store.getState().readText();
    const { reading, readingBusy, readingError } = store.getState();
    expect(readingBusy).toBe(false);
    expect(readingError).toBeNull();
    expect(reading!.text).toBe(text);
    expect(reading!.result.language).toBe('vi');
    expect(reading!.result.reading).toBe(
      'Ngày hai mươi mốt tháng mười một năm hai nghìn không trăm hai mươi sáu, vé giá năm mươi nghìn đồng.',
    );
    expect(reading!.result.changes.map((c) => [c.written, c.rule])).toEqual([
      ['21/11/2026', 'date'],
      ['50.000đ', 'money'],
    ]);
    const pieces = readingPieces(readingBase(reading!), reading!.result.changes);
    expect(pieces.filter((p) => p.change !== undefined).map((p) => p.text)).toEqual([
      '21/11/2026',
      '50.000đ',
    ]);

    // Edited since, or read for another target: the reading shown is stale.
    const stale = () => {
      const state = store.getState();
      return readingIsStale(state.reading, state.readingText, state.readingTarget);
    };
    expect(stale()).toBe(false);
    store.getState().setReadingTarget({ voice_code: 'vi_male_lehoang_mb' });
    expect(stale()).toBe(true);
    store.getState().setReadingTarget({ language: 'vi' });
    expect(stale()).toBe(false);
    store.getState().setReadingText(`${text} `);
    expect(stale()).toBe(true);

    store.getState().setReadingText('On 05/06/2026 it cost $5.');
    store.getState().setReadingTarget({ voice_code: 'en_female_elara_br' });
    await store.getState().readText();
    expect(store.getState().reading!.result).toMatchObject({
      language: 'en',
      voice_code: 'en_female_elara_br',
    });
    expect(store.getState().reading!.result.reading).toContain('the fifth of June twenty twenty six');
  });

  it('reads the Studio editor’s text for its voice, and shows the view', async () => {
    const store = makeStore();
    store.getState().setText('Giá vé là 50.000đ.');
    store.getState().setOption('voice_code', 'vi_male_minhtriet_mb');
    await store.getState().readEditor();
    const state = store.getState();
    expect(state.view).toBe('reading');
    expect(state.readingSource).toEqual({ kind: 'editor' });
    expect(state.readingText).toBe('Giá vé là 50.000đ.');
    expect(state.readingTarget).toEqual({ voice_code: 'vi_male_minhtriet_mb' });
    expect(state.reading!.result.reading).toBe('Giá vé là năm mươi nghìn đồng.');
  });

  it('gathers a chapter of the open project from its segments and reads it for the narrator', async () => {
    const api = createProjectsApi(s.client());
    const book = writeMarkdown(READING_BOOK);
    const detail = await api.importManuscript(new Blob([book]), READING_BOOK_FILE, {
      voice_code: 'vi_female_thuytrang_mb',
    });
    const store = makeStore();
    await store.getState().openProject(detail.project.id);
    try {
      const first = detail.chapters.find((c) => c.title === READING_CHAPTER.title)!;
      await store.getState().readChapter(first.id);
      const state = store.getState();
      expect(state.view).toBe('reading');
      expect(state.readingSource).toEqual({ kind: 'chapter', title: READING_CHAPTER.title });
      expect(state.readingTarget).toEqual({ voice_code: 'vi_female_thuytrang_mb' });
      expect(state.readingText).toContain(READING_CHAPTER_TEXT);
      expect(state.reading!.result.changes.map((c) => c.rule)).toEqual(['date', 'money']);
    } finally {
      store.getState().closeProject();
    }
  });

  it('shows a refusal in the interface’s words, and the client answers the API’s code', async () => {
    const store = makeStore();
    store.getState().setReadingText('x'.repeat(READING_MAX_CHARS + 1));
    store.getState().setReadingTarget({ language: 'en' });
    await store.getState().readText();
    expect(store.getState().readingBusy).toBe(false);
    expect(store.getState().reading).toBeNull();
    expect(store.getState().readingError).toContain(`the limit is ${READING_MAX_CHARS}`);

    const refused = await s
      .client()
      .reading({ text: 'xin chào', voice_code: 'vi_nobody' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'UNKNOWN_VOICE', status: 400 });
  });
});
