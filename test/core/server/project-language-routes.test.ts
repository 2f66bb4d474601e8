// test-tier: slow (EPUBs imported over HTTP, each read in a reader child process)
/**
 * An imported project's language comes from its text when the metadata disagrees (issue 38):
 * real EPUB files written by the fixtures' writer (fflate), imported over real HTTP on a real
 * core (fake engine); the answer says which language was used and why, and the narrator speaks it.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findVoice } from '../../../electron/shared/voices';
import { ENGLISH_LINES, VIETNAMESE_LINES } from '../../fixtures/language-samples';
import { VIETNAMESE_BOOK, writeEpub3, type BookDescription } from '../../fixtures/manuscripts';
import { startFakeEngineCore, type TestCore } from './helpers';

let t: TestCore;
beforeAll(async () => {
  t = await startFakeEngineCore({ authThrottle: { baseDelayMs: 0 } });
});
afterAll(async () => {
  await t?.close();
});

/** A book of `lines` in two chapters, its metadata saying `language`. */
function bookOf(title: string, language: string, lines: readonly string[]): BookDescription {
  const half = Math.ceil(lines.length / 2);
  return {
    title,
    author: 'Public domain',
    language,
    chapters: [
      { title: 'I', paragraphs: lines.slice(0, half) },
      { title: 'II', paragraphs: lines.slice(half) },
    ],
  };
}

