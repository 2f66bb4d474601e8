import { defineMessages, FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import type { MasteringPresetName } from '../../../../electron/shared/book-formats';
import type { ProjectExportRecord } from '../../../../electron/shared/projects';
import { formatBytes, formatClock } from '../../lib/format';
import { useStudio } from '../../stores';
import { ChapterTable, LoudnessTable } from '../export/ExportResult';
import { ProgressBar } from '../../components/ProgressBar';
import { TimeLeft } from '../../components/TimeLeft';
import { describeFailure } from '../../i18n/error-messages';
import { isFinal } from './useProjectExport';

const STATUS_LABELS: Record<ProjectExportRecord['status'], MessageDescriptor> = defineMessages({
  rendering: { id: 'projects.export.status.rendering', defaultMessage: 'rendering changed chapters' },
  encoding: { id: 'projects.export.status.encoding', defaultMessage: 'mastering and encoding' },
  done: { id: 'projects.export.status.done', defaultMessage: 'done' },
  failed: { id: 'projects.export.status.failed', defaultMessage: 'failed' },
});

type Props = {
  record: ProjectExportRecord;
  /** The project's mastering preset, which the loudness report names. */
  preset: MasteringPresetName;
  onDownload: (record: ProjectExportRecord) => void;
  onDownloadSubtitles: (record: ProjectExportRecord, name: string) => void;
};

/** One export as it runs and ends: status, progress, failure, downloads, chapters and loudness. */
export function ProjectExportResult({ record, preset, onDownload, onDownloadSubtitles }: Props) {
  const intl = useIntl();
  const render = useStudio((s) => s.projectRender);
  const running = !isFinal(record);
  const renderOfExport = record.render_id && render?.id === record.render_id ? render : null;
  const reports = record.report ?? [];
  return (
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
              reason: describeFailure(intl, record.error_code, record.error_message, record.error_details),
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
                onDownload(record);
              }}
            >
              <FormattedMessage
                id="projects.export.download"
                defaultMessage="Download {format}"
                values={{ format: record.format === 'folder' ? 'zip' : record.format.toUpperCase() }}
              />
            </a>
            {(record.subtitles ?? []).map((name) => (
              <button key={name} type="button" onClick={() => onDownloadSubtitles(record, name)}>
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
            {reports.length > 0 && <LoudnessTable files={reports} preset={preset} />}
          </div>
        </>
      )}
    </div>
  );
}
