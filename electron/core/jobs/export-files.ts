/** Where an audiobook export's files live: `<files dir>/exports/<id>.<ext>`, its report beside it. */

import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { bookExtension } from '../../shared/book-formats';
import type { BookExportResult } from '../engine';
import { writeZip } from '../platform/zip-writer';
import type { ExportRow } from '../store';

export function exportFiles(filesDir: string) {
  const dir = join(filesDir, 'exports');
  const bookPath = (row: Pick<ExportRow, 'id' | 'format'>) =>
    join(dir, `${row.id}.${bookExtension(row.format)}`);
  const reportPath = (row: Pick<ExportRow, 'id'>) => join(dir, `${row.id}.loudness.json`);
  /** Where a folder export writes its chapters' files before they are zipped. */
  const folderPath = (row: Pick<ExportRow, 'id'>) => join(dir, `${row.id}.folder`);

  /** Removes whatever a run of this export left or wrote. */
  const removeFiles = async (row: Pick<ExportRow, 'id' | 'format'>) => {
    await Promise.all([
      rm(bookPath(row), { force: true }),
      rm(reportPath(row), { force: true }),
      rm(folderPath(row), { recursive: true, force: true }),
    ]);
  };

  /** A folder export's files and its report in `<id>.zip`; the folder is removed. */
  const zipFolder = async (row: ExportRow, result: BookExportResult) => {
    await writeZip(bookPath(row), [
      ...result.files.map((f) => ({ path: f.path, name: basename(f.path) })),
      { path: result.reportPath, name: 'loudness.json' },
    ]);
    await rm(folderPath(row), { recursive: true, force: true });
  };

  return { dir, bookPath, reportPath, folderPath, removeFiles, zipFolder };
}
