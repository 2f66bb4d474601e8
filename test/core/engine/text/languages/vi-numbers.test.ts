/**
 * Vietnamese numbers in words (`languages/vi-numbers.ts`), and the promise that the reading
 * never changes a value: random numbers, written as Vietnamese text writes them, are read and
 * the words parsed back (by a parser here, independent of the code under test) to the same value.
 */

import { describe, expect, it } from 'vitest';
import {
  parseViNumber,
  sayViNumber,
  viCardinal,
  viDecimalPart,
  viDigits,
  viMonth,
  viOrdinal,
} from '../../../../../electron/core/engine/text/languages/vi-numbers';
import { readingOf } from '../../../../../electron/core/engine/text/reading';
import { random } from '../../../../fixtures/random';

const DIGIT: Record<string, bigint> = {
  không: 0n,
  một: 1n,
  mốt: 1n,
  hai: 2n,
  ba: 3n,
  bốn: 4n,
  tư: 4n,
  năm: 5n,
  lăm: 5n,
  sáu: 6n,
  bảy: 7n,
  tám: 8n,
  chín: 9n,
};
const SCALE: Record<string, bigint> = { nghìn: 1000n, triệu: 1_000_000n };

/** The value of Vietnamese number words (a cardinal up to trăm nghìn tỷ). */
function cardinalValue(words: string[]): bigint {
  let total = 0n;
  let current = 0n;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    const next = words[i + 1];
    if (w === 'mười') current += 10n;
    else if (w === 'linh') continue;
    else if (w === 'tỷ') {
      total = (total + current) * 1_000_000_000n;
      current = 0n;
    } else if (SCALE[w] !== undefined) {
      total += current * (SCALE[w] as bigint);
      current = 0n;
    } else if (DIGIT[w] !== undefined) {
      const d = DIGIT[w] as bigint;
      if (next === 'trăm') current += d * 100n;
      else if (next === 'mươi') current += d * 10n;
      else current += d;
      if (next === 'trăm' || next === 'mươi') i++;
    } else throw new Error(`not a number word: ${w}`);
  }
  return total + current;
}

/** The digits after "phẩy": leading "không" are zeros; a number, or digit by digit. */
function decimalDigits(words: string[]): string {
  let zeros = 0;
  while (words[zeros] === 'không' && zeros < words.length - 1) zeros++;
  const rest = words.slice(zeros);
  const structured = rest.some((w) => ['mười', 'mươi', 'trăm', 'linh'].includes(w)) || rest.length === 1;
  const digits = structured ? String(cardinalValue(rest)) : rest.map((w) => String(DIGIT[w])).join('');
  return '0'.repeat(zeros) + digits;
}

/** "âm ba phẩy mười bốn" → "-3.14": the value the words say, as a decimal string. */
function valueOf(spoken: string): string {
  let words = spoken.split(' ');
  const negative = words[0] === 'âm';
  if (negative) words = words.slice(1);
  const comma = words.indexOf('phẩy');
  const int = cardinalValue(comma < 0 ? words : words.slice(0, comma));
  const frac = comma < 0 ? '' : `.${decimalDigits(words.slice(comma + 1))}`;
  return `${negative ? '-' : ''}${int}${frac}`;
}

