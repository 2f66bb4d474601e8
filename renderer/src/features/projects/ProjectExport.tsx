import { useCallback, useEffect, useId, useRef, useState } from 'react';
import {
  BOOK_FORMATS,
  FOLDER_FORMATS,
  type BookFormat,
  type ExportRecord,
  type FolderFormat,
} from '../../../../electron/shared/book-exports';
import { errorMessage, isSignedOut } from '../../lib/api-client';
import { useClient, useProjectsApi, useStudio } from '../../stores';
import { ExportResult } from '../export/ExportResult';
import { formatDate } from './project-format';

const FORMAT_LABELS: Record<BookFormat, string> = {
  m4b: 'M4B audiobook (AAC, chapters)',
  mp3: 'MP3 with chapters (ID3 CHAP)',
  folder: 'One file per chapter (zip)',
};
const isFinal = (r: ExportRecord) => r.status === 'SUCCESS' || r.status === 'FAILURE';

/**
 * The project's export: M4B, MP3 or a folder of chapter files, with the book's title, author,
 * cover and mastering preset. Chapters with changes are rendered first; progress arrives as
 * `export` events, backed by a re-read every second; then the download and the loudness report.
 */
export function ProjectExport() {
  const detail = useStudio((s) => s.project)!;
  const refreshProject = useStudio((s) => s.refreshProject);
  const refreshSession = useStudio((s) => s.refreshSession);
  const markSignedOut = useStudio((s) => s.markSignedOut);
  const client = useClient();
  const api = useProjectsApi();
  const id = useId();
  const { project } = detail;
  const [format, setFormat] = useState<BookFormat>(project.format);
  const [folderFormat, setFolderFormat] = useState<FolderFormat>(project.folder_format ?? 'mp3');
  const [record, setRecord] = useState<ExportRecord | null>(null);
  const [error, setError] = useState<string | null>(null);
  const following = useRef(0);
  useEffect(() => {
    const stop = following;
    return () => {
      stop.current++;
    };
  }, []);

  const follow = useCallback(
    async (exportId: string) => {
      const mine = ++following.current;
      const stream = new AbortController();
      let wake: (() => void) | undefined;
      client
        .streamEvents(
          {
            onExport(event) {
              if (mine !== following.current || event.export_id !== exportId) return;
              setRecord((r) => (r && r.export_id === exportId ? { ...r, ...event } : r));
              if (event.status === 'SUCCESS' || event.status === 'FAILURE') wake?.();
            },
          },
          stream.signal,
        )
        .catch(() => undefined);
      try {
        while (mine === following.current) {
          const latest = await api.exportRecord(project.id, exportId);
          if (mine !== following.current) return;
          setRecord(latest);
          if (isFinal(latest)) {
            void refreshSession();
            void refreshProject();
            return;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, 1000);
          });
        }
      } catch (e) {
        if (mine !== following.current) return;
        if (isSignedOut(e)) markSignedOut();
        setError(errorMessage(e));
      } finally {
        stream.abort();
      }
    },
    [api, client, markSignedOut, project.id, refreshProject, refreshSession],
  );

  const start = async () => {
    setError(null);
    try {
      const accepted = await api.startExport(project.id, {
        format,
        ...(format === 'folder' ? { folder_format: folderFormat } : {}),
      });
      setRecord(accepted);
      void follow(accepted.export_id);
    } catch (e) {
      if (isSignedOut(e)) markSignedOut();
      setError(errorMessage(e));
    }
  };

  const running = record !== null && !isFinal(record);
  const changed = detail.chapters.filter((c) => c.included && c.changed_since_export).length;

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <h2 id={`${id}-title`}>Export the audiobook</h2>
        <span className="small muted">Last export {formatDate(project.last_export_at)}</span>
      </div>
      <div className="row export-form">
        <div className="field">
          <label htmlFor={`${id}-format`}>Export format</label>
          <select
            id={`${id}-format`}
            value={format}
            onChange={(e) => setFormat(e.target.value as BookFormat)}
          >
            {BOOK_FORMATS.map((f) => (
              <option key={f} value={f}>
                {FORMAT_LABELS[f]}
              </option>
            ))}
          </select>
        </div>
        {format === 'folder' && (
          <div className="field">
            <label htmlFor={`${id}-folder`}>Each chapter as</label>
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
        <button type="button" className="primary" disabled={running} onClick={() => void start()}>
          Export {format === 'folder' ? 'chapters' : format.toUpperCase()}
        </button>
      </div>
      <p className="hint">
        {detail.chapters.filter((c) => c.included).length} chapters included, mastered with the{' '}
        {project.preset === 'none' ? 'no' : project.preset.toUpperCase()} preset.{' '}
        {changed > 0 ? `${changed} changed since the last export are rendered first.` : ''}
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {record && (
        <div className="project-export-result" aria-label="Project export" role="region">
          <div className="row">
            <span
              className={`badge ${record.status === 'SUCCESS' ? 'ok' : record.status === 'FAILURE' ? 'bad' : 'accent'}`}
              role="status"
            >
              {record.status === 'new'
                ? 'queued'
                : record.status === 'processing'
                  ? 'exporting'
                  : record.status}
            </span>
            {running && <span className="small">{Math.round(record.progress * 100)}%</span>}
          </div>
          {running && (
            <div
              className="progress"
              role="progressbar"
              aria-label="Export progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(record.progress * 100)}
            >
              <div style={{ width: `${Math.max(3, record.progress * 100)}%` }} />
            </div>
          )}
          {record.status === 'FAILURE' && (
            <p className="error" role="alert">
              The export failed: {record.error_message ?? record.error_code}
            </p>
          )}
          {record.status === 'SUCCESS' && <ExportResult record={record} />}
        </div>
      )}
    </section>
  );
}
