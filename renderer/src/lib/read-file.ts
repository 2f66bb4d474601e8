/** Reading a file the user picked. */

import { defineMessages } from 'react-intl';
import { currentIntl } from './intl-text';

const m = defineMessages({
  unreadable: { id: 'lib.readFile.unreadable', defaultMessage: 'The picture could not be read.' },
});

/** The bytes of a picture file as base64 (without a data: prefix). */
export function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error(currentIntl().formatMessage(m.unreadable)));
    reader.readAsDataURL(file);
  });
}
