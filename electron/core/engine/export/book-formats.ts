/**
 * What a book export can write (book-export.ts), in a module of its own so that the command
 * line can list the formats without loading the exporter and its codecs. The lists are the API's
 * (electron/shared/book-formats.ts), so the command line, the API and the studio offer the same.
 */

export {
  BOOK_FORMATS,
  FOLDER_FORMATS,
  type BookFormat,
  type FolderFormat,
} from '../../../shared/book-formats';
