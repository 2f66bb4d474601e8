import { useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatClock } from '../../lib/format';
import { cueIndexAt, cueWords, wordIndexAt, type Cue } from '../../lib/subtitles';
import type { ResultChapter } from './useResultTimeline';

type Props<T> = {
  /** The player's time, seconds. */
  time: number;
  onSeek: (seconds: number) => void;
} & T;

/** The result's chapters, the one playing marked; a click seeks to its start. */
export function ChapterList({ chapters, time, onSeek }: Props<{ chapters: ResultChapter[] }>) {
  const intl = useIntl();
  return (
    <ol
      className="chapter-list"
      aria-label={intl.formatMessage({ id: 'preview.chapters', defaultMessage: 'Chapters' })}
    >
      {chapters.map((c, i) => {
        const isCurrent = time >= c.start && time < (chapters[i + 1]?.start ?? Infinity);
        return (
          <li key={`${i}-${c.title}`}>
            <button
              type="button"
              onClick={() => onSeek(c.start)}
              aria-current={isCurrent ? 'true' : undefined}
            >
              <span className="time">{formatClock(c.start, true)}</span> {c.title}
            </button>
          </li>
        );
      })}
    </ol>
  );
}

/** The subtitle playing, word by word, and every cue; a click seeks to the cue. */
export function SubtitleCues({ cues, time, onSeek }: Props<{ cues: Cue[] }>) {
  const intl = useIntl();
  const current = cueIndexAt(cues, time);
  const cue = current >= 0 ? cues[current] : undefined;
  const words = useMemo(() => (cue ? cueWords(cue) : []), [cue]);
  const wordIndex = cue ? wordIndexAt(cue, time) : -1;
  return (
    <>
      <div
        className="now-playing"
        aria-live="off"
        data-testid="current-cue"
        aria-label={intl.formatMessage({
          id: 'preview.subtitles.current',
          defaultMessage: 'Current subtitle',
        })}
      >
        {cue ? (
          words.map((w, i) => (
            <span key={i}>
              <span className={`word${i === wordIndex ? ' current' : ''}`}>{w}</span>{' '}
            </span>
          ))
        ) : (
          <span className="muted">
            {cues.length ? (
              '…'
            ) : (
              <FormattedMessage id="preview.subtitles.loading" defaultMessage="Loading subtitles…" />
            )}
          </span>
        )}
      </div>
      <ol
        className="cue-list"
        aria-label={intl.formatMessage({ id: 'preview.subtitles.cues', defaultMessage: 'Subtitle cues' })}
      >
        {cues.map((c, i) => (
          <li key={c.index} className={i === current ? 'current' : undefined}>
            <button
              type="button"
              onClick={() => onSeek(c.start)}
              aria-current={i === current ? 'true' : undefined}
            >
              <span className="time">{formatClock(c.start, true)}</span>
              <span>{c.text}</span>
            </button>
          </li>
        ))}
      </ol>
    </>
  );
}
