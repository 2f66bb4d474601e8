/** How the projects' views write figures: lengths, dates, file names. */

import { formatClock, formatDate as formatLocalDate } from '../../lib/format';

/** "1 h 02 min", "12:05" (under an hour), "—" for nothing rendered. */
export function formatLength(ms: number | null): string {
  if (ms === null || ms <= 0) return '—';
  const seconds = ms / 1000;
  if (seconds < 3600) return formatClock(seconds);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${h} h ${String(m).padStart(2, '0')} min`;
}

/** A date as "12 Mar 2026, 14:05", or "never". */
export function formatDate(iso: string | null): string {
  return formatLocalDate(iso, { none: 'never' });
}

/** A file download from a Blob (an archive). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A title as a file name (what the archive is saved as). */
export function fileNameOf(title: string): string {
  return title.replace(/[\\/:*?"<>|]+/g, ' ').trim() || 'Project';
}
