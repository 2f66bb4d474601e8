/**
 * What a book export can write (book-export.ts), in a module of its own so that the command
 * line can list the formats without loading the exporter and its codecs.
 */

/** One M4B (AAC in MP4) with chapters, one MP3 with ID3 chapters, or a folder with a file per chapter. */
export const BOOK_FORMATS = ['m4b', 'mp3', 'folder'] as const;
export type BookFormat = (typeof BOOK_FORMATS)[number];

/** The audio format of each chapter's file in a folder export. */
export const FOLDER_FORMATS = ['mp3', 'wav'] as const;
export type FolderFormat = (typeof FOLDER_FORMATS)[number];
