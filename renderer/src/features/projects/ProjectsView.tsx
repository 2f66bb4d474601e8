import { useEffect, useId, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { NotesMode } from '../../../../electron/shared/manuscript';
import { PROJECT_LIMITS } from '../../../../electron/shared/projects';
import { useStudio } from '../../stores';
import { ProjectView } from './ProjectView';
import { ProjectCard } from './ProjectCard';
import { BusyButton } from '../../components/BusyButton';
import { useFocusAfterRemoval, useFocusReturn } from '../../lib/focus-return';

/** The manuscript formats the importers read (the server tells the format by its bytes). */
const MANUSCRIPT_ACCEPT = '.docx,.epub,.odt,.rtf,.fb2,.zip,.html,.htm,.xhtml,.md,.markdown,.txt,.pdf';

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
