import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { CharacterRecord, ProjectDetail, SegmentRecord } from '../../../../electron/shared/projects';
import { hasAudio, splitAtWord } from '../../lib/chapter-playback';
import { formatClock } from '../../lib/format';
import { rowOffsets, scrollToShow, visibleRange } from '../../lib/virtual-window';
import { useStudio } from '../../stores';
import { SEGMENT_PAGE } from '../../stores/project-segment-windows';
import { SegmentEditor } from './SegmentEditor';
import type { ChapterPlayer } from './useChapterPlayer';
import { checkSentence } from './check-sentence';
import { characterName } from './project-format';
import { BusyButton } from '../../components/BusyButton';

type Chapter = ProjectDetail['chapters'][number];

/** Height of a closed segment row, px (CSS .segment-row keeps to it). */
export const SEGMENT_ROW_HEIGHT = 68;
const OVERSCAN = 6;

export const STATE_LABEL = defineMessages({
  not_rendered: { id: 'projects.segment.state.notRendered', defaultMessage: 'not rendered' },
  queued: { id: 'projects.segment.state.queued', defaultMessage: 'queued' },
  rendering: { id: 'projects.segment.state.rendering', defaultMessage: 'rendering' },
  done: { id: 'projects.segment.state.done', defaultMessage: 'done' },
  failed: { id: 'projects.segment.state.failed', defaultMessage: 'failed' },
  changed: { id: 'projects.segment.state.changed', defaultMessage: 'changed' },
});
const STATE_CLASS: Record<SegmentRecord['state'], string> = {
  not_rendered: '',
  queued: 'accent',
  rendering: 'accent',
  done: 'ok',
  failed: 'bad',
  changed: 'warn',
};

export function speakerName(
  characters: readonly CharacterRecord[],
  speaker: string | null,
  intl: IntlShape,
): string {
  const character = characters.find((c) => (speaker === null ? c.narrator : c.id === speaker));
  if (character) return characterName(character, intl);
  return speaker ?? intl.formatMessage({ id: 'projects.segment.narrator', defaultMessage: 'Narrator' });
}

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
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(480);
  const [editorHeight, setEditorHeight] = useState(360);
  const more = chapter.segment_count - segments.length;
  const [reading, setReading] = useState(false);
  const readMore = useCallback(() => {
    if (reading) return;
    setReading(true);
    void onLoadMore().finally(() => setReading(false));
  }, [reading, onLoadMore]);
  const openIndex = segments.findIndex((s) => s.id === openSegment);
  const offsets = useMemo(
    () =>
      rowOffsets(segments.length, (i) =>
        i === openIndex ? SEGMENT_ROW_HEIGHT + editorHeight : SEGMENT_ROW_HEIGHT,
      ),
    [segments.length, openIndex, editorHeight],
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
    const isPlaying = s.id === player.currentId;
    const parts = isPlaying ? splitAtWord(s.text, player.currentSpan) : null;
    rows.push(
      <li
        key={s.id}
        data-index={i}
        className={`segment-row${isOpen ? ' open' : ''}${isPlaying ? ' playing' : ''}`}
        style={{ top: offsets[i], height: offsets[i + 1]! - offsets[i]! }}
        aria-setsize={chapter.segment_count}
        aria-posinset={i + 1}
        aria-current={isPlaying ? 'true' : undefined}
        aria-label={intl.formatMessage(
          { id: 'projects.segment.label', defaultMessage: 'Segment {number, number}' },
          { number: i + 1 },
        )}
      >
        <div className="segment-line">
          <input
            type="checkbox"
            aria-label={intl.formatMessage(
              { id: 'projects.segment.select', defaultMessage: 'Select segment {number, number}' },
              { number: i + 1 },
            )}
            checked={selected.has(s.id)}
            onChange={() => toggleSelected(s.id)}
          />
          <button
            type="button"
            className="segment-main"
            aria-expanded={isOpen}
            onClick={() => onOpenSegment(isOpen ? null : s.id)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' && i < segments.length - 1) {
                e.preventDefault();
                focusRow(i + 1);
              } else if (e.key === 'ArrowUp' && i > 0) {
                e.preventDefault();
                focusRow(i - 1);
              }
            }}
          >
            {/* The name is what it shows: "Segment 3: <its text>" (the number once, not "3 Segment 3"). */}
            <span className="segment-num small muted">
              <span className="visually-hidden">
                <FormattedMessage
                  id="projects.segment.number"
                  defaultMessage="Segment {number, number}:"
                  values={{ number: i + 1 }}
                />
              </span>
              <span aria-hidden="true">{i + 1}</span>
            </span>
            <span className="segment-text">
              {parts ? (
                <>
                  {parts.before}
                  {parts.word && <mark className="word current">{parts.word}</mark>}
                  {parts.after}
                </>
              ) : (
                s.text
              )}
            </span>
          </button>
          <span className="segment-meta small">
            <span className={`badge ${STATE_CLASS[s.state]}`} data-state={s.state}>
              {intl.formatMessage(STATE_LABEL[s.state])}
            </span>
            <span
              className="segment-speaker"
              title={intl.formatMessage({ id: 'projects.segment.speaker', defaultMessage: 'Speaker' })}
            >
              {speakerName(characters, s.speaker, intl)}
              {s.quotes.length > 0 && <> +{s.quotes.length}</>}
            </span>
            <span
              className="mono"
              aria-label={intl.formatMessage({ id: 'projects.segment.duration', defaultMessage: 'Duration' })}
            >
              {s.duration_ms === null ? '—' : formatClock(s.duration_ms / 1000, true)}
            </span>
            {s.checks.length > 0 && (
              <span className="badge warn" title={s.checks.map((c) => checkSentence(c, intl)).join('\n')}>
                <FormattedMessage
                  id="projects.segment.checks"
                  defaultMessage="{count, plural, one {# check} other {# checks}}"
                  values={{ count: s.checks.length }}
                />
              </span>
            )}
            {s.flag_note !== null && (
              <span className="badge accent" title={s.flag_note}>
                <FormattedMessage id="projects.segment.flagged" defaultMessage="flagged" />
              </span>
            )}
            {s.suggested_speaker !== null && s.suggested_speaker !== s.speaker && (
              <span
                className="badge"
                title={intl.formatMessage({
                  id: 'projects.segment.suggestedTitle',
                  defaultMessage: 'A speaker is suggested',
                })}
              >
                <FormattedMessage id="projects.segment.suggested" defaultMessage="suggested" />
              </span>
            )}
          </span>
          <button
            type="button"
            className="icon"
            disabled={!hasAudio(s)}
            aria-label={intl.formatMessage(
              { id: 'projects.segment.playFrom', defaultMessage: 'Play from segment {number, number}' },
              { number: i + 1 },
            )}
            onClick={() => player.playFrom(s.id)}
          >
            ▶
          </button>
        </div>
        {isOpen && (
          <SegmentEditor
            segment={s}
            index={i}
            characters={characters}
            player={player}
            onHeight={setEditorHeight}
          />
        )}
      </li>,
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
