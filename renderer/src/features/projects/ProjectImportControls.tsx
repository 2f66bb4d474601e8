import { useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { NotesMode } from '../../../../electron/shared/manuscript';
import { useStudio } from '../../stores';
import { BusyButton } from '../../components/BusyButton';

/** The manuscript formats the importers read (the server tells the format by its bytes). */
const MANUSCRIPT_ACCEPT = '.docx,.epub,.odt,.rtf,.fb2,.zip,.html,.htm,.xhtml,.md,.markdown,.txt,.pdf';

/** A manuscript or project archive being imported: its file inputs, the notes choice, what is busy. */
export function useProjectImports() {
  const intl = useIntl();
  const importManuscript = useStudio((s) => s.importManuscript);
  const importArchive = useStudio((s) => s.importArchive);
  const manuscriptInput = useRef<HTMLInputElement>(null);
  const archiveInput = useRef<HTMLInputElement>(null);
  /** What is being imported, as shown; null when nothing is. */
  const [busy, setBusy] = useState<string | null>(null);
  const [notes, setNotes] = useState<NotesMode>('omit');

  const importFile = async (file: File | undefined, kind: 'manuscript' | 'archive') => {
    if (!file) return;
    setBusy(
      intl.formatMessage(
        { id: 'projects.importing', defaultMessage: 'Importing {file}…' },
        { file: file.name },
      ),
    );
    try {
      if (kind === 'manuscript') await importManuscript(file, file.name, notes === 'omit' ? {} : { notes });
      else await importArchive(file, file.name);
    } finally {
      setBusy(null);
      if (manuscriptInput.current) manuscriptInput.current.value = '';
      if (archiveInput.current) archiveInput.current.value = '';
    }
  };

  return { busy, notes, setNotes, manuscriptInput, archiveInput, importFile };
}

/** Import a manuscript (with its notes' choice) or a project archive. */
export function ProjectImportControls({ imports }: { imports: ReturnType<typeof useProjectImports> }) {
  const intl = useIntl();
  const { busy, notes, setNotes, manuscriptInput, archiveInput, importFile } = imports;
  return (
    <>
      <input
        ref={manuscriptInput}
        type="file"
        accept={MANUSCRIPT_ACCEPT}
        className="visually-hidden"
        tabIndex={-1}
        aria-label={intl.formatMessage({
          id: 'projects.manuscriptFile',
          defaultMessage: 'Manuscript file (DOCX, EPUB, ODT, RTF, FB2, HTML, Markdown, text or PDF)',
        })}
        onChange={(e) => void importFile(e.target.files?.[0], 'manuscript')}
      />
      <BusyButton onClick={() => manuscriptInput.current?.click()} busy={busy !== null}>
        <FormattedMessage id="projects.importManuscript" defaultMessage="Import manuscript…" />
      </BusyButton>
      <label>
        <FormattedMessage id="projects.notes" defaultMessage="Notes" />{' '}
        <select value={notes} onChange={(e) => setNotes(e.target.value as NotesMode)}>
          <option value="omit">
            {intl.formatMessage({ id: 'projects.notes.omit', defaultMessage: 'Left out' })}
          </option>
          <option value="inline">
            {intl.formatMessage({
              id: 'projects.notes.inline',
              defaultMessage: 'Read after their paragraph',
            })}
          </option>
          <option value="appendix">
            {intl.formatMessage({
              id: 'projects.notes.appendix',
              defaultMessage: 'In a last chapter "Notes"',
            })}
          </option>
        </select>
      </label>
      <input
        ref={archiveInput}
        type="file"
        accept=".zip"
        className="visually-hidden"
        tabIndex={-1}
        aria-label={intl.formatMessage({
          id: 'projects.archiveFile',
          defaultMessage: 'Project archive (.narration.zip)',
        })}
        onChange={(e) => void importFile(e.target.files?.[0], 'archive')}
      />
      <BusyButton onClick={() => archiveInput.current?.click()} busy={busy !== null}>
        <FormattedMessage id="projects.importArchive" defaultMessage="Import archive…" />
      </BusyButton>
    </>
  );
}
