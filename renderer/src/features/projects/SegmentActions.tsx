import { useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { RATE_MAX, RATE_MIN } from '../../../../electron/shared/options';
import type { CharacterRecord, SegmentRecord } from '../../../../electron/shared/projects';
import { BusyButton } from '../../components/BusyButton';
import { useFocusReturn } from '../../lib/focus-return';
import { useStudio } from '../../stores';
import { ProjectVoiceSelect } from './ProjectVoiceSelect';
import type { ChapterPlayer } from './useChapterPlayer';

/** Renders a segment again now, with another voice or speed if chosen (`busy`: what of the editor runs). */
export function SegmentRegenerate({
  id,
  segment,
  speaker,
  voice,
  onVoice,
  player,
  busy,
  run,
}: {
  id: string;
  segment: SegmentRecord;
  speaker: CharacterRecord | undefined;
  voice: string;
  onVoice(voice: string): void;
  player: ChapterPlayer;
  busy: string | null;
  run(label: string, action: () => Promise<unknown>): Promise<void>;
}) {
  const intl = useIntl();
  const regenerateSegment = useStudio((s) => s.regenerateSegment);
  const [speed, setSpeed] = useState(speaker?.speed_rate ?? 1);
  return (
    <span className="regenerate">
      <ProjectVoiceSelect
        label={intl.formatMessage({
          id: 'projects.editor.regenerateVoice',
          defaultMessage: 'Voice to regenerate with',
        })}
        value={voice}
        onChange={onVoice}
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
  );
}

/** Starts a new chapter at a segment: the button, then a form asking the new chapter's title. */
export function SplitChapterHere({ segment }: { segment: SegmentRecord }) {
  const intl = useIntl();
  const splitChapter = useStudio((s) => s.splitChapter);
  const [splitTitle, setSplitTitle] = useState<string | null>(null);
  const splitForm = useRef<HTMLFormElement>(null);
  const splitButton = useRef<HTMLButtonElement>(null);
  useFocusReturn(splitTitle !== null, splitForm, splitButton);
  return splitTitle === null ? (
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
  );
}