/** A non-negative integer written with "." between groups of three, as Vietnamese text does. */
function grouped(n: bigint): string {
  return n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

describe('Vietnamese number words', () => {
  it('follows the conventions: nghìn, linh, tư after mươi, lăm, mốt from 21', () => {
    expect(viCardinal('0')).toBe('không');
    expect(viCardinal('5')).toBe('năm');
    expect(viCardinal('15')).toBe('mười lăm');
    expect(viCardinal('31')).toBe('ba mươi mốt');
    expect(viCardinal('11')).toBe('mười một');
    expect(viCardinal('44')).toBe('bốn mươi tư');
    expect(viCardinal('14')).toBe('mười bốn');
    expect(viCardinal('104')).toBe('một trăm linh bốn');
    expect(viCardinal('110')).toBe('một trăm mười');
    expect(viCardinal('2000')).toBe('hai nghìn');
    expect(viCardinal('2005')).toBe('hai nghìn không trăm linh năm');
    expect(viCardinal('2000500')).toBe('hai triệu năm trăm');
    expect(viCardinal('2000050')).toBe('hai triệu không trăm năm mươi');
    expect(viCardinal('1000005000000')).toBe('một nghìn tỷ không trăm linh năm triệu');
    expect(viCardinal('999999999999999')).toBe(
      'chín trăm chín mươi chín nghìn chín trăm chín mươi chín tỷ chín trăm chín mươi chín triệu chín trăm chín mươi chín nghìn chín trăm chín mươi chín',
    );
  });

  it('reads digit by digit past 15 digits and with a leading zero', () => {
    expect(viCardinal('0912')).toBe('không chín một hai');
    expect(viCardinal('1234567890123456')).toBe(
      'một hai ba bốn năm sáu bảy tám chín không một hai ba bốn năm sáu',
    );
    expect(viDigits('0-9.1')).toBe('không chín một');
  });

  it('reads decimal parts, ordinals and months', () => {
    expect(viDecimalPart('5')).toBe('năm');
    expect(viDecimalPart('05')).toBe('không năm');
    expect(viDecimalPart('50')).toBe('năm mươi');
    expect(viDecimalPart('1415')).toBe('một bốn một năm');
    expect([1, 2, 3, 4, 5, 10].map(viOrdinal)).toEqual(['nhất', 'hai', 'ba', 'tư', 'năm', 'mười']);
    expect([1, 4, 11, 12].map(viMonth)).toEqual(['một', 'tư', 'mười một', 'mười hai']);
  });

  it('parses the ways a number is written, and refuses groups that are not of three', () => {
    expect(parseViNumber('1.234.567,5')).toEqual({ int: '1234567', frac: '5', negative: false });
    expect(parseViNumber('1,234,567')).toEqual({ int: '1234567', negative: false });
    expect(parseViNumber('1,234.5')).toEqual({ int: '1234', frac: '5', point: true, negative: false });
    expect(parseViNumber('-3,5')).toEqual({ int: '3', frac: '5', negative: true });
    expect(parseViNumber('1\u00A0000')).toEqual({ int: '1000', negative: false });
    expect(parseViNumber('1.23,4.5')).toBeUndefined();
    expect(parseViNumber('12,34.567')).toBeUndefined();
    expect(sayViNumber('abc')).toBeUndefined();
  });
});

describe('the reading never changes a value', () => {
  it('round-trips random integers written with "." groups', () => {
    const rand = random(37);
    for (let n = 0; n < 2000; n++) {
      const digits = 1 + Math.floor(rand() * 15);
      let value = 0n;
      for (let i = 0; i < digits; i++) value = value * 10n + BigInt(Math.floor(rand() * 10));
      // Zeros are common in real amounts: every other number keeps only its first digits.
      if (n % 2 === 0) value -= value % 10n ** BigInt(Math.floor(rand() * digits));
      const written = grouped(value);
      const { reading } = readingOf(`có ${written} người`, 'vi');
      const spoken = reading.replace(/^có /, '').replace(/ người$/, '');
      expect(valueOf(spoken), written).toBe(value.toString());
    }
  });

  it('round-trips random decimals and negative numbers', () => {
    const rand = random(38);
    for (let n = 0; n < 1000; n++) {
      const int = BigInt(Math.floor(rand() * 10 ** (1 + Math.floor(rand() * 9))));
      const fracLength = 1 + Math.floor(rand() * 5);
      const frac = Array.from({ length: fracLength }, () => Math.floor(rand() * 10)).join('');
      const negative = rand() < 0.3;
      const written = `${negative ? '-' : ''}${grouped(int)},${frac}`;
      const spoken = readingOf(`là ${written} mét`, 'vi').reading.replace(/^là /, '').replace(/ mét$/, '');
      expect(valueOf(spoken), written).toBe(`${negative ? '-' : ''}${int},${frac}`.replace(',', '.'));
    }
  });

  it('keeps the digits of phone numbers, in order', () => {
    const rand = random(39);
    const back = (spoken: string) =>
      spoken
        .split(/[ ,]+/)
        .filter((w) => w in DIGIT)
        .map((w) => String(DIGIT[w]))
        .join('');
    for (let n = 0; n < 300; n++) {
      const digits = `0${Array.from({ length: 9 }, () => Math.floor(rand() * 10)).join('')}`;
      const sep = [' ', '.', '-'][n % 3] as string;
      const written = `${digits.slice(0, 4)}${sep}${digits.slice(4, 7)}${sep}${digits.slice(7)}`;
      const { reading, changes } = readingOf(written, 'vi');
      expect(changes.map((c) => c.rule)).toEqual(['telephone']);
      expect(back(reading)).toBe(digits);
    }
  });
});
