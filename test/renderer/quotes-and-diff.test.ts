import { describe, expect, it } from 'vitest';
import { findQuotes } from '../../renderer/src/lib/quotes';
import { diffParagraphs } from '../../renderer/src/lib/text-diff';

describe('quotations in a segment', () => {
  it('finds each quotation with code-point offsets, marks included', () => {
    const text = '“Come in,” said Anna. “The tea is hot.”';
    const quotes = findQuotes(text);
    expect(quotes.map((q) => q.text)).toEqual(['“Come in,”', '“The tea is hot.”']);
    expect(quotes[0]).toMatchObject({ start: 0, end: 10 });
    expect(Array.from(text).slice(quotes[1]!.start, quotes[1]!.end).join('')).toBe('“The tea is hot.”');
  });

  it('counts code points, not UTF-16 units, before a quotation', () => {
    const quotes = findQuotes('🌊 "Chào," cô nói.');
    expect(quotes).toEqual([{ start: 2, end: 9, text: '"Chào,"' }]);
  });

  it('leaves an unclosed quotation and an apostrophe alone', () => {
    expect(findQuotes('He said “wait and never finished')).toEqual([]);
    expect(findQuotes('It’s Anna‘s boat')).toEqual([]);
    expect(findQuotes('«Bonjour», dit-elle.')).toEqual([{ start: 0, end: 9, text: '«Bonjour»' }]);
  });
});

describe('what changed since the export', () => {
  it('marks paragraphs removed, added and kept, in reading order', () => {
    const before = 'One.\n\nTwo.\n\nThree.';
    const after = 'One.\n\nTwo, edited.\n\nThree.\n\nFour.';
    expect(diffParagraphs(before, after)).toEqual([
      { kind: 'same', text: 'One.' },
      { kind: 'removed', text: 'Two.' },
      { kind: 'added', text: 'Two, edited.' },
      { kind: 'same', text: 'Three.' },
      { kind: 'added', text: 'Four.' },
    ]);
  });

  it('has nothing changed for the same text, and everything added after no export', () => {
    expect(diffParagraphs('A\nB', 'A\n\nB').every((l) => l.kind === 'same')).toBe(true);
    expect(diffParagraphs('', 'A\nB').map((l) => l.kind)).toEqual(['added', 'added']);
  });
});
