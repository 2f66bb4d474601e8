import { describe, expect, it } from 'vitest';
import {
  MIN_WORDS_WITHOUT_MARKS,
  SAMPLE_WINDOWS,
  SAMPLE_WINDOW_CHARS,
  detectTextLanguage,
  type TextLanguage,
} from '../../electron/shared/text-language';
import { ENGLISH_LINES, VIETNAMESE_LINES, withoutMarks } from '../fixtures/language-samples';

const languageOf = (text: string): TextLanguage => detectTextLanguage(text).language;

/** How many of `lines` are detected as `expected`; printed, so the figure is in the test's output. */
function score(label: string, lines: readonly string[], expected: TextLanguage): number {
  const right = lines.filter((line) => languageOf(line) === expected).length;
  console.log(`text language, ${label}: ${right} of ${lines.length} lines ${expected}`);
  return right;
}

/** About `chars` characters of paragraphs made of `lines`, in turn. */
function book(lines: readonly string[], chars: number): string {
  const paragraphs: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const paragraph = [0, 1, 2].map((k) => lines[(i + k) % lines.length]).join(' ');
    paragraphs.push(paragraph);
    length += paragraph.length + 2;
  }
  return paragraphs.join('\n\n');
}

describe('detectTextLanguage', () => {
  it('finds Vietnamese and English in real lines of public-domain books', () => {
    expect(score('Vietnamese lines', VIETNAMESE_LINES, 'vi')).toBe(VIETNAMESE_LINES.length);
    expect(score('English lines', ENGLISH_LINES, 'en')).toBe(ENGLISH_LINES.length);
  });

  it('finds the language of whole paragraphs', () => {
    expect(languageOf(VIETNAMESE_LINES.slice(0, 6).join(' '))).toBe('vi');
    expect(languageOf(ENGLISH_LINES.slice(0, 6).join(' '))).toBe('en');
    expect(detectTextLanguage(VIETNAMESE_LINES.join('\n\n')).withoutMarks).toBe(false);
  });

  it('knows Vietnamese typed without marks in a paragraph, and calls a short line of it unknown, never English', () => {
    const paragraph = withoutMarks(VIETNAMESE_LINES.slice(0, 8).join(' '));
    expect(paragraph).not.toMatch(/[^\p{ASCII}]/u);
    expect(detectTextLanguage(paragraph)).toMatchObject({ language: 'vi', withoutMarks: true });
    expect(languageOf('Toi di hoc')).toBe('unknown');
    expect('Toi di hoc'.split(' ').length).toBeLessThan(MIN_WORDS_WITHOUT_MARKS);
    const lines = VIETNAMESE_LINES.map(withoutMarks);
    score('Vietnamese lines without marks', lines, 'vi');
    expect(lines.filter((line) => languageOf(line) === 'en')).toEqual([]);
  });

  it('gives a mixed text the language of its clear majority, and unknown to a half-and-half one', () => {
    expect(languageOf('My friend Nguyễn Văn An lives in Hà Nội and she is a teacher.')).toBe('en');
    expect(languageOf('Hôm nay tôi đọc lại cuốn Pride and Prejudice của Jane Austen ở thư viện.')).toBe('vi');
    expect(languageOf(`${ENGLISH_LINES[10]} ${VIETNAMESE_LINES[7]}`)).toBe('unknown');
  });

  it('says unknown for too little text, numbers and punctuation, and other Latin languages', () => {
    for (const text of ['', '   ', 'Hello', 'Vâng', '12 345 678', '3.14 – 2,71 = 0,43 %', '!!! ???']) {
      expect(detectTextLanguage(text).language, text).toBe('unknown');
    }
    expect(languageOf('Le petit chat dort sur la chaise près de la fenêtre.')).toBe('unknown');
    expect(languageOf('El perro come la comida en la casa de mi madre.')).toBe('unknown');
  });

  it('samples a 500,000-character book: a few windows, the same answer as the whole', () => {
    const vi = book(VIETNAMESE_LINES, 500_000);
    const en = book(ENGLISH_LINES, 500_000);
    const viGuess = detectTextLanguage(vi);
    expect(viGuess.language).toBe('vi');
    expect(detectTextLanguage(en).language).toBe('en');
    // Only the sample's words were counted (a window holds at most its characters' worth).
    expect(viGuess.words).toBeLessThan((SAMPLE_WINDOWS * SAMPLE_WINDOW_CHARS) / 2);
    expect(viGuess.words).toBeGreaterThan(1000);
    // English front matter does not decide a Vietnamese book.
    expect(languageOf(`${ENGLISH_LINES.join(' ')}\n\n${vi}`)).toBe('vi');
  });

  it('reads composed and decomposed Vietnamese alike', () => {
    const line = VIETNAMESE_LINES[0]!;
    expect(detectTextLanguage(line.normalize('NFD'))).toEqual(detectTextLanguage(line));
  });
});
