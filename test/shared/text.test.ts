import { describe, expect, it } from 'vitest';
import { cleanText, countCharacters } from '../../electron/shared/text';
import { pick, random } from '../fixtures/random';

describe('cleanText', () => {
  it('composes to NFC', () => {
    expect(cleanText('Cafe\u0301 tie\u0302\u0301ng Vie\u0323\u0302t')).toBe('Café tiếng Việt');
  });

  it('turns CRLF and CR into LF and keeps blank lines and tabs', () => {
    expect(cleanText('one\r\ntwo\rthree\r\n\r\nfour\tfive')).toBe('one\ntwo\nthree\n\nfour\tfive');
  });

  it('drops control and invisible format characters but keeps emoji joiners', () => {
    const family = '👨\u200D👩\u200D👧';
    expect(cleanText(`a\u0000b\u0007c\u009Fd\u200Be\uFEFFf\u202Eg\u2066h\u00ADi ${family}`)).toBe(
      `abcdefghi ${family}`,
    );
  });

  it('keeps paragraph breaks from the Unicode separators', () => {
    expect(cleanText('a\u2028b\u2029c\u000Cd')).toBe('a\nb\n\nc\nd');
  });

  it('replaces lone surrogates and keeps pairs', () => {
    expect(cleanText('a\uD800b\uDC00c😀')).toBe('a\uFFFDb\uFFFDc😀');
  });

  it('handles a million characters', () => {
    const unit = 'Xin chào\r\nthế giới\u200B! ';
    const input = unit.repeat(Math.ceil(1_000_000 / unit.length));
    const cleaned = cleanText(input);
    const units = Math.ceil(1_000_000 / unit.length);
    expect(cleaned.length).toBe(input.length - units * 2);
    expect(cleaned.includes('\r')).toBe(false);
  });
});

describe('countCharacters', () => {
  it('counts code points, a surrogate pair once', () => {
    expect(countCharacters('')).toBe(0);
    expect(countCharacters('abc')).toBe(3);
    expect(countCharacters('a😀b')).toBe(3);
    expect(countCharacters('𠮷野家')).toBe(3);
    expect(countCharacters('e\u0301')).toBe(2);
    expect(countCharacters('\uD800x')).toBe(2);
  });

  it('agrees with code point iteration on random text', () => {
    const rand = random(7);
    const alphabet = ['a', 'é', '😀', '\uD83D', '\uDE00', '日', ' ', '\n', '👍🏽'];
    for (let n = 0; n < 200; n++) {
      let s = '';
      for (let i = 0; i < 40; i++) s += pick(rand, alphabet);
      expect(countCharacters(s)).toBe([...s].length);
    }
  });
});
