import { useCallback, useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import type { Lexicon, LexiconEntry, LexiconFormat } from '../../../../electron/shared/lexicon';
import { LEXICON_FILE_TYPES } from '../../../../electron/shared/lexicon-files';
import type { LanguageCode } from '../../../../electron/shared/voices';
import { errorMessage } from '../../lib/api-client';
import { useClient } from '../../stores';

/** The format of a lexicon file by its name (.csv, .pls/.xml, else JSON). */
function formatOf(name: string): LexiconFormat {
  if (/\.csv$/i.test(name)) return 'csv';
  if (/\.(pls|xml)$/i.test(name)) return 'pls';
  return 'json';
}

/** The entries of `language` ('' for all) whose word, replacement or note holds `query`. */
export function entriesMatching(items: readonly LexiconEntry[], query: string, language: LanguageCode | '') {
  const q = query.trim().toLowerCase();
  return items.filter(
    (e) =>
      (language === '' || e.language === language) &&
      (q === '' || `${e.match}\n${e.replacement}\n${e.note ?? ''}`.toLowerCase().includes(q)),
  );
}

/**
 * The Lexicon view's data: the lexicon as last read (read once the view shows), the last error
 * and notice, and its files (import, export).
 */
export function useLexicon() {
  const client = useClient();
  const intl = useIntl();
  const [lexicon, setLexicon] = useState<Lexicon | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setLexicon(await client.lexicon());
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [client]);

  useEffect(() => {
    const first = setTimeout(() => void load(), 0);
    return () => clearTimeout(first);
  }, [load]);

  /**
   * Saves the lexicon as a file. Fetched by the client (with the session's header) and handed
   * to the browser as a blob, so no address carrying the session lands in the downloads list.
   */
  const exportFile = async (format: LexiconFormat, language: LanguageCode | '') => {
    try {
      const blob = await client.lexiconExport({ format, ...(language ? { language } : {}) });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `lexicon${language ? `-${language}` : ''}.${LEXICON_FILE_TYPES[format].extension}`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const importFile = async (file: File) => {
    setError(null);
    setNotice(null);
    try {
      const r = await client.importLexicon({ format: formatOf(file.name), text: await file.text() });
      setNotice(
        intl.formatMessage(
          {
            id: 'lexicon.imported',
            defaultMessage:
              'Imported {file}: {added, number} added, {updated, number} updated, {unchanged, number} unchanged.',
          },
          { file: file.name, added: r.added, updated: r.updated, unchanged: r.unchanged },
        ),
      );
      await load();
    } catch (e) {
      setError(`${file.name}: ${errorMessage(e)}`);
    }
  };

  return { lexicon, load, error, setError, notice, setNotice, exportFile, importFile };
}
