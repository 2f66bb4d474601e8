/**
 * One character per person across a name's variants, and gender from titles, given names and the
 * book's own words, on a real excerpt: Pride and Prejudice, chapters 1, 2, 5, 31, 35, 57 and 58
 * as Standard Ebooks publishes them (github:standardebooks/jane-austen_pride-and-prejudice,
 * CC0; test/fixtures/real-manuscripts/SOURCES.md), read by the real HTML reader.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHtml } from '../../../electron/core/manuscripts/html';
import { createApiKey } from '../../../electron/core/jobs/keys';
import { systemClock } from '../../../electron/core/platform/clock';
import { createProjectService } from '../../../electron/core/projects/project-service';
import type { Manuscript } from '../../../electron/shared/manuscript';
import { findVoice } from '../../../electron/shared/voices';
import { openTestStore } from '../../fixtures/test-store';
import { characterGender, suggestCast } from '../../../electron/core/projects/attribution';
import { chapterSegments } from '../../../electron/core/projects/segments';
import { mergeNames } from '../../../electron/core/projects/speaker-names';
import { VIETNAMESE_DIALOGUE } from '../../fixtures/vietnamese-dialogue';

const dir = new URL('../../fixtures/real-manuscripts/pride-and-prejudice/', import.meta.url).pathname;

const CHAPTERS = [1, 2, 5, 31, 35, 57, 58];

/** The excerpt's chapters as one manuscript, each read by the real HTML reader. */
async function book(): Promise<Manuscript> {
  const read = await Promise.all(
    CHAPTERS.map((n) => readHtml(readFileSync(join(dir, `chapter-${n}.xhtml`)), `chapter-${n}.xhtml`, {})),
  );
  return {
    ...read[0]!,
    title: 'Pride and Prejudice',
    language: 'en',
    chapters: read.flatMap((m) => m.chapters),
  };
}

async function excerpt(): Promise<{ texts: string[]; starts: Set<number> }> {
  const texts: string[] = [];
  const starts = new Set<number>();
  for (const chapter of (await book()).chapters) {
    starts.add(texts.length);
    for (const draft of chapterSegments(chapter.paragraphs, 'en')) texts.push(draft.text);
  }
  return { texts, starts };
}

/** A project service on a real test store, and a key of its own (made as the API makes keys). */
async function projectService() {
  const t = await openTestStore();
  const { row } = await createApiKey(t.store, systemClock, { name: 'cast' });
  return {
    t,
    keyId: row.id,
    service: createProjectService({ store: t.store, filesDir: join(t.dir, 'files') }),
  };
}

