import { useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useStudio } from '../../stores';
import { formatDate } from './project-format';
import { BookFormatFields } from '../../components/BookFormatFields';
import { BusyButton } from '../../components/BusyButton';
import { ProjectExportResult } from './ProjectExportResult';
import { useProjectExport } from './useProjectExport';

/**
 * The project's export: M4B, MP3 or a zip of chapter files, with the book's title, author, cover
 * and mastering preset. Changed chapters are rendered first (their progress is the render's);
 * then the download, the chapters and the loudness report.
 */
export function ProjectExport() {
  const detail = useStudio((s) => s.project)!;
  const intl = useIntl();
  const id = useId();
  const { project } = detail;
  const {
    format,
    setFormat,
    folderFormat,
    setFolderFormat,
    record,
    error,
    running,
    start,
    download,
    downloadSubtitles,
  } = useProjectExport(detail);
  const included = detail.chapters.filter((c) => c.included);
  const changed = included.filter((c) => c.changed_since_export || c.segments_done < c.segment_count).length;

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
        <BookFormatFields
          id={`${id}-format`}
          label={<FormattedMessage id="projects.export.format" defaultMessage="Export format" />}
          folderLabel={
            <FormattedMessage id="projects.settings.eachChapterAs" defaultMessage="Each chapter as" />
          }
          format={format}
          folderFormat={folderFormat}
          onFormat={setFormat}
          onFolderFormat={setFolderFormat}
        />
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
        <ProjectExportResult
          record={record}
          preset={project.preset}
          onDownload={(r) => void download(r)}
          onDownloadSubtitles={(r, name) => void downloadSubtitles(r, name)}
        />
      )}
    </section>
  );
}
