/** How the projects' views write figures: lengths, dates, file names. */

import type { IntlShape } from 'react-intl';
import { formatClock } from '../../lib/format';

/** "1 h 02 min" ("1 giờ 02 phút"), "12:05" (under an hour), "—" for nothing rendered. */
export function formatLength(ms: number | null, intl: IntlShape): string {
  if (ms === null || ms <= 0) return '—';
  const seconds = ms / 1000;
  if (seconds < 3600) return formatClock(seconds);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const minutes = String(m).padStart(2, '0');
  return intl.formatMessage(
    { id: 'projects.length.hours', defaultMessage: '{h} h {m} min' },
    { h, m: minutes },
  );
}

/** A date as "12 Mar 2026, 14:05" ("12 thg 3, 2026 14:05"), or "never", in the interface's language. */
export function formatDate(iso: string | null, intl: IntlShape): string {
  if (!iso) return intl.formatMessage({ id: 'projects.date.never', defaultMessage: 'never' });
  return intl.formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' });
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

/**
 * A cast member's name as shown: the narrator under the server's default name (`named` false,
 * whatever that name's words) is called the narrator in the interface's language; a name a
 * person gave, the narrator's too, is shown as typed.
 */
export function characterName(
  character: { name: string; narrator: boolean; named: boolean },
  intl: IntlShape,
): string {
  return character.narrator && !character.named
    ? intl.formatMessage({ id: 'projects.segment.narrator', defaultMessage: 'Narrator' })
    : character.name;
}
