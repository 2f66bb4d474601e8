/**
 * Spoken headings: a chapter's title as the narrator reads it at the start of the chapter, in the
 * book's language (issue 39): the chapter word and its number in words, other titles as they are.
 */

import { describe, expect, it } from 'vitest';
import { spokenHeadingOf } from '../../../../electron/core/engine/text/spoken-headings';

describe('spokenHeadingOf', () => {
  it('reads Vietnamese chapter numbers in words', () => {
    expect(spokenHeadingOf('CHƯƠNG 1', 'vi')).toBe('Chương một');
    expect(spokenHeadingOf('Chương 12', 'vi')).toBe('Chương mười hai');
    expect(spokenHeadingOf('Chương 21: Về nhà', 'vi')).toBe('Chương hai mươi mốt. Về nhà');
    expect(spokenHeadingOf('Phần IV', 'vi')).toBe('Phần bốn');
    expect(spokenHeadingOf('12', 'vi')).toBe('Chương mười hai');
  });

  it('reads English chapter numbers and Roman numerals in words', () => {
    expect(spokenHeadingOf('I', 'en')).toBe('Chapter One');
    expect(spokenHeadingOf('Chapter I', 'en')).toBe('Chapter One');
    expect(spokenHeadingOf('CHAPTER XII', 'en')).toBe('Chapter Twelve');
    expect(spokenHeadingOf('Chapter 21. The Ball', 'en-GB')).toBe('Chapter Twenty One. The Ball');
    expect(spokenHeadingOf('chapter ii', 'en')).toBe('Chapter Two');
    expect(spokenHeadingOf('PART 3', 'en')).toBe('Part Three');
    expect(spokenHeadingOf('XLII.', 'fr')).toBe('Chapter Forty Two');
  });

  it('reads other titles as they are', () => {
    expect(spokenHeadingOf('The Storm', 'en')).toBe('The Storm');
    expect(spokenHeadingOf('  Hải   đăng ', 'vi')).toBe('Hải đăng');
    expect(spokenHeadingOf('I Remember', 'en')).toBe('I Remember');
    expect(spokenHeadingOf('12 Angry Men', 'en')).toBe('12 Angry Men');
    expect(spokenHeadingOf('Mix', 'en')).toBe('Mix');
    expect(spokenHeadingOf('Lời nói đầu', 'vi')).toBe('Lời nói đầu');
    expect(spokenHeadingOf('Year 2026 Begins', 'en')).toBe('Year 2026 Begins');
  });
});
