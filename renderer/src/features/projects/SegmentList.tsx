import { useCallback, useEffect, useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ProjectDetail, SegmentRecord } from '../../../../electron/shared/projects';
import { visibleRange } from '../../lib/virtual-window';
import { useStudio } from '../../stores';
import { SEGMENT_PAGE } from '../../stores/project-segment-windows';
import { SegmentRow } from './SegmentRow';
import { OVERSCAN, useSegmentWindow } from './useSegmentWindow';
import type { ChapterPlayer } from './useChapterPlayer';
import { BusyButton } from '../../components/BusyButton';

type Chapter = ProjectDetail['chapters'][number];

/**
 * The open chapter's segments, windowed: only the rows in view (and a few either side) are in the
 * page, so a chapter of thousands of segments scrolls as lightly as one of ten. Its segments are
 * read from the server a page at a time: the next page when the rows in view near the end of
 * those read, or with the "Show more" button under the list. A row opens its editor below it;
 * ↑/↓ move between rows.
 */
export function SegmentList({
  chapter,
  segments,
  loaded,
  onLoadMore,
  player,
  selected,
  onSelect,
  openSegment,
  onOpenSegment,
}: {
  chapter: Chapter;
  /** The chapter's segments read so far, from its first. */
  segments: readonly SegmentRecord[];
  /** False while its first page is being read. */
  loaded: boolean;
  /** Reads the next page of its segments. */
  onLoadMore(): Promise<unknown>;
  player: ChapterPlayer;
  selected: ReadonlySet<string>;
  onSelect(next: ReadonlySet<string>): void;
  openSegment: string | null;
  onOpenSegment(segmentId: string | null): void;
}) {
  const characters = useStudio((s) => s.project!.characters);
  const id = useId();
  const intl = useIntl();
  const more = chapter.segment_count - segments.length;
  const [reading, setReading] = useState(false);
  const readMore = useCallback(() => {
    if (reading) return;
    setReading(true);
    void onLoadMore().finally(() => setReading(false));
  }, [reading, onLoadMore]);
  const openIndex = segments.findIndex((s) => s.id === openSegment);
  const { scroller, setScrollTop, viewport, setEditorHeight, offsets, start, end, show } = useSegmentWindow(
    segments.length,
    openIndex,
  );

  // The playing segment and the one opened from elsewhere (Check first) are scrolled into view.
  const playingIndex = segments.findIndex((s) => s.id === player.currentId);
  useEffect(() => show(playingIndex), [playingIndex]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => show(openIndex), [openIndex]); // eslint-disable-line react-hooks/exhaustive-deps

  const focusRow = (index: number) => {
    show(index);
    requestAnimationFrame(() =>
      scroller.current?.querySelector<HTMLElement>(`[data-index="${index}"] .segment-main`)?.focus(),
    );
  };

  const toggleSelected = (segmentId: string) => {
    const next = new Set(selected);
    if (next.has(segmentId)) next.delete(segmentId);
    else next.add(segmentId);
    onSelect(next);
  };

  const rows = [];
  for (let i = start; i < end; i++) {
    const s = segments[i]!;
    const isOpen = i === openIndex;
    rows.push(
      <SegmentRow
        key={s.id}
        segment={s}
        index={i}
        count={segments.length}
        setSize={chapter.segment_count}
        top={offsets[i]!}
        height={offsets[i + 1]! - offsets[i]!}
        isOpen={isOpen}
        selected={selected.has(s.id)}
        onToggle={() => toggleSelected(s.id)}
        onOpen={() => onOpenSegment(isOpen ? null : s.id)}
        onFocusRow={focusRow}
        onEditorHeight={setEditorHeight}
        characters={characters}
        player={player}
      />,
    );
  }

  return (
    <section className="panel segment-panel" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <h2 id={`${id}-title`}>
          <FormattedMessage id="projects.segments.title" defaultMessage="Segments" />
        </h2>
        <span className="small muted">
          <FormattedMessage
            id="projects.segments.done"
            defaultMessage="{done, number} / {total, number} done"
            values={{ done: chapter.segments_done, total: chapter.segment_count }}
          />
          {selected.size > 0 && (
            <>
              {' · '}
              <FormattedMessage
                id="projects.segments.selected"
                defaultMessage="{count, number} selected"
                values={{ count: selected.size }}
              />{' '}
              <button type="button" className="link small" onClick={() => onSelect(new Set())}>
                <FormattedMessage id="projects.segments.clear" defaultMessage="Clear" />
              </button>
            </>
          )}
        </span>
      </div>
      <div
        ref={scroller}
        className="segment-scroller"
        onScroll={(e) => {
          const top = e.currentTarget.scrollTop;
          setScrollTop(top);
          // Scrolled near the end of the segments read: the next page is read.
          if (loaded && more > 0 && visibleRange(offsets, top, viewport, OVERSCAN).end >= segments.length)
            readMore();
        }}
      >
        <ol
          className="segment-list"
          aria-label={intl.formatMessage(
            { id: 'projects.segments.label', defaultMessage: 'Segments of {title}' },
            { title: chapter.title },
          )}
          style={{ height: offsets[segments.length] }}
        >
          {rows}
        </ol>
        {more > 0 && (
          <p className="segment-more small muted">
            <FormattedMessage
              id="projects.segments.shown"
              defaultMessage="{shown, number} of {total, number} segments shown"
              values={{ shown: segments.length, total: chapter.segment_count }}
            />{' '}
            <BusyButton onClick={readMore} busy={reading || !loaded}>
              {reading || !loaded ? (
                <FormattedMessage id="projects.segments.reading" defaultMessage="Reading…" />
              ) : (
                <FormattedMessage
                  id="projects.segments.more"
                  defaultMessage="Show {count, number} more"
                  values={{ count: Math.min(more, SEGMENT_PAGE) }}
                />
              )}
            </BusyButton>
          </p>
        )}
      </div>
    </section>
  );
}
