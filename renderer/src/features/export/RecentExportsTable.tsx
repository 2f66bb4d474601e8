import { useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ExportRecord } from '../../../../electron/shared/book-exports';
import { formatTime } from '../../lib/format';

/** The recent exports: book, format, status, start; Open, Download, Remove. */
export function RecentExportsTable({
  recent,
  onOpen,
  onRemove,
}: {
  recent: readonly ExportRecord[];
  onOpen(record: ExportRecord): void;
  onRemove(exportId: string): void;
}) {
  const id = useId();
  const intl = useIntl();
  return (
    <div className="panel">
      <h2 id={`${id}-recent`} style={{ marginBottom: 10 }}>
        <FormattedMessage id="export.recent.heading" defaultMessage="Recent exports" />
      </h2>
      <table className="data" aria-labelledby={`${id}-recent`}>
        <thead>
          <tr>
            <th scope="col">
              <FormattedMessage id="export.recent.book" defaultMessage="Book" />
            </th>
            <th scope="col">
              <FormattedMessage id="export.format" defaultMessage="Format" />
            </th>
            <th scope="col">
              <FormattedMessage id="export.recent.status" defaultMessage="Status" />
            </th>
            <th scope="col">
              <FormattedMessage id="export.recent.started" defaultMessage="Started" />
            </th>
            <th scope="col">
              <span className="visually-hidden">
                <FormattedMessage id="common.actions" defaultMessage="Actions" />
              </span>
            </th>
          </tr>
        </thead>
        <tbody>
          {recent.map((r) => (
            <tr key={r.export_id}>
              <td>
                {r.title ?? (
                  <span className="muted">
                    <FormattedMessage id="export.recent.untitled" defaultMessage="Untitled" />
                  </span>
                )}
              </td>
              <td>
                <FormattedMessage
                  id="export.recent.format"
                  defaultMessage="{format, select, folder {zip of {folderFormat}} other {{format}}} · {preset}"
                  values={{ format: r.format, folderFormat: r.folder_format ?? 'mp3', preset: r.preset }}
                />
              </td>
              <td>
                {r.status === 'FAILURE' ? (
                  (r.error_code ?? 'FAILURE')
                ) : (
                  <FormattedMessage
                    id="export.recent.statusValue"
                    defaultMessage="{status, select, new {new} processing {processing} SUCCESS {SUCCESS} other {{status}}}"
                    values={{ status: r.status }}
                  />
                )}
              </td>
              <td className="small">{formatTime(r.created_at)}</td>
              <td className="actions">
                <button type="button" onClick={() => onOpen(r)}>
                  <FormattedMessage id="export.recent.open" defaultMessage="Open" />
                </button>
                {r.file_link && (
                  <a className="button" href={r.file_link} download>
                    <FormattedMessage id="export.recent.download" defaultMessage="Download" />
                  </a>
                )}
                <button
                  type="button"
                  className="danger"
                  onClick={() => onRemove(r.export_id)}
                  aria-label={intl.formatMessage(
                    { id: 'export.recent.remove', defaultMessage: 'Remove export {title}' },
                    { title: r.title ?? r.export_id },
                  )}
                >
                  <FormattedMessage id="common.remove" defaultMessage="Remove" />
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
