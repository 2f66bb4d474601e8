import { describe, expect, it } from 'vitest';
import { rowAt, rowOffsets, scrollToShow, visibleRange } from '../../renderer/src/lib/virtual-window';

describe('virtual window', () => {
  it('sums row heights into tops, with the total last', () => {
    const offsets = rowOffsets(4, (i) => (i === 2 ? 100 : 10));
    expect([...offsets]).toEqual([0, 10, 20, 120, 130]);
  });

  it('finds the row under a y position by binary search, at row edges too', () => {
    const offsets = rowOffsets(4, (i) => (i === 2 ? 100 : 10));
    expect(rowAt(offsets, 0)).toBe(0);
    expect(rowAt(offsets, 9.9)).toBe(0);
    expect(rowAt(offsets, 10)).toBe(1);
    expect(rowAt(offsets, 119)).toBe(2);
    expect(rowAt(offsets, 120)).toBe(3);
    expect(rowAt(offsets, 10_000)).toBe(3);
    expect(
      rowAt(
        rowOffsets(0, () => 10),
        50,
      ),
    ).toBe(0);
  });

  it('puts only the rows in view and the overscan in the page, for a 5,000-segment chapter', () => {
    const offsets = rowOffsets(5000, () => 68);
    // 480 px of view at row 2,000's top: rows 2000–2007 are visible (8 × 68 = 544 > 480).
    const range = visibleRange(offsets, 2000 * 68, 480, 4);
    expect(range).toEqual({ start: 1996, end: 2012 });
    expect(visibleRange(offsets, 0, 480, 4)).toEqual({ start: 0, end: 12 });
    // Scrolled past the end: the last rows, never beyond.
    expect(visibleRange(offsets, 5000 * 68 + 500, 480, 4).end).toBe(5000);
    expect(
      visibleRange(
        rowOffsets(0, () => 1),
        0,
        480,
      ),
    ).toEqual({ start: 0, end: 0 });
  });

  it('counts the open (taller) row when finding what is in view', () => {
    const offsets = rowOffsets(100, (i) => (i === 10 ? 68 + 400 : 68));
    // Row 11 starts at 11 × 68 + 400 = 1148.
    expect(rowAt(offsets, 1147)).toBe(10);
    expect(rowAt(offsets, 1148)).toBe(11);
    expect(visibleRange(offsets, 1148, 68, 0)).toEqual({ start: 11, end: 12 });
  });

  it('scrolls as little as needed to show a row, and not at all when it is in view', () => {
    const offsets = rowOffsets(100, () => 50);
    expect(scrollToShow(offsets, 3, 0, 400)).toBe(0);
    expect(scrollToShow(offsets, 20, 0, 400)).toBe(21 * 50 - 400);
    expect(scrollToShow(offsets, 2, 500, 400)).toBe(100);
    expect(scrollToShow(offsets, 200, 123, 400)).toBe(123);
  });
});
