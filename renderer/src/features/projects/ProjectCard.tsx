import { useId, useRef, useState, type RefObject } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ProjectRecord } from '../../../../electron/shared/projects';
import { errorMessage } from '../../lib/api-client';
import { languageName } from '../../lib/intl-text';
import { useProjectsApi, useStudio } from '../../stores';
import { ProjectCover } from './ProjectCover';
import { fileNameOf, formatDate, formatLength, saveBlob } from './project-format';
import { ProgressBar } from '../../components/ProgressBar';
import { BusyButton } from '../../components/BusyButton';
import { useFocusReturn } from '../../lib/focus-return';

/** One project in the list: cover, title, author, progress, length, last export, and its actions. */
export function ProjectCard({
  project,
  onDeleting,
}: {
  project: ProjectRecord;
  /** Called before it is deleted: its card goes with the focused button, the list's heading takes the focus. */
  onDeleting(): void;
}) {
  const openProject = useStudio((s) => s.openProject);
  const duplicateProject = useStudio((s) => s.duplicateProject);
  const deleteProject = useStudio((s) => s.deleteProject);
  const api = useProjectsApi();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const keepButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const renameForm = useRef<HTMLFormElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  // The question takes the focus on its safe answer, Keep.
  useFocusReturn(confirming, keepButton, deleteButton);
  useFocusReturn(renaming !== null, renameForm, renameButton);
  const [archiveError, setArchiveError] = useState<string | null>(null);
  const id = useId();
  const intl = useIntl();

  const saveArchive = async () => {
    setArchiveError(null);
    try {
      saveBlob(await api.archive(project.id), `${fileNameOf(project.title)}.narration.zip`);
    } catch (e) {
      setArchiveError(errorMessage(e));
    }
  };

  return (
    <li className="project-card" aria-labelledby={`${id}-title`}>
      <ProjectCover
        projectId={project.id}
        title={project.title}
        hasCover={project.has_cover}
        version={project.updated_at}
      />
      <div className="project-card-body">
        {renaming === null ? (
          <h2 id={`${id}-title`}>
            <button type="button" className="link project-title" onClick={() => void openProject(project.id)}>
              {project.title}
            </button>
          </h2>
        ) : (
          <RenameProjectForm
            id={`${id}-title`}
            formRef={renameForm}
            project={project}
            title={renaming}
            onTitle={setRenaming}
          />
        )}
        <ProjectFacts project={project} />
        {confirming ? (
          <div
            className="row confirm"
            onKeyDown={(e) => {
              if (e.key === 'Escape' && !deleting) setConfirming(false);
            }}
            role="group"
            aria-label={intl.formatMessage(
              { id: 'projects.card.deleteQuestion', defaultMessage: 'Delete {title}?' },
              { title: project.title },
            )}
          >
            <span>
              <FormattedMessage
                id="projects.card.deleteConfirm"
                defaultMessage="Delete “{title}” and its audio? This cannot be undone."
                values={{ title: project.title }}
              />
            </span>
            <BusyButton
              className="danger"
              busy={deleting}
              onClick={() => {
                setDeleting(true);
                onDeleting();
                void deleteProject(project.id).finally(() => setDeleting(false));
              }}
            >
              <FormattedMessage id="common.delete" defaultMessage="Delete" />
            </BusyButton>
            <BusyButton ref={keepButton} unavailable={deleting} onClick={() => setConfirming(false)}>
              <FormattedMessage id="projects.card.keep" defaultMessage="Keep" />
            </BusyButton>
          </div>
        ) : (
          <div className="row">
            <button type="button" className="primary" onClick={() => void openProject(project.id)}>
              <FormattedMessage id="projects.card.open" defaultMessage="Open" />
            </button>
            <button
              ref={renameButton}
              type="button"
              onClick={() => setRenaming(project.title)}
              aria-label={intl.formatMessage(
                { id: 'projects.card.renameLabel', defaultMessage: 'Rename {title}' },
                { title: project.title },
              )}
            >
              <FormattedMessage id="projects.card.rename" defaultMessage="Rename" />
            </button>
            <button
              type="button"
              onClick={() => void duplicateProject(project.id)}
              aria-label={intl.formatMessage(
                { id: 'projects.card.duplicateLabel', defaultMessage: 'Duplicate {title}' },
                { title: project.title },
              )}
            >
              <FormattedMessage id="projects.card.duplicate" defaultMessage="Duplicate" />
            </button>
            <button
              type="button"
              onClick={() => void saveArchive()}
              aria-label={intl.formatMessage(
                { id: 'projects.card.archiveLabel', defaultMessage: 'Export archive of {title}' },
                { title: project.title },
              )}
            >
              <FormattedMessage id="projects.card.archive" defaultMessage="Archive" />
            </button>
            <button
              ref={deleteButton}
              type="button"
              className="danger"
              onClick={() => setConfirming(true)}
              aria-label={intl.formatMessage(
                { id: 'projects.card.deleteLabel', defaultMessage: 'Delete {title}' },
                { title: project.title },
              )}
            >
              <FormattedMessage id="common.delete" defaultMessage="Delete" />
            </button>
          </div>
        )}
        {archiveError && (
          <p className="error" role="alert">
            {archiveError}
          </p>
        )}
      </div>
    </li>
  );
}

