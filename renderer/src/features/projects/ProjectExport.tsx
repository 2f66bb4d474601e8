import { useEffect, useId, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import {
  BOOK_FORMATS,
  FOLDER_FORMATS,
  type BookFormat,
  type FolderFormat,
} from '../../../../electron/shared/book-exports';
import type { ProjectExportRecord } from '../../../../electron/shared/projects';
import { errorMessage } from '../../lib/api-client';
import { createFollower } from '../../lib/follow';
import { formatBytes, formatClock } from '../../lib/format';
import { useProjectsApi, useStudio } from '../../stores';
import { ChapterTable, LoudnessTable } from '../export/ExportResult';
import { formatDate, saveBlob } from './project-format';
import { ProgressBar } from '../../components/ProgressBar';
import { TimeLeft } from '../../components/TimeLeft';
import { describeFailure } from '../../i18n/error-messages';
import { BusyButton } from '../../components/BusyButton';

const FORMAT_LABELS: Record<BookFormat, MessageDescriptor> = defineMessages({
  m4b: { id: 'projects.export.format.m4b', defaultMessage: 'M4B audiobook (AAC, chapters)' },
  mp3: { id: 'projects.export.format.mp3', defaultMessage: 'MP3 with chapters (ID3 CHAP)' },
  folder: { id: 'projects.export.format.folder', defaultMessage: 'One file per chapter (zip)' },
});
const STATUS_LABELS: Record<ProjectExportRecord['status'], MessageDescriptor> = defineMessages({
  rendering: { id: 'projects.export.status.rendering', defaultMessage: 'rendering changed chapters' },
  encoding: { id: 'projects.export.status.encoding', defaultMessage: 'mastering and encoding' },
  done: { id: 'projects.export.status.done', defaultMessage: 'done' },
  failed: { id: 'projects.export.status.failed', defaultMessage: 'failed' },
});
const isFinal = (r: ProjectExportRecord) => r.status === 'done' || r.status === 'failed';

/**
 * The project's export: M4B, MP3 or a zip of chapter files, with the book's title, author, cover
 * and mastering preset. Changed chapters are rendered first (their progress is the render's);
 * then the download, the chapters and the loudness report.
 */
export function ProjectExport() {
  const detail = useStudio((s) => s.project)!;
  const render = useStudio((s) => s.projectRender);
  const refreshProject = useStudio((s) => s.refreshProject);
  const refreshSession = useStudio((s) => s.refreshSession);
  const api = useProjectsApi();
  const id = useId();
  const intl = useIntl();
  const { project } = detail;
  const [format, setFormat] = useState<BookFormat>(project.format);
  const [folderFormat, setFolderFormat] = useState<FolderFormat>(project.folder_format ?? 'mp3');
  const [record, setRecord] = useState<ProjectExportRecord | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** Follows one export at a time; leaving the panel stops following. */
  const [follower] = useState(createFollower);
  useEffect(() => () => follower.stop(), [follower]);

  const fail = (e: unknown) => {
    setError(errorMessage(e));
  };

  /** Re-reads the export every second until it ends (its render's progress arrives as events). */
  const follow = (exportId: string) =>
    follower.follow({
      pollMs: 1000,
      read: () => api.exportRecord(project.id, exportId),
      show: setRecord,
      isFinal,
      done() {
        void refreshSession();
        void refreshProject();
      },
      fail,
    });

  const start = async () => {
    setError(null);
    try {
      const accepted = await api.startExport(project.id, {
        format,
        ...(format === 'folder' ? { folder_format: folderFormat } : {}),
      });
      setRecord(accepted);
      void follow(accepted.id);
    } catch (e) {
      fail(e);
    }
  };

  const download = async (r: ProjectExportRecord) => {
    setError(null);
    try {
      saveBlob(await api.exportFile(r), r.file_name);
    } catch (e) {
      fail(e);
    }
  };

  /** The book-wide subtitles written beside the export (`<title>.srt`, `<title>.vtt`). */
  const downloadSubtitles = async (r: ProjectExportRecord, name: string) => {
    setError(null);
    try {
      saveBlob(await api.exportSubtitles(r, name.endsWith('.vtt') ? 'vtt' : 'srt'), name);
    } catch (e) {
      fail(e);
    }
  };

  const running = record !== null && !isFinal(record);
  const included = detail.chapters.filter((c) => c.included);
  const changed = included.filter((c) => c.changed_since_export || c.segments_done < c.segment_count).length;
  const renderOfExport = record?.render_id && render?.id === record.render_id ? render : null;
  const reports = record?.report ?? [];

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <h2 id={`${id}-title`}>
          <FormattedMessage id="projects.export.title" defaultMessage="Export the audiobook" />
        </h2>
        <span className="small muted">
          <FormattedMessage
            id="projects.lastExport"
            defaultMessage="Last export {date}"
            values={{ date: formatDate(project.last_export_at, intl) }}
          />
        </span>
      </div>
      <div className="row export-form">
        <div className="field">
          <label htmlFor={`${id}-format`}>
            <FormattedMessage id="projects.export.format" defaultMessage="Export format" />
          </label>
          <select
            id={`${id}-format`}
            value={format}
            onChange={(e) => setFormat(e.target.value as BookFormat)}
          >
            {BOOK_FORMATS.map((f) => (
              <option key={f} value={f}>
                {intl.formatMessage(FORMAT_LABELS[f])}
              </option>
            ))}
          </select>
        </div>
        {format === 'folder' && (
          <div className="field">
            <label htmlFor={`${id}-folder`}>
              <FormattedMessage id="projects.settings.eachChapterAs" defaultMessage="Each chapter as" />
            </label>
            <select
              id={`${id}-folder`}
              value={folderFormat}
              onChange={(e) => setFolderFormat(e.target.value as FolderFormat)}
            >
              {FOLDER_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {f.toUpperCase()}
                </option>
              ))}
            </select>
          </div>
        )}
        <BusyButton
          className="primary"
          busy={running}
          unavailable={included.length === 0}
          onClick={() => void start()}
        >
          {format === 'folder' ? (
            <FormattedMessage id="projects.export.startChapters" defaultMessage="Export chapters" />
          ) : (
            <FormattedMessage
              id="projects.export.start"
              defaultMessage="Export {format}"
              values={{ format: format.toUpperCase() }}
            />
          )}
        </BusyButton>
      </div>
      <p className="hint">
        {project.preset === 'none' ? (
          <FormattedMessage
            id="projects.export.includedNoPreset"
            defaultMessage="{count, plural, one {# chapter} other {# chapters}} included, with no mastering preset."
            values={{ count: included.length }}
          />
        ) : (
          <FormattedMessage
            id="projects.export.included"
            defaultMessage="{count, plural, one {# chapter} other {# chapters}} included, mastered with the {preset} preset."
            values={{ count: included.length, preset: project.preset.toUpperCase() }}
          />
        )}{' '}
        {changed > 0 ? (
          <FormattedMessage
            id="projects.export.changed"
            defaultMessage="{count, plural, one {# chapter with new or changed segments is} other {# chapters with new or changed segments are}} rendered first."
            values={{ count: changed }}
          />
        ) : (
          <FormattedMessage id="projects.export.allRendered" defaultMessage="Every segment is rendered." />
        )}
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {record && (
        <div
          className="project-export-result"
          role="region"
          aria-label={intl.formatMessage({ id: 'projects.export.region', defaultMessage: 'Project export' })}
        >
          <div className="row">
            <span
              className={`badge ${record.status === 'done' ? 'ok' : record.status === 'failed' ? 'bad' : 'accent'}`}
              role="status"
            >
              {intl.formatMessage(STATUS_LABELS[record.status])}
            </span>
            {record.status === 'done' && (
              <span className="small muted">
                {record.file_name} · {formatClock((record.duration_ms ?? 0) / 1000)} ·{' '}
                {formatBytes(record.file_bytes ?? 0)}
              </span>
            )}
          </div>
          {running && (
            <ProgressBar
              label={intl.formatMessage({
                id: 'projects.export.progress',
                defaultMessage: 'Export progress',
              })}
              value={
                (record.status === 'encoding'
                  ? 0.85 + 0.15 * (record.progress ?? 0)
                  : (renderOfExport?.progress ?? 0) * 0.85) * 100
              }
              minWidth={3}
            />
          )}
          {running && record.status === 'encoding' && record.eta_seconds != null && (
            <p className="small muted" aria-live="polite">
              <TimeLeft seconds={record.eta_seconds} />
            </p>
          )}
          {record.status === 'failed' && (
            <p className="error" role="alert">
              <FormattedMessage
                id="projects.export.failed"
                defaultMessage="The export failed: {reason}"
                values={{
                  reason: describeFailure(
                    intl,
                    record.error_code,
                    record.error_message,
                    record.error_details,
                  ),
                }}
              />
            </p>
          )}
          {record.status === 'done' && record.download_url && (
            <>
              <div className="row">
                <a
                  className="button primary"
                  href={record.download_url}
                  download={record.file_name}
                  onClick={(e) => {
                    e.preventDefault();
                    void download(record);
                  }}
                >
                  <FormattedMessage
                    id="projects.export.download"
                    defaultMessage="Download {format}"
                    values={{ format: record.format === 'folder' ? 'zip' : record.format.toUpperCase() }}
                  />
                </a>
                {(record.subtitles ?? []).map((name) => (
                  <button key={name} type="button" onClick={() => void downloadSubtitles(record, name)}>
                    <FormattedMessage
                      id="projects.export.downloadSubtitles"
                      defaultMessage="Subtitles {format}"
                      values={{ format: name.endsWith('.vtt') ? 'WebVTT' : 'SRT' }}
                    />
                  </button>
                ))}
              </div>
              <div className="export-tables">
                <ChapterTable chapters={record.chapters} />
                {reports.length > 0 && <LoudnessTable files={reports} preset={project.preset} />}
              </div>
            </>
          )}
        </div>
      )}
    </section>
  );
}
