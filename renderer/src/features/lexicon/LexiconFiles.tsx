import { useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { LexiconFormat } from '../../../../electron/shared/lexicon';
import type { LanguageCode } from '../../../../electron/shared/voices';
import { useLanguageName } from '../../lib/intl-text';

/** The lexicon's files: import one (JSON, CSV or PLS), export the entries shown in each format. */
export function LexiconFiles({
  language,
  onImport,
  onExport,
}: {
  /** The language chosen in the filter ('' for all): a PLS file holds one. */
  language: LanguageCode | '';
  onImport(file: File): Promise<void>;
  onExport(format: LexiconFormat): void;
}) {
  const intl = useIntl();
  const languageName = useLanguageName();
  const fileInput = useRef<HTMLInputElement>(null);
  const importFile = async (file: File | undefined) => {
    if (!file) return;
    await onImport(file);
    if (fileInput.current) fileInput.current.value = '';
  };
  return (
    <div className="row lexicon-files">
      <input
        ref={fileInput}
        type="file"
        accept=".json,.csv,.pls,.xml,application/json,text/csv,application/pls+xml"
        className="visually-hidden"
        aria-label={intl.formatMessage({
          id: 'lexicon.importFile',
          defaultMessage: 'Import a lexicon file',
        })}
        tabIndex={-1}
        onChange={(e) => void importFile(e.target.files?.[0])}
      />
      <button type="button" onClick={() => fileInput.current?.click()}>
        <FormattedMessage id="lexicon.import" defaultMessage="Import…" />
      </button>
      <span className="muted small">
        <FormattedMessage id="lexicon.export" defaultMessage="Export" />
      </span>
      {(['json', 'csv', 'pls'] as const).map((format) =>
        format === 'pls' && !language ? (
          <button
            key={format}
            type="button"
            disabled
            title={intl.formatMessage({
              id: 'lexicon.plsOneLanguage',
              defaultMessage: 'A PLS file holds one language: choose one first',
            })}
          >
            PLS
          </button>
        ) : (
          <button
            key={format}
            type="button"
            onClick={() => onExport(format)}
            aria-label={intl.formatMessage(
              {
                id: 'lexicon.exportLabel',
                defaultMessage: 'Export {format}{hasLanguage, select, true { ({language})} other {}}',
              },
              {
                format: format.toUpperCase(),
                hasLanguage: String(language !== ''),
                language: language ? languageName(language) : '',
              },
            )}
          >
            {format.toUpperCase()}
          </button>
        ),
      )}
    </div>
  );
}
