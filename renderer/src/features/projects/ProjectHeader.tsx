import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ProjectSettings } from '../../../../electron/shared/projects';
import { useStudio } from '../../stores';
import { BookSettings } from './BookSettings';
import { ProjectCover } from './ProjectCover';
import { ProjectRecastOffer } from './ProjectRecastOffer';
import { formatLength } from './project-format';

/** A text box that saves on blur or Enter (not on every keystroke: each save is one undo step). */
function CommitInput({
  id,
  value,
  onCommit,
  placeholder,
}: {
  id: string;
  value: string;
  onCommit(value: string): void;
  placeholder?: string;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => {
    if (draft !== null && draft !== value) onCommit(draft);
    setDraft(null);
  };
  return (
    <input
      id={id}
      type="text"
      value={draft ?? value}
      placeholder={placeholder}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
        if (e.key === 'Escape') setDraft(null);
      }}
    />
  );
}

/**
 * The open project's head: cover, title and author (editable), Undo/Redo, and the book's settings
 * (language, narrator voice and prosody, model, mastering preset, format).
 */
export function ProjectHeader() {
  const detail = useStudio((s) => s.project)!;
  const update = useStudio((s) => s.updateProject);
  const closeProject = useStudio((s) => s.closeProject);
  const undo = useStudio((s) => s.undo);
  const redo = useStudio((s) => s.redo);
  const id = useId();
  const intl = useIntl();
  const { project } = detail;
  const save = (settings: ProjectSettings) => void update(settings);

  return (
    <div className="panel project-head">
      <div className="project-head-main">
        <ProjectCover
          projectId={project.id}
          title={project.title}
          hasCover={project.has_cover}
          version={project.updated_at}
          size={64}
        />
        <div className="project-head-fields">
          <div className="row">
            <button type="button" className="link small" onClick={closeProject}>
              <FormattedMessage id="projects.head.allProjects" defaultMessage="← All projects" />
            </button>
          </div>
          <div className="project-title-row">
            <label className="visually-hidden" htmlFor={`${id}-title`}>
              <FormattedMessage id="projects.head.bookTitle" defaultMessage="Book title" />
            </label>
            <CommitInput
              id={`${id}-title`}
              value={project.title}
              onCommit={(title) => title.trim() && save({ title: title.trim() })}
            />
            <label className="visually-hidden" htmlFor={`${id}-author`}>
              <FormattedMessage id="projects.head.author" defaultMessage="Author" />
            </label>
            <CommitInput
              id={`${id}-author`}
              value={project.author ?? ''}
              placeholder={intl.formatMessage({ id: 'projects.head.author', defaultMessage: 'Author' })}
              onCommit={(author) => save({ author: author.trim() || null })}
            />
          </div>
          <p className="small muted">
            <FormattedMessage
              id="projects.head.facts"
              defaultMessage="{chapters, plural, one {# chapter} other {# chapters}} · {done, number} / {total, number} segments rendered · {length}"
              values={{
                chapters: project.chapter_count,
                done: project.segments_done,
                total: project.segment_count,
                length: formatLength(project.duration_ms, intl),
              }}
            />
            {project.source_name && (
              <>
                {' '}
                <FormattedMessage
                  id="projects.head.source"
                  defaultMessage="· from {file}"
                  values={{ file: project.source_name }}
                />
              </>
            )}
          </p>
        </div>
        <div
          className="row project-undo"
          role="group"
          aria-label={intl.formatMessage({ id: 'projects.head.history', defaultMessage: 'History' })}
        >
          <button
            type="button"
            onClick={() => void undo()}
            disabled={!project.can_undo}
            // eslint-disable-next-line messages/no-words-in-jsx -- key names, the same in every language
            title="Ctrl+Z / ⌘Z"
          >
            <FormattedMessage id="projects.head.undo" defaultMessage="Undo" />
          </button>
          <button
            type="button"
            onClick={() => void redo()}
            disabled={!project.can_redo}
            // eslint-disable-next-line messages/no-words-in-jsx -- key names, the same in every language
            title="Ctrl+Shift+Z / ⌘⇧Z"
          >
            <FormattedMessage id="projects.head.redo" defaultMessage="Redo" />
          </button>
        </div>
      </div>
      <BookSettings />
      <ProjectRecastOffer />
    </div>
  );
}
