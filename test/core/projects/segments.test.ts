import { describe, expect, it } from 'vitest';
import { chapterSegments, paragraphSegments } from '../../../electron/core/projects/segments';

describe('segments', () => {
  it('makes a segment of each paragraph, a line of dialogue included, keeping its emphasis', () => {
    const drafts = chapterSegments([
      { text: 'The sea was calm that night.', emphasis: [{ start: 4, end: 7, kind: 'em' }] },
      { text: '“Are you coming?” asked Anna.', emphasis: [] },
      { text: '— Anh đi đâu vậy? — Lan hỏi.', emphasis: [{ start: 2, end: 5, kind: 'strong' }] },
    ]);
    expect(drafts).toEqual([
      { text: 'The sea was calm that night.', emphasis: [{ start: 4, end: 7, kind: 'em' }] },
      { text: '“Are you coming?” asked Anna.', emphasis: [] },
      { text: '— Anh đi đâu vậy? — Lan hỏi.', emphasis: [{ start: 2, end: 5, kind: 'strong' }] },
    ]);
  });

  it('splits a long paragraph at sentence ends, each piece within the limit, emphasis moved with it', () => {
    const sentence = (i: number) => `Câu số ${i} kể về ngọn hải đăng trên đảo xa.`;
    const text = Array.from({ length: 12 }, (_, i) => sentence(i)).join(' ');
    // Emphasis on "ngọn hải đăng" of the 8th sentence (code points; đ and ă are one each in NFC).
    const at = Array.from(text).join('').indexOf(sentence(7)) + 'Câu số 7 kể về '.length;
    const drafts = paragraphSegments({ text, emphasis: [{ start: at, end: at + 13, kind: 'em' }] }, 120);
    expect(drafts.length).toBeGreaterThan(3);
    for (const d of drafts) {
      expect(Array.from(d.text).length).toBeLessThanOrEqual(120);
      expect(d.text).toMatch(/^Câu số \d+ .*xa\.$/u);
    }
    expect(drafts.map((d) => d.text).join(' ')).toBe(text);
    const withEmphasis = drafts.filter((d) => d.emphasis.length > 0);
    expect(withEmphasis).toHaveLength(1);
    const [span] = withEmphasis[0]!.emphasis;
    expect(Array.from(withEmphasis[0]!.text).slice(span!.start, span!.end).join('')).toBe('ngọn hải đăng');
  });

  it('cuts a sentence longer than the limit at spaces, and an emphasis across the cut is kept in both', () => {
    const text = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const drafts = paragraphSegments(
      { text, emphasis: [{ start: 0, end: text.length, kind: 'strong' }] },
      100,
    );
    expect(drafts.length).toBeGreaterThan(3);
    expect(drafts.map((d) => d.text).join(' ')).toBe(text);
    for (const d of drafts) expect(d.emphasis).toEqual([{ start: 0, end: d.text.length, kind: 'strong' }]);
  });
});
