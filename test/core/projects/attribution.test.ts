import { describe, expect, it } from 'vitest';
import {
  attributeSegment,
  chooseVoices,
  PROSODY_STEPS,
  findQuotes,
  nameGender,
  suggestCast,
} from '../../../electron/core/projects/attribution';
import { findVoice, VOICES } from '../../../electron/shared/voices';

const slice = (text: string, q: { start: number; end: number }) =>
  Array.from(text).slice(q.start, q.end).join('');

describe('quote attribution (English)', () => {
  it.each([
    ['"I am home," said Anna.', 'Anna'],
    ['“I am home,” Anna said.', 'Anna'],
    ['Anna said, "I am home."', 'Anna'],
    ['"I am home." asked Mr. Brown', 'Mr. Brown'],
    ['“Are you there?” whispered Tom Baker. “Answer me.”', 'Tom Baker'],
    ['Then Anna asked: «Who is it?»', 'Anna'],
  ])('%s → the whole segment is %s', (text, name) => {
    expect(attributeSegment(text)).toEqual({ speaker: name, quotes: [] });
  });

  it('a quote inside narration is a quote voice, the narration stays the narrator', () => {
    const text =
      'The door opened slowly and the wind came in. “Close it,” said Anna, and went back to her book.';
    const result = attributeSegment(text);
    expect(result.speaker).toBeNull();
    expect(result.quotes).toHaveLength(1);
    expect(result.quotes[0]!.name).toBe('Anna');
    expect(slice(text, result.quotes[0]!)).toBe('“Close it,”');
  });

  it('suggests nobody for pronouns, unattributed quotes and plain narration', () => {
    expect(attributeSegment('"I am home," she said.')).toEqual({ speaker: null, quotes: [] });
    expect(attributeSegment('"I am home."')).toEqual({ speaker: null, quotes: [] });
    expect(attributeSegment('The sea was calm.')).toEqual({ speaker: null, quotes: [] });
  });
});

describe('quote attribution (Vietnamese)', () => {
  it.each([
    ['"Con về rồi đây", Lan nói.', 'Lan'],
    ['“Con về rồi đây,” bà Tư nói.', 'Bà Tư'],
    ['Bà Tư hỏi: “Con đi đâu đấy?”', 'Bà Tư'],
    ['— Anh đi đâu vậy? — Lan hỏi.', 'Lan'],
    ['— Em ở nhà nhé, — Nguyễn Văn Minh trả lời.', 'Nguyễn Văn Minh'],
    ['Ông Ba nói với Minh: «Mai con lên tỉnh.»', 'Ông Ba'],
  ])('%s → %s', (text, name) => {
    expect(attributeSegment(text).speaker).toBe(name);
  });

  it('finds dialogue dashes as quotes, narration between them left out', () => {
    const text = '— Trời sắp mưa rồi, — Lan nói, rồi nhìn ra cửa. — Mình về thôi.';
    const quotes = findQuotes(text);
    expect(quotes.map((q) => slice(text, q))).toEqual(['— Trời sắp mưa rồi,', '— Mình về thôi.']);
    const result = attributeSegment(text);
    // "rồi nhìn ra cửa" is narration: the quotes are Lan's, the rest the narrator's.
    expect(result.speaker).toBeNull();
    expect(result.quotes.map((q) => q.name)).toEqual(['Lan', 'Lan']);
  });
});

describe('suggested cast', () => {
  it('gathers names with their segments and partners, first heard first, and tells gender from titles and given names', () => {
    const cast = suggestCast([
      'Chương một bắt đầu.',
      '“Con về rồi đây,” Lan nói.',
      'Bà Tư hỏi: “Con đi đâu đấy?”',
      '— Con đi chợ, — Lan đáp.',
      'Trời tối. “Ngủ đi,” Nguyễn Thị Hoa nói, rồi tắt đèn.',
    ]);
    expect(cast.characters).toEqual([
      { name: 'Lan', gender: 'female', segments: [1, 3], partners: ['Bà Tư', 'Nguyễn Thị Hoa'] },
      { name: 'Bà Tư', gender: 'female', segments: [2], partners: ['Lan'] },
      { name: 'Nguyễn Thị Hoa', gender: 'female', segments: [4], partners: ['Lan'] },
    ]);
    expect(cast.segments[4]!.speaker).toBeNull();
    expect(cast.segments[4]!.quotes).toHaveLength(1);
    expect(nameGender('Mr. Brown')).toBe('male');
    expect(nameGender('Anna')).toBe('female');
    expect(nameGender('Darcy')).toBeNull();
  });

  it("chooses voices of the book's language, never the narrator's, by gender, an unknown one of either", () => {
    const voices = chooseVoices(
      [
        { name: 'Tí', gender: null },
        { name: 'Minh', gender: 'male' },
        { name: 'Bà Tư', gender: 'female' },
      ],
      'vi',
      'vi_male_lehoang_mb',
    );
    const codes = [...voices.values()].map((v) => v.voice_code);
    expect(new Set(codes).size).toBe(3);
    expect(codes).not.toContain('vi_male_lehoang_mb');
    for (const code of codes) expect(findVoice(code)!.language).toBe('vi');
    expect(findVoice(voices.get('Minh')!.voice_code)!.gender).toBe('male');
    expect(findVoice(voices.get('Bà Tư')!.voice_code)!.gender).toBe('female');
    for (const v of voices.values()) expect(v.step).toBe(0);
    const english = chooseVoices([{ name: 'Darcy', gender: 'male' }], 'en-US', 'en_female_emily_us');
    expect(findVoice(english.get('Darcy')!.voice_code)).toMatchObject({ language: 'en', gender: 'male' });
  });

  it('gives characters who speak to each other different voices, and a repeated voice another prosody', () => {
    const english = VOICES.filter((v) => v.language === 'en' && v.gender === 'male');
    const men = Array.from({ length: 12 }, (_, i) => ({
      name: `Man ${i}`,
      gender: 'male' as const,
      partners: i > 0 ? [`Man ${i - 1}`] : [],
    }));
    const voices = chooseVoices(men, 'en', 'en_female_emily_us');
    const heard = men.map((m) => voices.get(m.name)!);
    // More men than male voices: voices repeat, but no voice with the same prosody step twice.
    expect(english.length).toBeLessThan(12);
    expect(new Set(heard.map((v) => `${v.voice_code}/${v.step}`)).size).toBe(12);
    expect(new Set(heard.map((v) => v.voice_code)).size).toBe(english.length);
    for (const v of heard) expect(findVoice(v.voice_code)!.gender).toBe('male');
    for (let i = 1; i < men.length; i++) expect(heard[i]!.voice_code).not.toBe(heard[i - 1]!.voice_code);
    for (const v of heard) expect(PROSODY_STEPS[v.step]).toBeDefined();
  });
});
