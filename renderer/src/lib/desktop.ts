/**
 * The desktop shell's bridge (electron/shared/desktop-api.ts) when the studio runs in the
 * Electron window; undefined in a browser, where plain downloads do the same job.
 */

import {
  DESKTOP_API_GLOBAL,
  type DesktopApi,
  type SaveFileResult,
  type SaveKind,
} from '../../../electron/shared/desktop-api';
import { DownloadError } from '../i18n/error-messages';

export function getDesktop(): DesktopApi | undefined {
  return (window as unknown as Record<string, DesktopApi | undefined>)[DESKTOP_API_GLOBAL];
}

/** Fetches a same-server download and saves it with the system dialog. */
export async function saveWithDialog(
  desktop: DesktopApi,
  url: string,
  kind: SaveKind,
  suggestedName: string,
): Promise<SaveFileResult> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new DownloadError(response.status);
  const data = kind === 'srt' ? await response.text() : await response.arrayBuffer();
  return desktop.saveFile({ kind, suggestedName, data });
}
