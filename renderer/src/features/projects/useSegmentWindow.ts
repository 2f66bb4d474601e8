import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { rowOffsets, scrollToShow, visibleRange } from '../../lib/virtual-window';

/** Height of a closed segment row, px (CSS .segment-row keeps to it). */
export const SEGMENT_ROW_HEIGHT = 68;
/** Rows drawn beyond those in view, either side. */
export const OVERSCAN = 6;

/**
 * The segment list's window: where each row sits (the open one taller by its editor's height),
 * which rows are in view (and OVERSCAN either side), and `show`, which scrolls a row into view.
 */
export function useSegmentWindow(count: number, openIndex: number) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(480);
  const [editorHeight, setEditorHeight] = useState(360);
  const offsets = useMemo(
    () =>
      rowOffsets(count, (i) => (i === openIndex ? SEGMENT_ROW_HEIGHT + editorHeight : SEGMENT_ROW_HEIGHT)),
    [count, openIndex, editorHeight],
  );
  const { start, end } = visibleRange(offsets, scrollTop, viewport, OVERSCAN);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setViewport(el.clientHeight));
    observer.observe(el);
    setViewport(el.clientHeight);
    return () => observer.disconnect();
  }, []);

  const show = useCallback(
    (index: number) => {
      const el = scroller.current;
      if (!el || index < 0) return;
      const top = scrollToShow(offsets, index, el.scrollTop, el.clientHeight);
      if (top !== el.scrollTop) {
        el.scrollTop = top;
        setScrollTop(top);
      }
    },
    [offsets],
  );

  return { scroller, setScrollTop, viewport, setEditorHeight, offsets, start, end, show };
}
