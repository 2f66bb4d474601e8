import { useEffect, useId, useRef, useState } from 'react';
import { defineMessages, useIntl, type MessageDescriptor } from 'react-intl';
import { useShortcut } from '../../lib/shortcuts';
import { useStudio } from '../../stores';
import { CastPanel } from './CastPanel';
import { ChapterWorkspace } from './ChapterWorkspace';
import { ProjectExport } from './ProjectExport';
import { SpokenStructure } from './SpokenStructure';
import { ProjectHeader } from './ProjectHeader';
import { ProjectImportSummary } from './ProjectImportSummary';
import { refocus } from '../../lib/focus-return';

type Tab = 'chapters' | 'cast' | 'export';
const TAB_LABELS = defineMessages({
  chapters: { id: 'projects.tab.chapters', defaultMessage: 'Chapters' },
  cast: { id: 'projects.tab.cast', defaultMessage: 'Cast' },
  export: { id: 'projects.tab.export', defaultMessage: 'Export' },
});
const TABS: { tab: Tab; label: MessageDescriptor }[] = [
  { tab: 'chapters', label: TAB_LABELS.chapters },
  { tab: 'cast', label: TAB_LABELS.cast },
  { tab: 'export', label: TAB_LABELS.export },
];

/** The open project: its head, then chapters and segments with the player, its cast, or its export. */
export function ProjectView() {
  const title = useStudio((s) => s.project?.project.title);
  const error = useStudio((s) => s.projectError);
  const undo = useStudio((s) => s.undo);
  const redo = useStudio((s) => s.redo);
  const projectId = useStudio((s) => s.project?.project.id);
  const studioVoices = useStudio((s) => s.customVoices);
  const loadProjectVoices = useStudio((s) => s.loadProjectVoices);
  const openChapterId = useStudio((s) => s.openChapterId);
  const startRender = useStudio((s) => s.startRender);
  const renderRunning = useStudio(
    (s) =>
      s.projectRender !== null &&
      (s.projectRender.status === 'queued' ||
        s.projectRender.status === 'rendering' ||
        s.projectRender.status === 'paused'),
  );
  const [tab, setTab] = useState<Tab>('chapters');
  const id = useId();
  const intl = useIntl();
  const heading = useRef<HTMLHeadingElement>(null);

  // Opened from the list (created, imported, or its Open button, all gone with the list): the
  // project's heading takes the focus the list's button had.
  useEffect(() => {
    if (projectId) refocus(heading.current);
  }, [projectId]);

  // The voices its pickers offer: read when it opens, and again when a custom voice is made,
  // changed or deleted (the studio's list changes).
  useEffect(() => {
    if (projectId) void loadProjectVoices();
  }, [projectId, studioVoices, loadProjectVoices]);

  // Ctrl/Cmd+Z undoes the last edit of the project, Shift (or Ctrl+Y) redoes it, outside text fields.
  useShortcut('undo', () => void undo());
  useShortcut('redo', () => void redo());
  // Ctrl/Cmd+Enter renders the open chapter, from any field of the project (as "Render chapter"
  // does: not while a render runs).
  useShortcut('render', () => {
    if (openChapterId && !renderRunning) void startRender({ chapter_ids: [openChapterId] });
  });

  return (
    <section
      aria-label={intl.formatMessage(
        { id: 'projects.view.label', defaultMessage: 'Project {title}' },
        { title: title ?? '' },
      )}
      className="project-view"
    >
      <h1 className="visually-hidden" ref={heading} tabIndex={-1}>
        {title}
      </h1>
      <ProjectHeader />
      <ProjectImportSummary />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div
        className="project-tabs"
        role="tablist"
        aria-label={intl.formatMessage({ id: 'projects.view.tabs', defaultMessage: 'Project' })}
      >
        {TABS.map((t) => (
          <button
            key={t.tab}
            type="button"
            role="tab"
            id={`${id}-${t.tab}`}
            aria-selected={tab === t.tab}
            aria-controls={`${id}-${t.tab}-panel`}
            tabIndex={tab === t.tab ? 0 : -1}
            onClick={() => setTab(t.tab)}
            onKeyDown={(e) => {
              const at = TABS.findIndex((x) => x.tab === tab);
              if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
                const next = TABS[(at + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length]!;
                setTab(next.tab);
                document.getElementById(`${id}-${next.tab}`)?.focus();
              }
            }}
          >
            {intl.formatMessage(t.label)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-${tab}-panel`} aria-labelledby={`${id}-${tab}`}>
        {tab === 'chapters' && <ChapterWorkspace />}
        {tab === 'cast' && <CastPanel />}
        {tab === 'export' && (
          <>
            <SpokenStructure />
            <ProjectExport />
          </>
        )}
      </div>
    </section>
  );
}
