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
import { characterGender, suggestCast } from '../../../electron/core/projects/attribution';
import { chapterSegments } from '../../../electron/core/projects/segments';
import { mergeNames } from '../../../electron/core/projects/speaker-names';
import { VIETNAMESE_DIALOGUE } from '../../fixtures/vietnamese-dialogue';

const dir = new URL('../../fixtures/real-manuscripts/pride-and-prejudice/', import.meta.url).pathname;

async function excerpt(): Promise<{ texts: string[]; starts: Set<number> }> {
  const texts: string[] = [];
  const starts = new Set<number>();
  for (const n of [1, 2, 5, 31, 35, 57, 58]) {
    const file = `chapter-${n}.xhtml`;
    const manuscript = await readHtml(readFileSync(join(dir, file)), file, {});
    for (const chapter of manuscript.chapters) {
      starts.add(texts.length);
      for (const draft of chapterSegments(chapter.paragraphs, 'en')) texts.push(draft.text);
    }
  }
  return { texts, starts };
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
    // The speakers of the real Vietnamese passages keep the gender their titles give.
    const passage = VIETNAMESE_DIALOGUE[0]!;
    const cast = suggestCast(passage.paragraphs);
    for (const c of cast.characters) {
      if (/^(Chị|Bà|Cô) /.test(c.name)) expect(c.gender, c.name).toBe('female');
      if (/^(Anh|Ông|Quan) /.test(c.name)) expect(c.gender, c.name).toBe('male');
    }
  });
});
