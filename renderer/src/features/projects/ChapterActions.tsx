import { useId, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ProjectDetail } from '../../../../electron/shared/projects';
import { BusyButton } from '../../components/BusyButton';
import { useFocusReturn } from '../../lib/focus-return';
import { useStudio } from '../../stores';

type Chapter = ProjectDetail['chapters'][number];

/**
 * What can be done to the open chapter: rename it, move it up or down, merge it with the next,
 * set its kind, see what changed since the last export, and edit its heading read aloud.
 */
export function ChapterActions({
  chapter: open,
  at,
  count,
  exported,
  speaksHeadings,
  onMove: move,
  onShowChanges,
}: {
  chapter: Chapter;
  /** Its place in the book (0-based). */
  at: number;
  /** How many chapters the book has. */
  count: number;
  exported: boolean;
  speaksHeadings: boolean;
  onMove(index: number): void;
  onShowChanges(): void;
}) {
  const updateChapter = useStudio((s) => s.updateChapter);
  const mergeWithNext = useStudio((s) => s.mergeWithNext);
  const intl = useIntl();
  const [renaming, setRenaming] = useState<string | null>(null);
  const renameForm = useRef<HTMLFormElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  useFocusReturn(renaming !== null, renameForm, renameButton);
  return (
    <div
      className="chapter-actions"
      role="group"
      aria-label={intl.formatMessage(
        { id: 'projects.chapters.actions', defaultMessage: 'Actions for {title}' },
        { title: open.title },
      )}
    >
      {renaming !== null ? (
        <form
          ref={renameForm}
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (renaming.trim()) void updateChapter(open.id, { title: renaming.trim() });
            setRenaming(null);
          }}
        >
          <input
            type="text"
            aria-label={intl.formatMessage(
              { id: 'projects.card.newTitle', defaultMessage: 'New title for {title}' },
              { title: open.title },
            )}
            value={renaming}
            autoFocus
            onChange={(e) => setRenaming(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && setRenaming(null)}
          />
          <button type="submit" className="primary">
            <FormattedMessage id="common.save" defaultMessage="Save" />
          </button>
        </form>
      ) : (
        <div className="row">
          <button ref={renameButton} type="button" onClick={() => setRenaming(open.title)}>
            <FormattedMessage id="projects.card.rename" defaultMessage="Rename" />
          </button>
          {/* Unavailable at the ends, not disabled: a chapter moved to the top keeps the focus. */}
          <BusyButton
            aria-label={intl.formatMessage({
              id: 'projects.chapters.moveUp',
              defaultMessage: 'Move chapter up',
            })}
            unavailable={at <= 0}
            onClick={() => move(at - 1)}
          >
            ↑
          </BusyButton>
          <BusyButton
            aria-label={intl.formatMessage({
              id: 'projects.chapters.moveDown',
              defaultMessage: 'Move chapter down',
            })}
            unavailable={at >= count - 1}
            onClick={() => move(at + 1)}
          >
            ↓
          </BusyButton>
          <BusyButton unavailable={at >= count - 1} onClick={() => void mergeWithNext(open.id)}>
            <FormattedMessage id="projects.chapters.mergeNext" defaultMessage="Merge with next" />
          </BusyButton>
          <select
            aria-label={intl.formatMessage({
              id: 'projects.chapters.kind',
              defaultMessage: 'Kind of chapter',
            })}
            value={open.kind}
            onChange={(e) => void updateChapter(open.id, { kind: e.target.value as Chapter['kind'] })}
          >
            <option value="body">
              {intl.formatMessage({ id: 'projects.chapters.kind.body', defaultMessage: 'Body' })}
            </option>
            <option value="front">
              {intl.formatMessage({ id: 'projects.chapters.kind.front', defaultMessage: 'Front matter' })}
            </option>
            <option value="back">
              {intl.formatMessage({ id: 'projects.chapters.kind.back', defaultMessage: 'Back matter' })}
            </option>
          </select>
          {exported && open.changed_since_export && (
            <button type="button" onClick={onShowChanges}>
              <FormattedMessage id="projects.chapters.whatChanged" defaultMessage="What changed?" />
            </button>
          )}
        </div>
      )}
      {speaksHeadings && (
        <SpokenHeadingField
          key={`${open.id}-${open.spoken_heading}`}
          chapter={open}
          onSave={(spoken) => void updateChapter(open.id, { spoken_heading: spoken })}
        />
      )}
    </div>
  );
}

/**
 * The heading read aloud at a chapter's start ("Chương một" for "CHƯƠNG 1"): made from the title
 * unless edited; emptied, it is made again.
 */
function SpokenHeadingField({
  chapter,
  onSave,
}: {
  chapter: Chapter;
  onSave: (spoken: string | null) => void;
}) {
  const id = useId();
  const [value, setValue] = useState(chapter.spoken_heading);
  return (
    <form
      className="row spoken-heading"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(value.trim() || null);
      }}
    >
      <label htmlFor={`${id}-spoken`}>
        <FormattedMessage id="projects.chapters.spokenHeading" defaultMessage="Heading read aloud" />
      </label>
      <input
        id={`${id}-spoken`}
        type="text"
        maxLength={1000}
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
      <button type="submit" disabled={value === chapter.spoken_heading}>
        <FormattedMessage id="common.save" defaultMessage="Save" />
      </button>
      {chapter.spoken_heading_edited && (
        <button type="button" onClick={() => onSave(null)}>
          <FormattedMessage id="projects.chapters.spokenHeadingFromTitle" defaultMessage="From the title" />
        </button>
      )}
    </form>
  );
}
