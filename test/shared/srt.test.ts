import { describe, expect, it } from 'vitest';
import { parseSrt } from '../../electron/shared/srt';

describe('parseSrt', () => {
  it('accepts CRLF, a BOM and extra blank lines', () => {
    const text =
      '\ufeff1\r\n00:00:00,000 --> 00:00:01,000\r\nA\r\n\r\n\r\n2\r\n00:00:01,000 --> 00:00:02,500\r\nB\r\nC\r\n';
    expect(parseSrt(text)).toEqual([
      { index: 1, startMs: 0, endMs: 1000, text: 'A' },
      { index: 2, startMs: 1000, endMs: 2500, text: 'B\nC' },
    ]);
    expect(parseSrt('')).toEqual([]);
  });

  it('rejects malformed blocks', () => {
    expect(() => parseSrt('one\n00:00:00,000 --> 00:00:01,000\nA\n')).toThrow(SyntaxError);
    expect(() => parseSrt('1\n00:00:00 --> 00:00:01\nA\n')).toThrow(/block 1/u);
    expect(() => parseSrt('1\n00:00:00,000 --> 00:00:01,000\n')).toThrow(/no text/u);
  });

  it('leaves malformed blocks out when asked to skip them', () => {
    const text =
      '1\n00:00:00,000 --> 00:00:01,000\nA\n\ntwo\n00:00:01,000 --> 00:00:02,000\nB\n\n3\n00:00:02,000 --> 00:00:03,000\n';
    expect(parseSrt(text, { skipMalformed: true })).toEqual([
      { index: 1, startMs: 0, endMs: 1000, text: 'A' },
    ]);
  });
});
