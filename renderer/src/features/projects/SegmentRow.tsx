import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { CharacterRecord, SegmentRecord } from '../../../../electron/shared/projects';
import { hasAudio, splitAtWord } from '../../lib/chapter-playback';
import { formatClock } from '../../lib/format';
import { SegmentEditor } from './SegmentEditor';
import type { ChapterPlayer } from './useChapterPlayer';
import { checkSentence } from './check-sentence';
import { characterName } from './project-format';

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

/** A segment's state, speaker, duration and badges (checks, flag, a suggested speaker). */
function SegmentMeta({
  segment: s,
  characters,
}: {
  segment: SegmentRecord;
  characters: readonly CharacterRecord[];
}) {
  const intl = useIntl();
  return (
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
  );
}

/**
 * One segment's row in the windowed list (placed at `top`): select it, open its editor (below
 * it), play from it; ↑/↓ move to the rows either side. The playing segment shows its current word.
 */
export function SegmentRow({
  segment: s,
  index: i,
  count,
  setSize,
  top,
  height,
  isOpen,
  selected,
  onToggle,
  onOpen,
  onFocusRow,
  onEditorHeight,
  characters,
  player,
}: {
  segment: SegmentRecord;
  index: number;
  /** How many segments are read (the last row's ↓ goes nowhere). */
  count: number;
  /** How many segments the chapter has. */
  setSize: number;
  top: number;
  height: number;
  isOpen: boolean;
  selected: boolean;
  onToggle(): void;
  onOpen(): void;
  onFocusRow(index: number): void;
  onEditorHeight(px: number): void;
  characters: readonly CharacterRecord[];
  player: ChapterPlayer;
}) {
  const intl = useIntl();
  const isPlaying = s.id === player.currentId;
  const parts = isPlaying ? splitAtWord(s.text, player.currentSpan) : null;
  return (
    <li
      data-index={i}
      className={`segment-row${isOpen ? ' open' : ''}${isPlaying ? ' playing' : ''}`}
      style={{ top, height }}
      aria-setsize={setSize}
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
          checked={selected}
          onChange={onToggle}
        />
        <button
          type="button"
          className="segment-main"
          aria-expanded={isOpen}
          onClick={onOpen}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' && i < count - 1) {
              e.preventDefault();
              onFocusRow(i + 1);
            } else if (e.key === 'ArrowUp' && i > 0) {
              e.preventDefault();
              onFocusRow(i - 1);
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
        <SegmentMeta segment={s} characters={characters} />
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
          onHeight={onEditorHeight}
        />
      )}
    </li>
  );
}
