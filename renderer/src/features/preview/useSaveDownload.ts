import { useState, type MouseEvent } from 'react';
import { defineMessages } from 'react-intl';
import { errorMessage } from '../../lib/api-client';
import { getDesktop, saveWithDialog } from '../../lib/desktop';
import type { ShownText } from '../../lib/intl-text';

const messages = defineMessages({
  savedTo: { id: 'preview.download.savedTo', defaultMessage: 'Saved to {path}' },
});

/**
 * The result's download links: in the desktop app a save dialog (and where it saved, or why it
 * could not); in a browser the link's own download.
 */
export function useSaveDownload() {
  const [saveMessage, setSaveMessage] = useState<ShownText | null>(null);
  const onDownload = (kind: 'audio' | 'srt', url: string, name: string) => (e: MouseEvent) => {
    const desktop = getDesktop();
    if (!desktop) return;
    e.preventDefault();
    saveWithDialog(desktop, url, kind, name).then(
      (result) =>
        setSaveMessage(result.saved ? { message: messages.savedTo, values: { path: result.path } } : null),
      (error: unknown) => setSaveMessage(errorMessage(error)),
    );
  };
  return { saveMessage, onDownload };
}