/** A project's facts on its card: author, chapters, language, rendered segments, length, last export. */
function ProjectFacts({ project }: { project: ProjectRecord }) {
  const intl = useIntl();
  return (
    <>
      <p className="muted small">
        <FormattedMessage
          id="projects.card.meta"
          defaultMessage="{author} · {chapters, plural, one {# chapter} other {# chapters}} · {language}"
          values={{
            author:
              project.author ??
              intl.formatMessage({ id: 'projects.card.noAuthor', defaultMessage: 'No author' }),
            chapters: project.chapter_count,
            language: languageName(project.language, intl),
          }}
        />
      </p>
      <ProgressBar
        label={intl.formatMessage(
          { id: 'projects.card.progress', defaultMessage: 'Rendered segments of {title}' },
          { title: project.title },
        )}
        value={project.segments_done}
        max={project.segment_count}
      />
      <p className="small project-facts">
        <span>
          <FormattedMessage
            id="projects.card.segments"
            defaultMessage="{done, number} / {total, plural, one {# segment} other {# segments}}"
            values={{ done: project.segments_done, total: project.segment_count }}
          />
        </span>
        <span>
          <FormattedMessage
            id="projects.card.length"
            defaultMessage="Length {length}"
            values={{ length: formatLength(project.duration_ms, intl) }}
          />
        </span>
        <span>
          <FormattedMessage
            id="projects.lastExport"
            defaultMessage="Last export {date}"
            values={{ date: formatDate(project.last_export_at, intl) }}
          />
        </span>
      </p>
    </>
  );
}

/** A project's title being renamed on its card (`title` null: done; Escape or Cancel leave it as it was). */
function RenameProjectForm({
  id,
  formRef,
  project,
  title,
  onTitle,
}: {
  id: string;
  formRef: RefObject<HTMLFormElement | null>;
  project: ProjectRecord;
  title: string;
  onTitle(title: string | null): void;
}) {
  const renameProject = useStudio((s) => s.renameProject);
  const intl = useIntl();
  return (
    <form
      ref={formRef}
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        if (title.trim()) void renameProject(project.id, title.trim());
        onTitle(null);
      }}
    >
      <input
        id={id}
        type="text"
        aria-label={intl.formatMessage(
          { id: 'projects.card.newTitle', defaultMessage: 'New title for {title}' },
          { title: project.title },
        )}
        value={title}
        autoFocus
        onChange={(e) => onTitle(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && onTitle(null)}
      />
      <button type="submit" className="primary">
        <FormattedMessage id="common.save" defaultMessage="Save" />
      </button>
      <button type="button" onClick={() => onTitle(null)}>
        <FormattedMessage id="common.cancel" defaultMessage="Cancel" />
      </button>
    </form>
  );
}
