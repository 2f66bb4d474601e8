import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { PROJECT_LIMITS } from '../../../../electron/shared/projects';
import { useStudio } from '../../stores';
import { ProjectView } from './ProjectView';
import { ProjectCard } from './ProjectCard';
import { BusyButton } from '../../components/BusyButton';
import { useFocusAfterRemoval, useFocusReturn } from '../../lib/focus-return';
import { ProjectImportControls, useProjectImports } from './ProjectImportControls';

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

/** The writer's books: new, imported, listed a page at a time. */
function ProjectList() {
  const projects = useStudio((s) => s.projects);
  const next = useStudio((s) => s.projectsNext);
  const loaded = useStudio((s) => s.projectsLoaded);
  const error = useStudio((s) => s.projectsError);
  const loadProjects = useStudio((s) => s.loadProjects);
  const id = useId();
  const intl = useIntl();
  const [newTitle, setNewTitle] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const focusHeadingAfterDelete = useFocusAfterRemoval(projects, heading);
  const newButton = useRef<HTMLButtonElement>(null);
  const newForm = useRef<HTMLFormElement>(null);
  useFocusReturn(newTitle !== null, newForm, newButton);
  const imports = useProjectImports();
  const { busy } = imports;

  useEffect(() => {
    void loadProjects();
  }, [loadProjects]);

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
          <ProjectImportControls imports={imports} />
          <span className="hint">
            <FormattedMessage
              id="projects.formats"
              defaultMessage="DOCX, EPUB, ODT, RTF, FB2, HTML, Markdown, plain text or PDF with text."
            />
          </span>
        </div>
        {newTitle !== null && <NewProjectForm formRef={newForm} title={newTitle} onTitle={setNewTitle} />}
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
        {next !== null && <MoreProjects />}
      </div>
    </section>
  );
}

/** The title of a new project, while it is typed (Escape or Cancel leaves it). */
function NewProjectForm({
  formRef,
  title,
  onTitle,
}: {
  formRef: RefObject<HTMLFormElement | null>;
  title: string;
  onTitle: (title: string | null) => void;
}) {
  const id = useId();
  const createProject = useStudio((s) => s.createProject);
  return (
    <form
      ref={formRef}
      className="row new-project"
      onSubmit={(e) => {
        e.preventDefault();
        if (!title.trim()) return;
        void createProject(title.trim());
        onTitle(null);
      }}
    >
      <label htmlFor={`${id}-new`}>
        <FormattedMessage id="projects.newTitle" defaultMessage="Title" />
      </label>
      <input
        id={`${id}-new`}
        type="text"
        value={title}
        autoFocus
        onChange={(e) => onTitle(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && onTitle(null)}
      />
      <button type="submit" className="primary" disabled={!title.trim()}>
        <FormattedMessage id="projects.create" defaultMessage="Create" />
      </button>
      <button type="button" onClick={() => onTitle(null)}>
        <FormattedMessage id="common.cancel" defaultMessage="Cancel" />
      </button>
    </form>
  );
}

/** How many of the projects are shown, and the button that reads the next page. */
function MoreProjects() {
  const projects = useStudio((s) => s.projects);
  const total = useStudio((s) => s.projectsTotal);
  const loadMoreProjects = useStudio((s) => s.loadMoreProjects);
  const [reading, setReading] = useState(false);
  return (
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
  );
}
