import type { ReactNode } from 'react';
import { useIntl, type MessageDescriptor } from 'react-intl';
import {
  BOOK_FORMATS,
  FOLDER_FORMATS,
  type BookFormat,
  type FolderFormat,
} from '../../../electron/shared/book-exports';
import { BOOK_FORMAT_LABELS } from '../i18n/book-format-labels';
import { SelectField } from './SelectField';

/**
 * An export's format picker: the book format and, for one file per chapter, the chapters' format
 * (MP3 or WAV). The Export view's audiobook, a project's export and a project's book settings
 * each give their own labels.
 */
export function BookFormatFields({
  id,
  label,
  folderLabel,
  format,
  folderFormat,
  onFormat,
  onFolderFormat,
  formatLabels = BOOK_FORMAT_LABELS,
}: {
  /** The format select's id; the chapters' select is `${id}-folder`. */
  id: string;
  label: ReactNode;
  folderLabel: ReactNode;
  format: BookFormat;
  folderFormat: FolderFormat;
  onFormat(format: BookFormat): void;
  onFolderFormat(format: FolderFormat): void;
  /** What the options call each format; default the export pickers' names. */
  formatLabels?: Record<BookFormat, MessageDescriptor>;
}) {
  const intl = useIntl();
  return (
    <>
      <SelectField
        id={id}
        label={label}
        value={format}
        options={BOOK_FORMATS}
        optionLabel={(f) => intl.formatMessage(formatLabels[f])}
        onChange={onFormat}
      />
      {format === 'folder' && (
        <SelectField
          id={`${id}-folder`}
          label={folderLabel}
          value={folderFormat}
          options={FOLDER_FORMATS}
          optionLabel={(f) => f.toUpperCase()}
          onChange={onFolderFormat}
        />
      )}
    </>
  );
}
