import { useEffect, useId, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { NotesMode } from '../../../../electron/shared/manuscript';
import { PROJECT_LIMITS, type ProjectRecord } from '../../../../electron/shared/projects';
import { errorMessage } from '../../lib/api-client';
import { languageName } from '../../lib/intl-text';
import { useProjectsApi, useStudio } from '../../stores';
import { ProjectCover } from './ProjectCover';
import { ProjectView } from './ProjectView';
import { fileNameOf, formatDate, formatLength, saveBlob } from './project-format';
import { ProgressBar } from '../../components/ProgressBar';
import { BusyButton } from '../../components/BusyButton';
import { useFocusAfterRemoval, useFocusReturn } from '../../lib/focus-return';

/** The manuscript formats the importers read (the server tells the format by its bytes). */
const MANUSCRIPT_ACCEPT = '.docx,.epub,.odt,.rtf,.fb2,.zip,.html,.htm,.xhtml,.md,.markdown,.txt,.pdf';

/** One project in the list: cover, title, author, progress, length, last export, and its actions. */
function ProjectCard({
  project,
  onDeleting,
}: {
  project: ProjectRecord;
  /** Called before it is deleted: its card goes with the focused button, the list's heading takes the focus. */
  onDeleting(): void;
}) {
  const openProject = useStudio((s) => s.openProject);
  const renameProject = useStudio((s) => s.renameProject);
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
          <form
            ref={renameForm}
            className="row"
            onSubmit={(e) => {
              e.preventDefault();
              if (renaming.trim()) void renameProject(project.id, renaming.trim());
              setRenaming(null);
            }}
          >
            <input
              id={`${id}-title`}
              type="text"
              aria-label={intl.formatMessage(
                { id: 'projects.card.newTitle', defaultMessage: 'New title for {title}' },
                { title: project.title },
              )}
              value={renaming}
              autoFocus
              onChange={(e) => setRenaming(e.target.value)}
              onKeyDown={(e) => e.key === 'Escape' && setRenaming(null)}
            />
            <button type="submit" className="primary">
              <FormattedMessage id="common.save" defaultMessage="Save" />
            </button>
            <button type="button" onClick={() => setRenaming(null)}>
              <FormattedMessage id="common.cancel" defaultMessage="Cancel" />
            </button>
          </form>
        )}
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

/** The Projects view: the writer's books, or the open one. */
export function ProjectsView() {
  const project = useStudio((s) => s.project);
  const openProjectId = useStudio((s) => s.openProjectId);
  if (project) return <ProjectView />;
  return openProjectId ? <ProjectOpening id={openProjectId} /> : <ProjectList />;
}

/** A project named by the address while it loads, or why it cannot be opened (not a blank page). */
function ProjectOpening({ id }: { id: string }) {
  const error = useStudio((s) => s.projectsError);
  const closeProject = useStudio((s) => s.closeProject);
  return (
    <section aria-labelledby="project-opening-title">
      <div className="page-head">
        <div>
          <h1 id="project-opening-title">
            <FormattedMessage id="projects.title" defaultMessage="Projects" />
          </h1>
        </div>
      </div>
      <div className="panel">
        {error ? (
          <div role="alert">
            <p className="error">
              <FormattedMessage
                id="projects.opening.failed"
                defaultMessage="The project <code>{id}</code> cannot be opened: {error}"
                values={{ id, error, code: (chunks) => <code>{chunks}</code> }}
              />
            </p>
            <p className="muted">
              <FormattedMessage
                id="projects.opening.hint"
                defaultMessage="It may have been deleted, or the address may be mistyped."
              />
            </p>
          </div>
        ) : (
          <p className="muted" role="status">
            <FormattedMessage id="projects.opening.loading" defaultMessage="Opening the project…" />
          </p>
        )}
        <button type="button" onClick={closeProject}>
          <FormattedMessage id="projects.opening.showAll" defaultMessage="Show all projects" />
        </button>
      </div>
    </section>
  );
}

