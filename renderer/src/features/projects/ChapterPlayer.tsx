import { useId } from 'react';
import type { ProjectDetail } from '../../../../electron/shared/projects';
import { chapterPosition, hasAudio, splitAtWord } from '../../lib/chapter-playback';
import { formatClock } from '../../lib/format';
import type { ChapterPlayer as Player } from './useChapterPlayer';

type Chapter = ProjectDetail['chapters'][number];

const CHECK_LABEL = {
  long_silence: 'long silence',
  clipping: 'clipping',
  ends_early: 'ends early',
  speech_rate: 'speech rate',
} as const;

/**
 * The chapter player: play/pause the chapter in order, where it is, the playing segment's text
 * with the spoken word lit, and "Check first": the segments the automatic checks or the writer
 * flagged, to listen to before the rest.
 */
export function ChapterPlayer({
  chapter,
  player,
  audioRef,
  onOpenSegment,
}: {
  chapter: Chapter;
  player: Player;
  /** Receives the player's <audio> element. */
  audioRef(element: HTMLAudioElement | null): void;
  onOpenSegment(segmentId: string): void;
}) {
  const id = useId();
  const index = chapter.segments.findIndex((s) => s.id === player.currentId);
  const segment = chapter.segments[index];
  const total = chapter.segments.reduce((sum, s) => sum + (hasAudio(s) ? (s.duration_ms ?? 0) : 0), 0);
  const at = index >= 0 ? chapterPosition(chapter.segments, index, player.positionMs) : 0;
  const parts = segment ? splitAtWord(segment.text, player.currentSpan) : null;
  const checkFirst = chapter.segments.filter((s) => s.checks.length > 0 || s.flag_note !== null);
  const playable = chapter.segments.some(hasAudio);

  return (
    <section className="panel chapter-player" aria-labelledby={`${id}-title`}>
      <audio ref={audioRef} preload="auto" aria-label="Chapter audio" />
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
          aria-label={player.playing ? 'Pause chapter' : 'Play chapter'}
        >
          {player.playing ? 'Pause' : 'Play'}
        </button>
        <button type="button" onClick={player.stop} disabled={player.currentId === null}>
          Stop
        </button>
        <span className="time" aria-label="Chapter position">
          {formatClock(at / 1000)} / {formatClock(total / 1000)}
        </span>
      </div>
      {segment && parts ? (
        <p className="now-playing" aria-live="off">
          <span className="small muted">
            {player.single ? 'Alone: ' : ''}Segment {index + 1} of {chapter.segments.length} ·{' '}
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
          {playable
            ? 'Play the chapter, or click a segment to play from there.'
            : 'Nothing in this chapter is rendered yet: render it to listen.'}
        </p>
      )}
      {player.error && (
        <p className="error" role="alert">
          {player.error}
        </p>
      )}
      {checkFirst.length > 0 && (
        <details className="check-first" open={checkFirst.length <= 6}>
          <summary>
            Check first: {checkFirst.length} flagged segment{checkFirst.length === 1 ? '' : 's'}
          </summary>
          <ul aria-label="Check first">
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
                  <span key={c.kind} className="badge warn" title={c.message}>
                    {CHECK_LABEL[c.kind]}
                  </span>
                ))}
                {s.flag_note !== null && (
                  <span className="badge accent">flag: {s.flag_note || 'no note'}</span>
                )}{' '}
                <span className="small muted">{s.checks.map((c) => c.message).join(' · ')}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
