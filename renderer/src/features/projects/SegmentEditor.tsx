import { useId, useLayoutEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { CharacterRecord, SegmentRecord } from '../../../../electron/shared/projects';
import { hasAudio } from '../../lib/chapter-playback';
import { useStudio } from '../../stores';
import type { ChapterPlayer } from './useChapterPlayer';
import { TextLanguageNotice } from '../compose/TextLanguageNotice';
import { describeFailure } from '../../i18n/error-messages';
import { BusyButton } from '../../components/BusyButton';
import { SegmentRegenerate, SplitChapterHere } from './SegmentActions';
import { QuoteVoiceFields, SegmentSpeakerField } from './SegmentCastFields';
import { SegmentChecks, SegmentFlagField } from './SegmentFindings';

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
  const projectVoices = useStudio((s) => s.projectVoices);
  const id = useId();
  const intl = useIntl();
  const box = useRef<HTMLDivElement>(null);
  const [text, setText] = useState(segment.text);
  const speaker = characters.find((c) => c.id === segment.speaker) ?? characters.find((c) => c.narrator);
  const [voice, setVoice] = useState(speaker?.voice_code ?? '');
  const [busy, setBusy] = useState<string | null>(null);

  // The server's text wins when it changes (undo, another window), unless the writer is typing.
  const [base, setBase] = useState(segment.text);
  if (base !== segment.text) {
    setBase(segment.text);
    if (text === base) setText(segment.text);
  }

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => onHeight(el.offsetHeight + 8));
    observer.observe(el);
    onHeight(el.offsetHeight + 8);
    return () => observer.disconnect();
  }, [onHeight]);

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
        <SegmentSpeakerField id={id} segment={segment} characters={characters} />
        <QuoteVoiceFields id={id} segment={segment} characters={characters} speaker={speaker} />
        <SegmentFlagField id={id} segment={segment} />
      </div>
      <SegmentChecks segment={segment} />
      <div className="row segment-actions">
        <button type="button" disabled={!hasAudio(segment)} onClick={() => player.playAlone(segment.id)}>
          <FormattedMessage id="projects.editor.playAlone" defaultMessage="Play alone" />
        </button>
        <SegmentRegenerate
          id={id}
          segment={segment}
          speaker={speaker}
          voice={voice}
          onVoice={setVoice}
          player={player}
          busy={busy}
          run={run}
        />
        {index > 0 && <SplitChapterHere segment={segment} />}
      </div>
    </div>
  );
}
