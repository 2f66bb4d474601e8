import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { SegmentRecord } from '../../../../electron/shared/projects';
import { useStudio } from '../../stores';
import { CHECK_LABEL } from './ChapterPlayer';
import { checkSentence } from './check-sentence';

/** The writer's flag on a segment and its note: flag, update, unflag. */
export function SegmentFlagField({ id, segment }: { id: string; segment: SegmentRecord }) {
  const intl = useIntl();
  const updateSegment = useStudio((s) => s.updateSegment);
  const [note, setNote] = useState(segment.flag_note ?? '');
  // The server's note wins when it changes (undo, another window).
  const [noteBase, setNoteBase] = useState(segment.flag_note);
  if (noteBase !== segment.flag_note) {
    setNoteBase(segment.flag_note);
    setNote(segment.flag_note ?? '');
  }
  return (
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
  );
}

/** The automatic checks' findings on a segment's audio (nothing when there are none). */
export function SegmentChecks({ segment }: { segment: SegmentRecord }) {
  const intl = useIntl();
  return (
    <>
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
    </>
  );
}
