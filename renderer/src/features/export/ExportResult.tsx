import { useId } from 'react';
import { FormattedMessage } from 'react-intl';
import type {
  ExportChapter,
  ExportFileReport,
  ExportRecord,
  MasteringPresetName,
} from '../../../../electron/shared/book-exports';
import { formatBytes, formatClock, formatCredits, formatNumber } from '../../lib/format';

/** A level for the report table: one decimal and its unit, or a dash for silence. */
function level(value: number | null | undefined, unit: string): string {
  return typeof value !== 'number' ? '—' : `${formatNumber(value, { digits: 1 })} ${unit}`;
}

/** The finished export: chapters, the loudness report of each file, downloads. */
export function ExportResult({ record }: { record: ExportRecord }) {
  return (
    <div className="export-result">
      <div className="row" style={{ marginBottom: 12 }}>
        {record.file_link && (
          <a className="button primary" href={record.file_link} download>
            <FormattedMessage
              id="export.result.download"
              defaultMessage="Download {kind}"
              values={{ kind: record.format === 'folder' ? 'zip' : record.format.toUpperCase() }}
            />
          </a>
        )}
        {record.report_link && (
          <a className="button" href={record.report_link} download>
            <FormattedMessage id="export.result.report" defaultMessage="Loudness report (JSON)" />
          </a>
        )}
        <span className="muted small">
          <FormattedMessage
            id="export.result.summary"
            defaultMessage="{duration} · {size} · {credits} credits"
            values={{
              duration: formatClock((record.duration_ms ?? 0) / 1000),
              size: formatBytes(record.file_bytes ?? 0),
              credits: formatCredits(record.cost),
            }}
          />
        </span>
      </div>
      <div className="export-tables">
        <ChapterTable chapters={record.chapters} />
        <LoudnessTable files={record.files} preset={record.preset} />
      </div>
    </div>
  );
}

/** Where each chapter of an exported book starts. */
export function ChapterTable({ chapters }: { chapters: readonly ExportChapter[] }) {
  const id = useId();
  return (
    <div>
      <h3 id={`${id}-chapters`}>
        <FormattedMessage id="export.chapters.heading" defaultMessage="Chapters" />
      </h3>
      <table className="data" aria-labelledby={`${id}-chapters`}>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">
              <FormattedMessage id="export.chapters.title" defaultMessage="Title" />
            </th>
            <th scope="col">
              <FormattedMessage id="export.chapters.start" defaultMessage="Starts at" />
            </th>
          </tr>
        </thead>
        <tbody>
          {chapters.map((chapter, i) => (
            <tr key={`${i}-${chapter.title}`}>
              <td className="num">{i + 1}</td>
              <td>{chapter.title}</td>
              <td className="num mono">{formatClock(chapter.start_ms / 1000, true)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The loudness report of each written file, and whether the preset's checks pass. */
export function LoudnessTable({
  files,
  preset,
}: {
  files: readonly ExportFileReport[];
  preset: MasteringPresetName;
}) {
  const id = useId();
  return (
    <div>
      <h3 id={`${id}-report`}>
        <FormattedMessage
          id="export.loudness.heading"
          defaultMessage="Loudness ({preset, select, none {no preset} other {{name} preset}})"
          values={{ preset, name: preset.toUpperCase() }}
        />
      </h3>
      <table className="data" aria-labelledby={`${id}-report`}>
        <thead>
          <tr>
            <th scope="col">
              <FormattedMessage id="export.loudness.file" defaultMessage="File" />
            </th>
            <th scope="col">
              <FormattedMessage id="export.loudness.integrated" defaultMessage="Integrated" />
            </th>
            <th scope="col">RMS</th>
            <th scope="col">
              <FormattedMessage id="export.loudness.peak" defaultMessage="Peak" />
            </th>
            <th scope="col">
              <FormattedMessage id="export.loudness.truePeak" defaultMessage="True peak" />
            </th>
            <th scope="col">
              <FormattedMessage id="export.loudness.checks" defaultMessage="Checks" />
            </th>
          </tr>
        </thead>
        <tbody>
          {files.map((file) => (
            <tr key={file.file}>
              <td>{file.file}</td>
              <td className="num">{level(file.integrated_lufs, 'LUFS')}</td>
              <td className="num">{level(file.rms_dbfs, 'dBFS')}</td>
              <td className="num">{level(file.peak_dbfs, 'dBFS')}</td>
              <td className="num">{level(file.true_peak_dbtp, 'dBTP')}</td>
              <td>
                {file.passes ? (
                  <span className="badge ok">
                    <FormattedMessage id="export.loudness.pass" defaultMessage="pass" />
                  </span>
                ) : (
                  <>
                    <span className="badge bad">
                      <FormattedMessage id="export.loudness.fail" defaultMessage="fail" />
                    </span>{' '}
                    <span className="small">{file.failures.join('; ')}</span>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
