import { useId } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import type { ProjectDetail, SegmentRecord } from '../../../../electron/shared/projects';
import { chapterPosition, hasAudio, splitAtWord } from '../../lib/chapter-playback';
import { formatClock } from '../../lib/format';
import type { ChapterPlayer as Player } from './useChapterPlayer';
import { checkSentence } from './check-sentence';

type Chapter = ProjectDetail['chapters'][number];

export const CHECK_LABEL = defineMessages({
  long_silence: { id: 'projects.check.longSilence', defaultMessage: 'long silence' },
  clipping: { id: 'projects.check.clipping', defaultMessage: 'clipping' },
  ends_early: { id: 'projects.check.endsEarly', defaultMessage: 'ends early' },
  speech_rate: { id: 'projects.check.speechRate', defaultMessage: 'speech rate' },
});

/**
 * The chapter player: play/pause the chapter in order, where it is, the playing segment's text
 * with the spoken word lit, and "Check first": the segments the automatic checks or the writer
 * flagged, to listen to before the rest (of those read so far: `segments`, the chapter's first).
 */
export function ChapterPlayer({
  chapter,
  segments,
  player,
  audioRef,
  onOpenSegment,
}: {
  chapter: Chapter;
  /** The chapter's segments read so far, from its first. */
  segments: readonly SegmentRecord[];
  player: Player;
  /** Receives the player's <audio> element. */
  audioRef(element: HTMLAudioElement | null): void;
  onOpenSegment(segmentId: string): void;
}) {
  const id = useId();
  const intl = useIntl();
  const index = segments.findIndex((s) => s.id === player.currentId);
  const segment = segments[index];
  // The whole chapter's length once all of it has audio (the server's sum); else what is read.
  const total =
    chapter.duration_ms ?? segments.reduce((sum, s) => sum + (hasAudio(s) ? (s.duration_ms ?? 0) : 0), 0);
  const at = index >= 0 ? chapterPosition(segments, index, player.positionMs) : 0;
  const parts = segment ? splitAtWord(segment.text, player.currentSpan) : null;
  const checkFirst = segments.filter((s) => s.checks.length > 0 || s.flag_note !== null);
  const playable = chapter.segments_done > 0 || segments.some(hasAudio);

  return (
    <section className="panel chapter-player" aria-labelledby={`${id}-title`}>
      <audio
        ref={audioRef}
        preload="auto"
        aria-label={intl.formatMessage({ id: 'projects.player.audio', defaultMessage: 'Chapter audio' })}
      />
      <div className="row">
        <h2 id={`${id}-title`} className="player-title">
          {chapter.title}
        </h2>
        <span className="spacer" />
        <button
          type="button"
          className="primary"
          onClick={player.toggle}
          disabled={!playable}
          aria-label={
            player.playing
              ? intl.formatMessage({ id: 'projects.player.pauseChapter', defaultMessage: 'Pause chapter' })
              : intl.formatMessage({ id: 'projects.player.playChapter', defaultMessage: 'Play chapter' })
          }
        >
          {player.playing ? (
            <FormattedMessage id="projects.player.pause" defaultMessage="Pause" />
          ) : (
            <FormattedMessage id="common.play" defaultMessage="Play" />
          )}
        </button>
        <button type="button" onClick={player.stop} disabled={player.currentId === null}>
          <FormattedMessage id="common.stop" defaultMessage="Stop" />
        </button>
        <span
          className="time"
          aria-label={intl.formatMessage({
            id: 'projects.player.position',
            defaultMessage: 'Chapter position',
          })}
        >
          {formatClock(at / 1000)} / {formatClock(total / 1000)}
        </span>
      </div>
      {segment && parts ? (
        <p className="now-playing" aria-live="off">
          <span className="small muted">
            {player.single ? (
              <FormattedMessage
                id="projects.player.nowAlone"
                defaultMessage="Alone: Segment {number, number} of {total, number} ·"
                values={{ number: index + 1, total: chapter.segment_count }}
              />
            ) : (
              <FormattedMessage
                id="projects.player.now"
                defaultMessage="Segment {number, number} of {total, number} ·"
                values={{ number: index + 1, total: chapter.segment_count }}
              />
            )}{' '}
          </span>
          {parts.before}
          {parts.word && (
            <span className="word current" data-testid="current-word">
              {parts.word}
            </span>
          )}
          {parts.after}
        </p>
      ) : (
        <p className="hint">
          {playable ? (
            <FormattedMessage
              id="projects.player.hint"
              defaultMessage="Play the chapter, or click a segment to play from there."
            />
          ) : (
            <FormattedMessage
              id="projects.player.nothingHint"
              defaultMessage="Nothing in this chapter is rendered yet: render it to listen."
            />
          )}
        </p>
      )}
      {player.error && (
        <p className="error" role="alert">
          {intl.formatMessage(player.error.message, player.error.values)}
        </p>
      )}
      <CheckFirst segments={checkFirst} player={player} onOpenSegment={onOpenSegment} />
    </section>
  );
}

/** "Check first": the segments the automatic checks or the writer flagged, each opened (and played alone) by a click. */
function CheckFirst({
  segments: checkFirst,
  player,
  onOpenSegment,
}: {
  segments: readonly SegmentRecord[];
  player: Player;
  onOpenSegment(segmentId: string): void;
}) {
  const intl = useIntl();
  if (checkFirst.length === 0) return null;
  return (
    <details className="check-first" open={checkFirst.length <= 6}>
      <summary>
        <FormattedMessage
          id="projects.player.checkFirstSummary"
          defaultMessage="Check first: {count, plural, one {# flagged segment} other {# flagged segments}}"
          values={{ count: checkFirst.length }}
        />
      </summary>
      <ul
        aria-label={intl.formatMessage({
          id: 'projects.player.checkFirst',
          defaultMessage: 'Check first',
        })}
      >
        {checkFirst.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              className="link"
              onClick={() => {
                onOpenSegment(s.id);
                if (hasAudio(s)) player.playAlone(s.id);
              }}
            >
              #{s.position + 1}
            </button>{' '}
            {s.checks.map((c) => (
              <span key={c.kind} className="badge warn" title={checkSentence(c, intl)}>
                {intl.formatMessage(CHECK_LABEL[c.kind])}
              </span>
            ))}
            {s.flag_note !== null && (
              <span className="badge accent">
                {s.flag_note ? (
                  <FormattedMessage
                    id="projects.player.flag"
                    defaultMessage="flag: {note}"
                    values={{ note: s.flag_note }}
                  />
                ) : (
                  <FormattedMessage id="projects.player.flagNoNote" defaultMessage="flag: no note" />
                )}
              </span>
            )}{' '}
            <span className="small muted">{s.checks.map((c) => checkSentence(c, intl)).join(' · ')}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
