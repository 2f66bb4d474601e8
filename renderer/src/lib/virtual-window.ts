/**
 * Windowing of a long list (a book's 5,000 segments): only the rows in view, and a few either
 * side, are in the page. Rows may differ in height (the open segment is taller); their tops are
 * a prefix sum, and the rows in view are found by binary search.
 */

/** The top of each row and, last, the list's whole height: `count + 1` numbers. */
export function rowOffsets(count: number, heightOf: (index: number) => number): Float64Array {
  const offsets = new Float64Array(count + 1);
  for (let i = 0; i < count; i++) offsets[i + 1] = offsets[i]! + heightOf(i);
  return offsets;
}

/** The row at `y` px from the top (the last one past the end; 0 for an empty list). */
export function rowAt(offsets: Float64Array, y: number): number {
  const count = offsets.length - 1;
  if (count <= 0) return 0;
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Rows `start` (inclusive) to `end` (exclusive) to put in the page: those in view and `overscan` either side. */
export function visibleRange(
  offsets: Float64Array,
  scrollTop: number,
  viewportHeight: number,
  overscan = 4,
): { start: number; end: number } {
  const count = offsets.length - 1;
  if (count <= 0) return { start: 0, end: 0 };
  const first = rowAt(offsets, Math.max(0, scrollTop));
  const last = rowAt(offsets, Math.max(0, scrollTop + Math.max(0, viewportHeight) - 1));
  return { start: Math.max(0, first - overscan), end: Math.min(count, last + 1 + overscan) };
}

/**
 * The scroll position that shows row `index` whole, moving as little as possible from `scrollTop`
 * (unchanged when it is already in view).
 */
export function scrollToShow(
  offsets: Float64Array,
  index: number,
  scrollTop: number,
  viewportHeight: number,
): number {
  const count = offsets.length - 1;
  if (index < 0 || index >= count) return scrollTop;
  const top = offsets[index]!;
  const bottom = offsets[index + 1]!;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(0, Math.min(top, bottom - viewportHeight));
  return scrollTop;
}
