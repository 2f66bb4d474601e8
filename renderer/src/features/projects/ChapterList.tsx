import { useId, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import type { ProjectDetail } from '../../../../electron/shared/projects';
import { useStudio } from '../../stores';
import { ChapterChanges } from './ChapterChanges';
import { formatLength } from './project-format';
import { ChapterActions } from './ChapterActions';

type Chapter = ProjectDetail['chapters'][number];

const KIND_LABEL = defineMessages({
  front: { id: 'projects.chapters.kind.frontBadge', defaultMessage: 'front matter' },
  back: { id: 'projects.chapters.kind.backBadge', defaultMessage: 'back matter' },
});

/**
 * The book's chapters in order: open one, include or leave it out, reorder (buttons, Alt+↑/↓, or
 * drag), rename, merge with the next, see what changed since the last export, and edit the
 * heading read aloud at its start when the project speaks headings.
 */
export function ChapterList() {
  const detail = useStudio((s) => s.project)!;
  const openId = useStudio((s) => s.openChapterId);
  const render = useStudio((s) => s.projectRender);
  const openChapter = useStudio((s) => s.openChapter);
  const updateChapter = useStudio((s) => s.updateChapter);
  const moveChapter = useStudio((s) => s.moveChapter);
  const id = useId();
  const intl = useIntl();
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const [changesOf, setChangesOf] = useState<string | null>(null);
  const chapters = detail.chapters;
  // Before the first export every chapter is new: the badge says so only once there is an export.
  const exported = detail.project.last_export_at !== null;
  const speaksHeadings = detail.project.speak_headings;
  const at = chapters.findIndex((c) => c.id === openId);
  const open: Chapter | undefined = chapters[at];
  const renderProgress = new Map(
    render && (render.status === 'rendering' || render.status === 'queued' || render.status === 'paused')
      ? render.chapters.map((c) => [c.chapter_id, c.progress])
      : [],
  );

  const move = (chapterId: string, index: number) => {
    void moveChapter(chapterId, index).then(() =>
      document.getElementById(`${id}-chapter-${chapterId}`)?.focus(),
    );
  };

  return (
    <nav className="panel chapter-panel" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <h2 id={`${id}-title`}>
          <FormattedMessage id="projects.chapters.title" defaultMessage="Chapters" />
        </h2>
        <span className="small muted">
          <FormattedMessage
            id="projects.chapters.included"
            defaultMessage="{count, number} included"
            values={{ count: chapters.filter((c) => c.included).length }}
          />
        </span>
      </div>
      <ol className="chapters" aria-labelledby={`${id}-title`}>
        {chapters.map((chapter, index) => {
          const progress = renderProgress.get(chapter.id);
          return (
            <li
              key={chapter.id}
              className={`chapter-item${chapter.id === openId ? ' open' : ''}${chapter.included ? '' : ' left-out'}${
                dropAt === index && dragging !== chapter.id ? ' drop-target' : ''
              }`}
              draggable
              onDragStart={(e) => {
                setDragging(chapter.id);
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', chapter.id);
              }}
              onDragOver={(e) => {
                if (!dragging) return;
                e.preventDefault();
                setDropAt(index);
              }}
              onDragEnd={() => {
                setDragging(null);
                setDropAt(null);
              }}
              onDrop={(e) => {
                e.preventDefault();
                if (dragging) move(dragging, index);
                setDragging(null);
                setDropAt(null);
              }}
            >
              <input
                type="checkbox"
                checked={chapter.included}
                aria-label={intl.formatMessage(
                  { id: 'projects.chapters.include', defaultMessage: 'Include {title}' },
                  { title: chapter.title },
                )}
                onChange={(e) => void updateChapter(chapter.id, { included: e.target.checked })}
              />
              <button
                type="button"
                id={`${id}-chapter-${chapter.id}`}
                className="chapter-open"
                aria-current={chapter.id === openId ? 'true' : undefined}
                aria-keyshortcuts="Alt+ArrowUp Alt+ArrowDown"
                onClick={() => openChapter(chapter.id)}
                onKeyDown={(e) => {
                  if (!e.altKey) return;
                  if (e.key === 'ArrowUp' && index > 0) {
                    e.preventDefault();
                    move(chapter.id, index - 1);
                  } else if (e.key === 'ArrowDown' && index < chapters.length - 1) {
                    e.preventDefault();
                    move(chapter.id, index + 1);
                  }
                }}
              >
                <ChapterSummary chapter={chapter} index={index} exported={exported} progress={progress} />
              </button>
            </li>
          );
        })}
      </ol>
      {open && (
        <ChapterActions
          chapter={open}
          at={at}
          count={chapters.length}
          exported={exported}
          speaksHeadings={speaksHeadings}
          onMove={(index) => move(open.id, index)}
          onShowChanges={() => setChangesOf(open.id)}
        />
      )}
      {changesOf && chapters.some((c) => c.id === changesOf) && (
        <ChapterChanges
          chapter={chapters.find((c) => c.id === changesOf)!}
          projectId={detail.project.id}
          onClose={() => setChangesOf(null)}
        />
      )}
    </nav>
  );
}

/** A chapter's face in the list: number and title, segments done and length, badges, render progress. */
function ChapterSummary({
  chapter,
  index,
  exported,
  progress,
}: {
  chapter: Chapter;
  index: number;
  /** Whether the project was exported (before, no chapter is "changed since export"). */
  exported: boolean;
  /** The chapter's render progress (0-1) while a render runs. */
  progress: number | undefined;
}) {
  const intl = useIntl();
  return (
    <>
      <span className="chapter-title">
        {index + 1}. {chapter.title}
      </span>
      <span className="chapter-meta small">
        {intl.formatNumber(chapter.segments_done)}/{intl.formatNumber(chapter.segment_count)} ·{' '}
        {formatLength(chapter.duration_ms, intl)}
      </span>
      <span className="chapter-badges">
        {chapter.kind !== 'body' && (
          <span className="badge">{intl.formatMessage(KIND_LABEL[chapter.kind])}</span>
        )}
        {!chapter.included && (
          <span className="badge">
            <FormattedMessage id="projects.chapters.leftOut" defaultMessage="left out" />
          </span>
        )}
        {exported && chapter.changed_since_export && (
          <span className="badge warn">
            <FormattedMessage id="projects.chapters.changed" defaultMessage="changed since export" />
          </span>
        )}
      </span>
      {progress !== undefined && (
        <span
          className="progress thin"
          role="progressbar"
          aria-label={intl.formatMessage(
            { id: 'projects.chapters.rendering', defaultMessage: 'Rendering {title}' },
            { title: chapter.title },
          )}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(progress * 100)}
        >
          <span style={{ width: `${progress * 100}%` }} />
        </span>
      )}
    </>
  );
}
