import { describe, expect, it } from 'vitest';
import { romanValue } from '../../../../electron/core/engine/text/roman-numerals';

describe('romanValue', () => {
  it.each([
    ['I', 1],
    ['IV', 4],
    ['IX', 9],
    ['XIV', 14],
    ['XXI', 21],
    ['XL', 40],
    ['XCIX', 99],
    ['CDXLIV', 444],
    ['MCMXCIV', 1994],
    ['MMMCMXCIX', 3999],
  ])('%s is %d', (text, value) => {
    expect(romanValue(text)).toBe(value);
  });

  it.each(['', 'IIII', 'VX', 'IC', 'MMMM', 'iv', 'CIVIL', 'XIIV'])('%j is not a numeral', (text) => {
    expect(romanValue(text)).toBeUndefined();
  });
});