function ProjectList() {
  const projects = useStudio((s) => s.projects);
  const loaded = useStudio((s) => s.projectsLoaded);
  const error = useStudio((s) => s.projectsError);
  const loadProjects = useStudio((s) => s.loadProjects);
  const loadMoreProjects = useStudio((s) => s.loadMoreProjects);
  const next = useStudio((s) => s.projectsNext);
  const total = useStudio((s) => s.projectsTotal);
  const [reading, setReading] = useState(false);
  const createProject = useStudio((s) => s.createProject);
  const importManuscript = useStudio((s) => s.importManuscript);
  const importArchive = useStudio((s) => s.importArchive);
  const id = useId();
  const intl = useIntl();
  const manuscriptInput = useRef<HTMLInputElement>(null);
  const archiveInput = useRef<HTMLInputElement>(null);
  const [newTitle, setNewTitle] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const focusHeadingAfterDelete = useFocusAfterRemoval(projects, heading);
  const newButton = useRef<HTMLButtonElement>(null);
  const newForm = useRef<HTMLFormElement>(null);
  useFocusReturn(newTitle !== null, newForm, newButton);
  const [busy, setBusy] = useState<string | null>(null);
  const [notes, setNotes] = useState<NotesMode>('omit');

  useEffect(() => {
    void loadProjects();
  }, [loadProjects]);

  const importFile = async (file: File | undefined, kind: 'manuscript' | 'archive') => {
    if (!file) return;
    setBusy(
      intl.formatMessage(
        { id: 'projects.importing', defaultMessage: 'Importing {file}…' },
        { file: file.name },
      ),
    );
    try {
      if (kind === 'manuscript') await importManuscript(file, file.name, notes === 'omit' ? {} : { notes });
      else await importArchive(file, file.name);
    } finally {
      setBusy(null);
      if (manuscriptInput.current) manuscriptInput.current.value = '';
      if (archiveInput.current) archiveInput.current.value = '';
    }
  };

  return (
    <section aria-labelledby={`${id}-title`}>
      <div className="page-head">
        <div>
          <h1 id={`${id}-title`} ref={heading} tabIndex={-1}>
            <FormattedMessage id="projects.title" defaultMessage="Projects" />
          </h1>
          <p>
            <FormattedMessage
              id="projects.intro"
              defaultMessage="Your books: chapters, a cast of voices, proof-listening and export, kept across sessions."
            />
          </p>
        </div>
      </div>
      <div className="panel">
        <div className="row">
          <button ref={newButton} type="button" className="primary" onClick={() => setNewTitle('')}>
            <FormattedMessage id="projects.new" defaultMessage="New project" />
          </button>
          <input
            ref={manuscriptInput}
            type="file"
            accept={MANUSCRIPT_ACCEPT}
            className="visually-hidden"
            tabIndex={-1}
            aria-label={intl.formatMessage({
              id: 'projects.manuscriptFile',
              defaultMessage: 'Manuscript file (DOCX, EPUB, ODT, RTF, FB2, HTML, Markdown, text or PDF)',
            })}
            onChange={(e) => void importFile(e.target.files?.[0], 'manuscript')}
          />
          <BusyButton onClick={() => manuscriptInput.current?.click()} busy={busy !== null}>
            <FormattedMessage id="projects.importManuscript" defaultMessage="Import manuscript…" />
          </BusyButton>
          <label>
            <FormattedMessage id="projects.notes" defaultMessage="Notes" />{' '}
            <select value={notes} onChange={(e) => setNotes(e.target.value as NotesMode)}>
              <option value="omit">
                {intl.formatMessage({ id: 'projects.notes.omit', defaultMessage: 'Left out' })}
              </option>
              <option value="inline">
                {intl.formatMessage({
                  id: 'projects.notes.inline',
                  defaultMessage: 'Read after their paragraph',
                })}
              </option>
              <option value="appendix">
                {intl.formatMessage({
                  id: 'projects.notes.appendix',
                  defaultMessage: 'In a last chapter "Notes"',
                })}
              </option>
            </select>
          </label>
          <input
            ref={archiveInput}
            type="file"
            accept=".zip"
            className="visually-hidden"
            tabIndex={-1}
            aria-label={intl.formatMessage({
              id: 'projects.archiveFile',
              defaultMessage: 'Project archive (.narration.zip)',
            })}
            onChange={(e) => void importFile(e.target.files?.[0], 'archive')}
          />
          <BusyButton onClick={() => archiveInput.current?.click()} busy={busy !== null}>
            <FormattedMessage id="projects.importArchive" defaultMessage="Import archive…" />
          </BusyButton>
          <span className="hint">
            <FormattedMessage
              id="projects.formats"
              defaultMessage="DOCX, EPUB, ODT, RTF, FB2, HTML, Markdown, plain text or PDF with text."
            />
          </span>
        </div>
        {newTitle !== null && (
          <form
            ref={newForm}
            className="row new-project"
            onSubmit={(e) => {
              e.preventDefault();
              if (!newTitle.trim()) return;
              void createProject(newTitle.trim());
              setNewTitle(null);
            }}
          >
            <label htmlFor={`${id}-new`}>
              <FormattedMessage id="projects.newTitle" defaultMessage="Title" />
            </label>
            <input
              id={`${id}-new`}
              type="text"
              value={newTitle}
              autoFocus
              onChange={(e) => setNewTitle(e.target.value)}
              onKeyDown={(e) => e.key === 'Escape' && setNewTitle(null)}
            />
            <button type="submit" className="primary" disabled={!newTitle.trim()}>
              <FormattedMessage id="projects.create" defaultMessage="Create" />
            </button>
            <button type="button" onClick={() => setNewTitle(null)}>
              <FormattedMessage id="common.cancel" defaultMessage="Cancel" />
            </button>
          </form>
        )}
        {busy && (
          <p className="hint" role="status">
            {busy}
          </p>
        )}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </div>
      <div className="panel">
        {loaded && projects.length === 0 ? (
          <p className="muted">
            <FormattedMessage
              id="projects.empty"
              defaultMessage="No projects yet. Import a manuscript or start a new project."
            />
          </p>
        ) : (
          <ul
            className="project-list"
            aria-label={intl.formatMessage({ id: 'projects.title', defaultMessage: 'Projects' })}
          >
            {projects.map((p) => (
              <ProjectCard key={p.id} project={p} onDeleting={focusHeadingAfterDelete} />
            ))}
          </ul>
        )}
        {next !== null && (
          <p className="segment-more small muted">
            <FormattedMessage
              id="projects.list.shown"
              defaultMessage="{shown, number} of {total, plural, one {# project} other {# projects}} shown"
              values={{ shown: projects.length, total }}
            />{' '}
            <BusyButton
              busy={reading}
              onClick={() => {
                setReading(true);
                void loadMoreProjects().finally(() => setReading(false));
              }}
            >
              {reading ? (
                <FormattedMessage id="projects.list.reading" defaultMessage="Reading…" />
              ) : (
                <FormattedMessage
                  id="projects.list.more"
                  defaultMessage="Show {count, number} more"
                  values={{
                    count: Math.min(Math.max(total - projects.length, 1), PROJECT_LIMITS.listPageDefault),
                  }}
                />
              )}
            </BusyButton>
          </p>
        )}
      </div>
    </section>
  );
}