/** The people mergeNames makes of `names`: each canonical name with the names it stands for. */
function people(names: string[], language = 'en'): string[][] {
  const canonical = mergeNames(names, language);
  const groups = new Map<string, string[]>();
  for (const name of names)
    groups.set(canonical.get(name)!, [...(groups.get(canonical.get(name)!) ?? []), name]);
  return [...groups.values()].map((g) => g.sort()).sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe('one character per person (Pride and Prejudice)', () => {
  it('joins title variants of one person and keeps a family apart', () => {
    expect(
      people([
        'Mr. Darcy',
        'Darcy',
        'Fitzwilliam Darcy',
        'Lady Catherine',
        'Catherine de Bourgh',
        'Lady Catherine de Bourgh',
        'Mr. Bennet',
        'Mrs. Bennet',
        'Jane Bennet',
        'Elizabeth Bennet',
        'Jane',
        'Colonel Fitzwilliam',
      ]),
    ).toEqual([
      ['Catherine de Bourgh', 'Lady Catherine', 'Lady Catherine de Bourgh'],
      ['Colonel Fitzwilliam'],
      ['Darcy', 'Fitzwilliam Darcy', 'Mr. Darcy'],
      ['Elizabeth Bennet'],
      ['Jane', 'Jane Bennet'],
      ['Mr. Bennet'],
      ['Mrs. Bennet'],
    ]);
    // With one Bennet of each gender heard only by title, neither is taken for Jane.
    expect(people(['Mr. Bennet', 'Jane Bennet'])).toEqual([['Jane Bennet'], ['Mr. Bennet']]);
  });

  it('keeps Vietnamese people of one name and two titles apart, and joins a name to its full form', () => {
    expect(people(['ông Ba', 'bà Ba', 'Ba'], 'vi')).toEqual([['Ba'], ['bà Ba'], ['ông Ba']]);
    expect(people(['anh Dũng', 'Dũng', 'Trần Văn Dũng'], 'vi')).toEqual([
      ['Dũng', 'Trần Văn Dũng', 'anh Dũng'],
    ]);
    // The family name first: `Nguyễn` does not start a Vietnamese name's person.
    expect(people(['Nguyễn', 'Nguyễn Văn Hùng'], 'vi')).toEqual([['Nguyễn'], ['Nguyễn Văn Hùng']]);
    expect(people(['chị Lan', 'Lan', 'cô Lan'], 'vi')).toEqual([['Lan', 'chị Lan', 'cô Lan']]);
  });

  it('joins a Vietnamese name that starts a longer one only under the same kinship title', () => {
    // Số đỏ's bà Phó Đoan, also heard as bà Phó: one woman.
    expect(people(['Bà Phó Đoan', 'Bà Phó'], 'vi')).toEqual([['Bà Phó', 'Bà Phó Đoan']]);
    expect(people(['chị Hai', 'chị Hai Thìn'], 'vi')).toEqual([['chị Hai', 'chị Hai Thìn']]);
    // Another title, no title, or a bare pronoun: other people.
    expect(people(['ông Phó', 'bà Phó Đoan'], 'vi')).toEqual([['bà Phó Đoan'], ['ông Phó']]);
    expect(people(['Anh', 'anh Hai'], 'vi')).toEqual([['Anh'], ['anh Hai']]);
    expect(people(['Phó', 'bà Phó Đoan'], 'vi')).toEqual([['bà Phó Đoan'], ['Phó']]);
    // Two longer names it could start: it is neither's.
    expect(people(['bà Phó', 'bà Phó Đoan', 'bà Phó Sứ'], 'vi')).toEqual([
      ['bà Phó'],
      ['bà Phó Đoan'],
      ['bà Phó Sứ'],
    ]);
    // English keeps its rule: a title that names a family does not start a person's name.
    expect(people(['Lady Catherine', 'Lady Catherine de Bourgh'])).toEqual([
      ['Lady Catherine', 'Lady Catherine de Bourgh'],
    ]);
    expect(people(['Mr. Bennet', 'Mr. Bennet Junior'])).toEqual([['Mr. Bennet'], ['Mr. Bennet Junior']]);
  });

  it('suggests one character per speaker of the real excerpt, with the gender the book gives', async () => {
    const { texts, starts } = await excerpt();
    const cast = suggestCast(texts, starts, 'en');
    const byName = new Map(cast.characters.map((c) => [c.name, c]));
    // Darcy is heard as `Darcy` and `Mr. Darcy` in the book: one character, a man by the book's `Mr.`.
    expect(cast.characters.filter((c) => /Darcy/.test(c.name))).toHaveLength(1);
    expect(byName.get('Darcy')?.gender).toBe('male');
    expect(cast.characters.filter((c) => /Fitzwilliam/.test(c.name)).map((c) => c.name)).toEqual([
      'Colonel Fitzwilliam',
    ]);
    expect(cast.characters.filter((c) => /Catherine/.test(c.name)).map((c) => c.name)).toEqual([
      'Lady Catherine',
    ]);
    for (const [name, gender] of [
      ['Mr. Bennet', 'male'],
      ['Mrs. Bennet', 'female'],
      ['Jane', 'female'],
      ['Elizabeth', 'female'],
      ['Kitty', 'female'],
      ['Lydia', 'female'],
      ['Colonel Fitzwilliam', 'male'],
      ['Lady Catherine', 'female'],
    ] as const) {
      expect(byName.get(name)?.gender, name).toBe(gender);
    }
    // Elizabeth speaks with Darcy (chapter 58), both ways.
    expect(byName.get('Darcy')!.partners).toContain('Elizabeth');
    expect(byName.get('Elizabeth')!.partners).toContain('Darcy');
  });

  it('tells gender from the pronouns after a name, and leaves a name with no evidence unknown', async () => {
    const { texts } = await excerpt();
    expect(characterGender('Wickham', ['Wickham smiled as he bowed. Wickham said he would go.'])).toBe(
      'male',
    );
    expect(characterGender('Tí', ['Tí chạy ra. Tí nói cô ấy đói. Tí biết cô ấy phải về.'])).toBe('female');
    expect(characterGender('Bingley', texts.slice(0, 20))).toBeNull();
    expect(characterGender('Zorbel', texts)).toBeNull();
    // Ông Tham and his wife Bà Tham (Lá ngọc cành vàng): one name, two titles, two people.
    const tham = suggestCast(VIETNAMESE_DIALOGUE[1]!.paragraphs).characters;
    expect(tham.map((c) => [c.name, c.gender])).toEqual([
      ['Ông Tham', 'male'],
      ['Bà Tham', 'female'],
    ]);
    // The speakers of the real Vietnamese passages keep the gender their titles give.
    const passage = VIETNAMESE_DIALOGUE[0]!;
    const cast = suggestCast(passage.paragraphs);
    for (const c of cast.characters) {
      if (/^(Chị|Bà|Cô) /.test(c.name)) expect(c.gender, c.name).toBe('female');
      if (/^(Anh|Ông|Quan) /.test(c.name)) expect(c.gender, c.name).toBe('male');
    }
  });

  it('casts a project of the excerpt: partners apart, a voice shared only at another pitch or rate', async () => {
    const { t, keyId, service } = await projectService();
    try {
      const detail = await service.createFromManuscript(keyId, await book(), {
        voice_code: 'en_male_onyx_default',
      });
      const { characters } = detail;
      const byName = new Map(characters.map((c) => [c.name, c]));
      const narrator = characters.find((c) => c.narrator)!;
      const others = characters.filter((c) => !c.narrator);
      expect(others.length).toBeGreaterThanOrEqual(8);
      // Elizabeth and Darcy speak to each other: two voices; Jane and her sisters women's voices.
      expect(byName.get('Elizabeth')!.voice_code).not.toBe(byName.get('Darcy')!.voice_code);
      for (const name of ['Jane', 'Elizabeth', 'Kitty', 'Lydia', 'Mrs. Bennet', 'Lady Catherine'])
        expect(findVoice(byName.get(name)!.voice_code)!.gender, name).toBe('female');
      for (const name of ['Mr. Bennet', 'Darcy', 'Colonel Fitzwilliam'])
        expect(findVoice(byName.get(name)!.voice_code)!.gender, name).toBe('male');
      // More women than women's voices: a voice repeats, each time at another pitch or rate.
      const sounds = others.map((c) => `${c.voice_code} ${c.pitch_rate} ${c.speed_rate}`);
      expect(new Set(others.map((c) => c.voice_code)).size).toBeLessThan(others.length);
      expect(new Set(sounds).size).toBe(others.length);
      expect(sounds).not.toContain(`${narrator.voice_code} ${narrator.pitch_rate} ${narrator.speed_rate}`);
    } finally {
      await t.close();
    }
  });

  it('merges a character into another and splits it out again by the text’s attributions, undoably', async () => {
    const { t, keyId, service } = await projectService();
    try {
      const made = await service.createFromManuscript(keyId, await book(), {
        voice_code: 'en_male_onyx_default',
      });
      const id = made.project.id;
      const find = (d: typeof made, name: string) => d.characters.find((c) => c.name === name);
      const mr = find(made, 'Mr. Bennet')!;
      const mrs = find(made, 'Mrs. Bennet')!;
      const lines = (c: { segments: number; suggested: number }) => c.segments + c.suggested;
      const speech = async (characterId: string) =>
        (await t.store.projects.segments(id))
          .filter(
            (s) =>
              s.speaker === characterId ||
              s.suggested_speaker === characterId ||
              (s.quotes ?? '').includes(characterId),
          )
          .map((s) => s.id)
          .sort();
      const mrsSpeech = await speech(mrs.id);
      const mrSpeech = await speech(mr.id);
      expect(mrsSpeech.length).toBeGreaterThan(0);

      // Merged: one character with both speakers' lines; Mrs. Bennet is gone.
      let detail = await service.mergeCharacter(keyId, id, mrs.id, mr.id);
      expect(find(detail, 'Mrs. Bennet')).toBeUndefined();
      expect(await speech(mr.id)).toEqual([...mrSpeech, ...mrsSpeech].sort());
      expect(lines(find(detail, 'Mr. Bennet')!)).toBe(lines(mr) + lines(mrs));

      // Split: the lines the text gives to "Mrs. Bennet" go to a new character with a woman's voice.
      detail = await service.splitCharacter(keyId, id, mr.id, ['Mrs. Bennet']);
      const split = find(detail, 'Mrs. Bennet')!;
      expect(split.id).not.toBe(mrs.id);
      expect(findVoice(split.voice_code)!.gender).toBe('female');
      expect(await speech(split.id)).toEqual(mrsSpeech);
      expect(await speech(mr.id)).toEqual(mrSpeech);

      // Both edits undo: first the split, then the merge brings the old Mrs. Bennet back.
      await service.undo(keyId, id);
      expect(await speech(mr.id)).toEqual([...mrSpeech, ...mrsSpeech].sort());
      detail = await service.undo(keyId, id);
      expect(find(detail, 'Mrs. Bennet')!.id).toBe(mrs.id);
      expect(await speech(mrs.id)).toEqual(mrsSpeech);

      const narrator = made.characters.find((c) => c.narrator)!;
      await expect(service.mergeCharacter(keyId, id, mr.id, narrator.id)).rejects.toMatchObject({
        code: 'PROJECT_CONFLICT',
      });
      await expect(service.mergeCharacter(keyId, id, mr.id, mr.id)).rejects.toMatchObject({
        code: 'INVALID_FIELD',
      });
      await expect(service.mergeCharacter(keyId, id, mr.id, 'f'.repeat(32))).rejects.toMatchObject({
        code: 'PROJECT_NOT_FOUND',
      });
      await expect(service.splitCharacter(keyId, id, mr.id, ['Mr. Wickham'])).rejects.toMatchObject({
        code: 'INVALID_FIELD',
        message: 'No segment of "Mr. Bennet" is attributed to "Mr. Wickham" in the text.',
      });
      await expect(service.splitCharacter(keyId, id, mr.id, ['Mrs. Bennet'])).rejects.toMatchObject({
        code: 'INVALID_FIELD',
      });
    } finally {
      await t.close();
    }
  });
});
