import { defineMessages } from 'react-intl';
import type { BookFormat } from '../../../electron/shared/book-exports';

/** What an export's format picker calls each book format (the Export view's and a project's). */
export const BOOK_FORMAT_LABELS = defineMessages<BookFormat>({
  m4b: { id: 'export.format.m4b', defaultMessage: 'M4B audiobook (AAC, chapters)' },
  mp3: { id: 'export.format.mp3', defaultMessage: 'MP3 with chapters (ID3 CHAP)' },
  folder: { id: 'export.format.folder', defaultMessage: 'One file per chapter (zip)' },
});
