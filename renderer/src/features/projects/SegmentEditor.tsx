import { useId, useLayoutEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { RATE_MAX, RATE_MIN } from '../../../../electron/shared/options';
import type { CharacterRecord, QuoteVoice, SegmentRecord } from '../../../../electron/shared/projects';
import { ProjectVoiceSelect } from './ProjectVoiceSelect';
import { hasAudio } from '../../lib/chapter-playback';
import { findQuotes } from '../../lib/quotes';
import { useStudio } from '../../stores';
import { CHECK_LABEL } from './ChapterPlayer';
import { checkSentence } from './check-sentence';
import type { ChapterPlayer } from './useChapterPlayer';
import { characterName } from './project-format';
import { useFocusReturn } from '../../lib/focus-return';
import { TextLanguageNotice } from '../compose/TextLanguageNotice';
import { describeFailure } from '../../i18n/error-messages';
import { BusyButton } from '../../components/BusyButton';

/** "Narrator", or "Ruth (narrator)" when a person gave the narrator a name (its role, not its words). */
function narratorLabel(characters: readonly CharacterRecord[], intl: IntlShape): string {
  const narrator = characters.find((c) => c.narrator);
  if (narrator === undefined || !narrator.named)
    return intl.formatMessage({ id: 'projects.segment.narrator', defaultMessage: 'Narrator' });
  return intl.formatMessage(
    { id: 'projects.editor.namedNarrator', defaultMessage: '{name} (narrator)' },
    { name: narrator.name },
  );
}

/**
 * The open segment: its text (saved on Save: the segment becomes `changed`), who speaks it and
 * each quotation in it, the checks' findings, the writer's flag and note, play it alone,
 * regenerate it (another voice or speed if wanted), or start a new chapter at it.
 */
export function SegmentEditor({
  segment,
  index,
  characters,
  player,
  onHeight,
}: {
  segment: SegmentRecord;
  index: number;
  characters: readonly CharacterRecord[];
  player: ChapterPlayer;
  /** Reports the editor's height, so the windowed list makes room for it. */
  onHeight(px: number): void;
}) {
  const updateSegment = useStudio((s) => s.updateSegment);
  const applySuggestions = useStudio((s) => s.applySuggestions);
  const regenerateSegment = useStudio((s) => s.regenerateSegment);
  const splitChapter = useStudio((s) => s.splitChapter);
  const projectVoices = useStudio((s) => s.projectVoices);
  const id = useId();
  const intl = useIntl();
  const box = useRef<HTMLDivElement>(null);
  const [text, setText] = useState(segment.text);
  const [note, setNote] = useState(segment.flag_note ?? '');
  const speaker = characters.find((c) => c.id === segment.speaker) ?? characters.find((c) => c.narrator);
  const [voice, setVoice] = useState(speaker?.voice_code ?? '');
  const [speed, setSpeed] = useState(speaker?.speed_rate ?? 1);
  const [busy, setBusy] = useState<string | null>(null);
  const [splitTitle, setSplitTitle] = useState<string | null>(null);
  const splitForm = useRef<HTMLFormElement>(null);
  const splitButton = useRef<HTMLButtonElement>(null);
  useFocusReturn(splitTitle !== null, splitForm, splitButton);

  // The server's text wins when it changes (undo, another window), unless the writer is typing.
  const [base, setBase] = useState(segment.text);
  if (base !== segment.text) {
    setBase(segment.text);
    if (text === base) setText(segment.text);
  }
  const [noteBase, setNoteBase] = useState(segment.flag_note);
  if (noteBase !== segment.flag_note) {
    setNoteBase(segment.flag_note);
    setNote(segment.flag_note ?? '');
  }

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => onHeight(el.offsetHeight + 8));
    observer.observe(el);
    onHeight(el.offsetHeight + 8);
    return () => observer.disconnect();
  }, [onHeight]);

  const quotes = findQuotes(segment.text);
  const quoteVoice = (start: number, end: number) =>
    segment.quotes.find((q) => q.start === start && q.end === end)?.character_id ?? '';
  const setQuoteVoice = (start: number, end: number, characterId: string) => {
    const rest: QuoteVoice[] = segment.quotes.filter((q) => !(q.start === start && q.end === end));
    void updateSegment(segment.id, {
      quotes: characterId
        ? [...rest, { start, end, character_id: characterId }].sort((a, b) => a.start - b.start)
        : rest,
    });
  };
  const suggested =
    segment.suggested_speaker !== null && segment.suggested_speaker !== segment.speaker
      ? (characters.find((c) => c.id === segment.suggested_speaker)?.name ?? segment.suggested_speaker)
      : null;
  const run = async (label: string, action: () => Promise<unknown>) => {
    setBusy(label);
    try {
      await action();
    } finally {
      setBusy(null);
    }
  };

  return (
    <div
      ref={box}
      className="segment-editor"
      role="group"
      aria-label={intl.formatMessage(
        { id: 'projects.editor.label', defaultMessage: 'Edit segment {number, number}' },
        { number: index + 1 },
      )}
    >
      <div className="field">
        <label htmlFor={`${id}-text`}>
          <FormattedMessage
            id="projects.editor.text"
            defaultMessage="Text of segment {number, number}"
            values={{ number: index + 1 }}
          />
        </label>
        <textarea id={`${id}-text`} rows={3} value={text} onChange={(e) => setText(e.target.value)} />
        <TextLanguageNotice text={text} voiceCode={voice} customVoices={projectVoices} onSwitch={setVoice} />
        <div className="row">
          <BusyButton
            className="primary"
            busy={busy === 'save'}
            unavailable={text === segment.text || text.trim() === '' || busy !== null}
            onClick={() => void run('save', () => updateSegment(segment.id, { text }))}
          >
            <FormattedMessage id="projects.editor.saveText" defaultMessage="Save text" />
          </BusyButton>
          <button type="button" disabled={text === segment.text} onClick={() => setText(segment.text)}>
            <FormattedMessage id="projects.editor.revert" defaultMessage="Revert" />
          </button>
          {segment.state === 'changed' && (
            <span className="hint">
              <FormattedMessage
                id="projects.editor.changed"
                defaultMessage="Changed since rendered: render it again to hear it."
              />
            </span>
          )}
          {segment.error && (
            <span className="error small">
              {describeFailure(intl, segment.error_code, segment.error, segment.error_details)}
            </span>
          )}
        </div>
      </div>
      <div className="segment-editor-grid">
        <div className="field">
          <label htmlFor={`${id}-speaker`}>
            <FormattedMessage id="projects.segment.speaker" defaultMessage="Speaker" />
          </label>
          <select
            id={`${id}-speaker`}
            value={segment.speaker ?? ''}
            onChange={(e) => void updateSegment(segment.id, { speaker: e.target.value || null })}
          >
            <option value="">{narratorLabel(characters, intl)}</option>
            {characters
              .filter((c) => !c.narrator)
              .map((c) => (
                <option key={c.id} value={c.id}>
                  {c.confirmed
                    ? c.name
                    : intl.formatMessage(
                        { id: 'projects.editor.suggestedName', defaultMessage: '{name} (suggested)' },
                        { name: c.name },
                      )}
                </option>
              ))}
          </select>
          {suggested && (
            <p className="hint">
              <FormattedMessage
                id="projects.editor.suggests"
                defaultMessage="The text suggests {name}."
                values={{ name: suggested }}
              />{' '}
              <button type="button" className="link" onClick={() => void applySuggestions([segment.id])}>
                <FormattedMessage
                  id="projects.cast.confirm"
                  defaultMessage="Confirm {name}"
                  values={{ name: suggested }}
                />
              </button>
            </p>
          )}
        </div>
        {quotes.map((q, qi) => (
          <div className="field" key={`${q.start}-${q.end}`}>
            <label htmlFor={`${id}-quote-${qi}`}>
              <FormattedMessage
                id="projects.cast.voiceOf"
                defaultMessage="Voice of {name}"
                values={{ name: q.text.length > 40 ? `${q.text.slice(0, 38)}…` : q.text }}
              />
            </label>
            <select
              id={`${id}-quote-${qi}`}
              value={quoteVoice(q.start, q.end)}
              onChange={(e) => setQuoteVoice(q.start, q.end, e.target.value)}
            >
              <option value="">
                {speaker
                  ? intl.formatMessage(
                      { id: 'projects.editor.asSegment', defaultMessage: 'As the segment ({name})' },
                      { name: characterName(speaker, intl) },
                    )
                  : intl.formatMessage({
                      id: 'projects.editor.asSegmentNarrator',
                      defaultMessage: 'As the segment (narrator)',
                    })}
              </option>
              {characters.map((c) => (
                <option key={c.id} value={c.id}>
                  {characterName(c, intl)}
                </option>
              ))}
            </select>
          </div>
        ))}
        <div className="field">
          <label htmlFor={`${id}-note`}>
            <FormattedMessage id="projects.editor.flagNote" defaultMessage="Flag note" />
          </label>
          <div className="row">
            <input
              id={`${id}-note`}
              type="text"
              value={note}
              placeholder={intl.formatMessage({
                id: 'projects.editor.flagPlaceholder',
                defaultMessage: 'What to come back to',
              })}
              onChange={(e) => setNote(e.target.value)}
            />
            <button type="button" onClick={() => void updateSegment(segment.id, { flag_note: note.trim() })}>
              {segment.flag_note === null ? (
                <FormattedMessage id="projects.editor.flag" defaultMessage="Flag" />
              ) : (
                <FormattedMessage id="projects.editor.updateFlag" defaultMessage="Update flag" />
              )}
            </button>
            {segment.flag_note !== null && (
              <button type="button" onClick={() => void updateSegment(segment.id, { flag_note: null })}>
                <FormattedMessage id="projects.editor.unflag" defaultMessage="Unflag" />
              </button>
            )}
          </div>
        </div>
      </div>
      {segment.checks.length > 0 && (
        <ul
          className="segment-checks small"
          aria-label={intl.formatMessage({
            id: 'projects.editor.checks',
            defaultMessage: 'Automatic checks',
          })}
        >
          {segment.checks.map((c) => (
            <li key={`${c.kind}-${c.at_ms ?? ''}`}>
              <span className="badge warn">{intl.formatMessage(CHECK_LABEL[c.kind])}</span>{' '}
              {checkSentence(c, intl)}
            </li>
          ))}
        </ul>
      )}
      <div className="row segment-actions">
        <button type="button" disabled={!hasAudio(segment)} onClick={() => player.playAlone(segment.id)}>
          <FormattedMessage id="projects.editor.playAlone" defaultMessage="Play alone" />
        </button>
        <span className="regenerate">
          <ProjectVoiceSelect
            label={intl.formatMessage({
              id: 'projects.editor.regenerateVoice',
              defaultMessage: 'Voice to regenerate with',
            })}
            value={voice}
            onChange={setVoice}
          />
          <label className="small" htmlFor={`${id}-speed`}>
            <FormattedMessage id="projects.editor.speed" defaultMessage="Speed" />
          </label>
          <input
            id={`${id}-speed`}
            type="number"
            min={RATE_MIN}
            max={RATE_MAX}
            step={0.1}
            value={speed}
            onChange={(e) => setSpeed(Number(e.target.value))}
          />
          <BusyButton
            busy={busy === 'regenerate'}
            unavailable={busy !== null || segment.state === 'rendering'}
            onClick={() =>
              void run('regenerate', async () => {
                const changedVoice = voice !== speaker?.voice_code;
                const changedSpeed = speed !== speaker?.speed_rate;
                const ok = await regenerateSegment(segment.id, {
                  ...(changedVoice ? { voice_code: voice } : {}),
                  ...(changedSpeed ? { speed_rate: Math.min(RATE_MAX, Math.max(RATE_MIN, speed)) } : {}),
                });
                if (ok) player.forget(segment.id);
              })
            }
          >
            {busy === 'regenerate' ? (
              <FormattedMessage id="projects.editor.regenerating" defaultMessage="Regenerating…" />
            ) : (
              <FormattedMessage id="projects.editor.regenerate" defaultMessage="Regenerate" />
            )}
          </BusyButton>
        </span>
        {index > 0 &&
          (splitTitle === null ? (
            <button ref={splitButton} type="button" onClick={() => setSplitTitle('')}>
              <FormattedMessage id="projects.editor.newChapter" defaultMessage="New chapter here…" />
            </button>
          ) : (
            <form
              ref={splitForm}
              className="row"
              onKeyDown={(e) => {
                if (e.key === 'Escape') setSplitTitle(null);
              }}
              onSubmit={(e) => {
                e.preventDefault();
                if (splitTitle.trim()) void splitChapter(segment.chapter_id, segment.id, splitTitle.trim());
                setSplitTitle(null);
              }}
            >
              <input
                type="text"
                aria-label={intl.formatMessage({
                  id: 'projects.editor.newChapterTitle',
                  defaultMessage: 'Title of the new chapter',
                })}
                value={splitTitle}
                autoFocus
                onChange={(e) => setSplitTitle(e.target.value)}
              />
              <button type="submit" disabled={!splitTitle.trim()}>
                <FormattedMessage id="projects.editor.split" defaultMessage="Split" />
              </button>
              <button type="button" onClick={() => setSplitTitle(null)}>
                <FormattedMessage id="common.cancel" defaultMessage="Cancel" />
              </button>
            </form>
          ))}
      </div>
    </div>
  );
}
