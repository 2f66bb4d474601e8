import type { ChapterRecord } from '../../../../electron/shared/projects';
import { formatCredits, formatDuration, formatNumber } from '../../lib/format';
import { useStudio } from '../../stores';
import { ProgressBar } from '../../components/ProgressBar';

const STATUS_LABEL = {
  queued: 'queued',
  rendering: 'rendering',
  paused: 'paused',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
} as const;

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
  const running =
    render !== null &&
    (render.status === 'queued' || render.status === 'rendering' || render.status === 'paused');

  return (
    <section className="panel render-controls" aria-label="Render">
      <div className="row">
        <button
          type="button"
          className="primary"
          disabled={!chapter || running}
          onClick={() => chapter && void startRender({ chapter_ids: [chapter.id] })}
        >
          Render chapter
        </button>
        <button
          type="button"
          disabled={selected.length === 0 || running}
          onClick={() => void startRender({ segment_ids: selected })}
        >
          Render selection{selected.length > 0 ? ` (${selected.length})` : ''}
        </button>
        <button type="button" disabled={running} onClick={() => void startRender()}>
          Render whole book
        </button>
        <span className="spacer" />
        {render && running && (
          <>
            {render.status === 'paused' ? (
              <button type="button" onClick={() => void resumeRender()}>
                Resume
              </button>
            ) : (
              <button type="button" onClick={() => void pauseRender()}>
                Pause
              </button>
            )}
            <button type="button" className="danger" onClick={() => void cancelRender()}>
              Cancel render
            </button>
          </>
        )}
      </div>
      {render && (
        <div className="render-status">
          <div className="row small">
            <span
              className={`badge ${render.status === 'done' ? 'ok' : render.status === 'failed' ? 'bad' : running ? 'accent' : ''}`}
              role="status"
            >
              {STATUS_LABEL[render.status]}
            </span>
            <span>
              {formatNumber(render.segments_done)} / {formatNumber(render.segments_total)} segments
            </span>
            {running && render.eta_seconds !== null && <span>{formatDuration(render.eta_seconds)} left</span>}
            {render.cost > 0 && <span className="muted">{formatCredits(render.cost)} credits</span>}
          </div>
          {running && <ProgressBar label="Render progress" value={render.progress * 100} minWidth={2} />}
          {render.status === 'failed' && (
            <p className="error" role="alert">
              The render failed: {render.error_message ?? render.error_code}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
