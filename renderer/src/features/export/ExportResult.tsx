import { useId } from 'react';
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
            Download {record.format === 'folder' ? 'zip' : record.format.toUpperCase()}
          </a>
        )}
        {record.report_link && (
          <a className="button" href={record.report_link} download>
            Loudness report (JSON)
          </a>
        )}
        <span className="muted small">
          {formatClock((record.duration_ms ?? 0) / 1000)} · {formatBytes(record.file_bytes ?? 0)} ·{' '}
          {formatCredits(record.cost)} credits
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
      <h3 id={`${id}-chapters`}>Chapters</h3>
      <table className="data" aria-labelledby={`${id}-chapters`}>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Title</th>
            <th scope="col">Starts at</th>
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
        Loudness ({preset === 'none' ? 'no preset' : `${preset.toUpperCase()} preset`})
      </h3>
      <table className="data" aria-labelledby={`${id}-report`}>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Integrated</th>
            <th scope="col">RMS</th>
            <th scope="col">Peak</th>
            <th scope="col">True peak</th>
            <th scope="col">Checks</th>
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
                  <span className="badge ok">pass</span>
                ) : (
                  <>
                    <span className="badge bad">fail</span>{' '}
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
