import { useEffect, useState } from 'react';
import type { BookFormat, FolderFormat } from '../../../../electron/shared/book-exports';
import type { ProjectDetail, ProjectExportRecord } from '../../../../electron/shared/projects';
import { errorMessage } from '../../lib/api-client';
import { createFollower } from '../../lib/follow';
import { useProjectsApi, useStudio } from '../../stores';
import { saveBlob } from './project-format';

/** An export that ended (done or failed): nothing more to follow. */
export const isFinal = (r: ProjectExportRecord) => r.status === 'done' || r.status === 'failed';

/**
 * The Export panel's own state: the chosen format, the export it follows (re-read every second
 * until it ends), its error, and the downloads of what it wrote.
 */
export function useProjectExport(detail: ProjectDetail) {
  const refreshProject = useStudio((s) => s.refreshProject);
  const refreshSession = useStudio((s) => s.refreshSession);
  const api = useProjectsApi();
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
  return {
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
  };
}
