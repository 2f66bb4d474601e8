import { useEffect, useRef, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import type { ChapterRecord, ProjectRenderRecord } from '../../../../electron/shared/projects';
import { formatCredits, formatDuration } from '../../lib/format';
import { useStudio } from '../../stores';
import { ProgressBar } from '../../components/ProgressBar';
import { describeFailure } from '../../i18n/error-messages';
import { BusyButton } from '../../components/BusyButton';
import { refocus } from '../../lib/focus-return';

const STATUS_LABEL = defineMessages({
  queued: { id: 'projects.render.status.queued', defaultMessage: 'queued' },
  rendering: { id: 'projects.render.status.rendering', defaultMessage: 'rendering' },
  paused: { id: 'projects.render.status.paused', defaultMessage: 'paused' },
  done: { id: 'projects.render.status.done', defaultMessage: 'done' },
  failed: { id: 'projects.render.status.failed', defaultMessage: 'failed' },
  cancelled: { id: 'projects.render.status.cancelled', defaultMessage: 'cancelled' },
});

/**
 * Render the open chapter, the selected segments, or the whole book (only what changed or was
 * never rendered); the newest render's progress and time left, with pause, resume and cancel.
 */
export function RenderControls({
  chapter,
  selected,
}: {
  chapter: Pick<ChapterRecord, 'id' | 'title'> | null;
  selected: string[];
}) {
  const render = useStudio((s) => s.projectRender);
  const startRender = useStudio((s) => s.startRender);
  const pauseRender = useStudio((s) => s.pauseRender);
  const resumeRender = useStudio((s) => s.resumeRender);
  const cancelRender = useStudio((s) => s.cancelRender);
  const readChapter = useStudio((s) => s.readChapter);
  const intl = useIntl();
  /** Which button started the newest render: it shows busy, the others unavailable. */
  const [started, setStarted] = useState<'chapter' | 'selection' | 'book' | null>(null);
  const running =
    render !== null &&
    (render.status === 'queued' || render.status === 'rendering' || render.status === 'paused');
  const chapterButton = useRef<HTMLButtonElement>(null);
  const selectionButton = useRef<HTMLButtonElement>(null);
  const bookButton = useRef<HTMLButtonElement>(null);
  // Pause, Resume and Cancel go when the render ends: a focus they had goes back to the button
  // that started it.
  const wasRunning = useRef(running);
  useEffect(() => {
    const ended = wasRunning.current && !running;
    wasRunning.current = running;
    if (!ended) return;
    const button =
      started === 'chapter' ? chapterButton : started === 'selection' ? selectionButton : bookButton;
    refocus(button.current);
  }, [running, started]);

  return (
    <section
      className="panel render-controls"
      aria-label={intl.formatMessage({ id: 'projects.render.label', defaultMessage: 'Render' })}
    >
      <div className="row">
        <BusyButton
          ref={chapterButton}
          className="primary"
          busy={running && started === 'chapter'}
          unavailable={!chapter || running}
          onClick={() => {
            if (!chapter) return;
            setStarted('chapter');
            void startRender({ chapter_ids: [chapter.id] });
          }}
        >
          <FormattedMessage id="projects.render.chapter" defaultMessage="Render chapter" />
        </BusyButton>
        <BusyButton
          ref={selectionButton}
          busy={running && started === 'selection'}
          unavailable={selected.length === 0 || running}
          onClick={() => {
            setStarted('selection');
            void startRender({ segment_ids: selected });
          }}
        >
          {selected.length > 0 ? (
            <FormattedMessage
              id="projects.render.selectionCount"
              defaultMessage="Render selection ({count, number})"
              values={{ count: selected.length }}
            />
          ) : (
            <FormattedMessage id="projects.render.selection" defaultMessage="Render selection" />
          )}
        </BusyButton>
        <BusyButton
          ref={bookButton}
          busy={running && started === 'book'}
          unavailable={running}
          onClick={() => {
            setStarted('book');
            void startRender();
          }}
        >
          <FormattedMessage id="projects.render.book" defaultMessage="Render whole book" />
        </BusyButton>
        <button type="button" disabled={!chapter} onClick={() => chapter && void readChapter(chapter.id)}>
          <FormattedMessage id="projects.reading.chapter" defaultMessage="How it will be read" />
        </button>
        <span className="spacer" />
        {render && running && (
          <>
            {render.status === 'paused' ? (
              <button type="button" onClick={() => void resumeRender()}>
                <FormattedMessage id="projects.render.resume" defaultMessage="Resume" />
              </button>
            ) : (
              <button type="button" onClick={() => void pauseRender()}>
                <FormattedMessage id="projects.render.pause" defaultMessage="Pause" />
              </button>
            )}
            <button type="button" className="danger" onClick={() => void cancelRender()}>
              <FormattedMessage id="projects.render.cancel" defaultMessage="Cancel render" />
            </button>
          </>
        )}
      </div>
      {render && <RenderStatus render={render} running={running} />}
    </section>
  );
}

/** The newest render's state: its status, segments done, time left, cost, progress and failure. */
function RenderStatus({ render, running }: { render: ProjectRenderRecord; running: boolean }) {
  const intl = useIntl();
  return (
    <div className="render-status">
      <div className="row small">
        <span
          className={`badge ${render.status === 'done' ? 'ok' : render.status === 'failed' ? 'bad' : running ? 'accent' : ''}`}
          role="status"
        >
          {intl.formatMessage(STATUS_LABEL[render.status])}
        </span>
        <span>
          <FormattedMessage
            id="projects.render.segments"
            defaultMessage="{done, number} / {total, number} segments"
            values={{ done: render.segments_done, total: render.segments_total }}
          />
        </span>
        {running && render.eta_seconds !== null && (
          <span>
            <FormattedMessage
              id="projects.render.left"
              defaultMessage="{time} left"
              values={{ time: formatDuration(render.eta_seconds) }}
            />
          </span>
        )}
        {render.cost > 0 && (
          <span className="muted">
            <FormattedMessage
              id="projects.render.cost"
              defaultMessage="{credits} credits"
              values={{ credits: formatCredits(render.cost) }}
            />
          </span>
        )}
      </div>
      {running && (
        <ProgressBar
          label={intl.formatMessage({
            id: 'projects.render.progress',
            defaultMessage: 'Render progress',
          })}
          value={render.progress * 100}
          minWidth={2}
        />
      )}
      {render.status === 'failed' && (
        <p className="error" role="alert">
          <FormattedMessage
            id="projects.render.failed"
            defaultMessage="The render failed: {reason}"
            values={{
              reason: describeFailure(intl, render.error_code, render.error_message, render.error_details),
            }}
          />
        </p>
      )}
    </div>
  );
}