async function importEpub(book: BookDescription, extra = '') {
  const res = await t.call('POST', `/api/v1/projects/import?file_name=book.epub${extra}`, {
    raw: Buffer.from(writeEpub3(book)),
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.result as {
    project: { id: string; language: string };
    characters: { narrator: boolean; voice_code: string }[];
    language_choice: unknown;
  };
}

const narratorLanguage = (detail: Awaited<ReturnType<typeof importEpub>>) =>
  findVoice(detail.characters.find((c) => c.narrator)!.voice_code)?.language;

describe('import: the language of the text', () => {
  it('makes a Vietnamese EPUB whose dc:language says en a Vietnamese project with a Vietnamese narrator', async () => {
    for (const metadata of ['en', 'en-US']) {
      const detail = await importEpub({ ...VIETNAMESE_BOOK, language: metadata });
      expect(detail.project.language).toBe('vi');
      expect(narratorLanguage(detail)).toBe('vi');
      expect(detail.language_choice).toEqual({
        language: 'vi',
        source: 'text',
        metadata: 'en',
        detected: 'vi',
      });
      // The project keeps it (the choice is the import's answer; the language is the project's).
      const again = await t.call('GET', `/api/v1/projects/${detail.project.id}`);
      expect(again.json.result.project.language).toBe('vi');
    }
  });

  it('makes an English book whose metadata says vi an English project', async () => {
    const detail = await importEpub(bookOf('Openings', 'vi', ENGLISH_LINES));
    expect(detail.project.language).toBe('en');
    expect(narratorLanguage(detail)).toBe('en');
    expect(detail.language_choice).toEqual({
      language: 'en',
      source: 'text',
      metadata: 'vi',
      detected: 'en',
    });
  });

  it("agrees with metadata that is right, keeps the metadata's language when the text is neither, and the request's always", async () => {
    const vi = await importEpub(bookOf('Câu mở đầu', 'vi', VIETNAMESE_LINES));
    expect(vi.language_choice).toEqual({ language: 'vi', source: 'text', metadata: 'vi', detected: 'vi' });
    const french = bookOf('Le livre', 'fr', [
      'Le petit chat dort sur la chaise près de la fenêtre.',
      'Nous irons au marché demain matin avec nos voisins.',
    ]);
    const fr = await importEpub(french);
    expect(fr.project.language).toBe('fr');
    expect(fr.language_choice).toEqual({
      language: 'fr',
      source: 'metadata',
      metadata: 'fr',
      detected: 'unknown',
    });
    const asked = await importEpub({ ...VIETNAMESE_BOOK, language: 'en' }, '&language=en');
    expect(asked.project.language).toBe('en');
    expect(asked.language_choice).toMatchObject({ language: 'en', source: 'request', detected: 'vi' });
  });
});

describe("changing a project's language", () => {
  type Cast = { id: string; name: string; narrator: boolean; voice_code: string }[];
  const castOf = async (id: string) =>
    (await t.call('GET', `/api/v1/projects/${id}`)).json.result.characters as Cast;
  const byName = (cast: Cast) => Object.fromEntries(cast.map((c) => [c.name, c.voice_code]));

  it('re-casts the narrator and characters with voices of the new language on request, in one undo step', async () => {
    const made = await t.call('POST', '/api/v1/projects', { body: { title: 'Tắt đèn', language: 'en' } });
    expect(made.status).toBe(201);
    const id = made.json.result.project.id as string;
    for (const [name, voice_code] of [
      ['Chị Dậu', 'en_female_nova_default'],
      ['Anh Dậu', 'en_male_onyx_default'],
      ['Cai lệ', 'en_male_echo_default'],
    ]) {
      const added = await t.call('POST', `/api/v1/projects/${id}/characters`, { body: { name, voice_code } });
      expect(added.status).toBe(201);
    }
    const before = byName(await castOf(id));

    // Without `recast` the cast stays (as before issue 38).
    const plain = await t.call('PATCH', `/api/v1/projects/${id}`, { body: { language: 'vi' } });
    expect(plain.status).toBe(200);
    expect(byName(plain.json.result.characters)).toEqual(before);
    await t.call('POST', `/api/v1/projects/${id}/undo`);

    const res = await t.call('PATCH', `/api/v1/projects/${id}`, { body: { language: 'vi', recast: true } });
    expect(res.status).toBe(200);
    expect(res.json.result.project.language).toBe('vi');
    const cast = res.json.result.characters as Cast;
    for (const c of cast) {
      const voice = findVoice(c.voice_code)!;
      expect(voice.language, c.name).toBe('vi');
      // Each character keeps its voice's gender.
      if (!c.narrator) expect(voice.gender, c.name).toBe(findVoice(before[c.name]!)!.gender);
    }
    expect(new Set(cast.map((c) => c.voice_code)).size).toBe(cast.length);
    expect(byName(await castOf(id))).toEqual(byName(cast));

    // One undo brings back the language and every voice.
    expect((await t.call('POST', `/api/v1/projects/${id}/undo`)).status).toBe(200);
    const undone = await t.call('GET', `/api/v1/projects/${id}`);
    expect(undone.json.result.project.language).toBe('en');
    expect(byName(undone.json.result.characters)).toEqual(before);
  });

  it('keeps a narrator voice given with the recast, and refuses a recast that is not a boolean', async () => {
    const made = await t.call('POST', '/api/v1/projects', { body: { title: 'Số đỏ', language: 'en' } });
    const id = made.json.result.project.id as string;
    await t.call('POST', `/api/v1/projects/${id}/characters`, {
      body: { name: 'Xuân Tóc Đỏ', voice_code: 'en_male_onyx_default' },
    });
    const res = await t.call('PATCH', `/api/v1/projects/${id}`, {
      body: { language: 'vi', recast: true, voice_code: 'vi_female_kieunhi_mn' },
    });
    expect(res.status).toBe(200);
    const cast = res.json.result.characters as Cast;
    expect(cast.find((c) => c.narrator)!.voice_code).toBe('vi_female_kieunhi_mn');
    expect(findVoice(cast.find((c) => !c.narrator)!.voice_code)).toMatchObject({
      language: 'vi',
      gender: 'male',
    });
    const bad = await t.call('PATCH', `/api/v1/projects/${id}`, { body: { recast: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.json).toHaveProperty('error_code');
  });
});
