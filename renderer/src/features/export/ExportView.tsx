import { useId } from 'react';
import { FormattedMessage } from 'react-intl';
import { ExportAudiobookPanel } from './ExportAudiobookPanel';
import { ExportBookPanel } from './ExportBookPanel';
import { ExportRecordPanel } from './ExportRecordPanel';
import { RecentExportsTable } from './RecentExportsTable';
import { isFinal, useExports } from './use-exports';

/** The Export page: a book (chapters from headings) to an audiobook file, with its loudness report. */
export function ExportView() {
  const id = useId();
  const { record, error, setError, fail, busy, recent, start, cancel, remove, open } = useExports();
  const running = record !== null && !isFinal(record);

  return (
    <section aria-labelledby={`${id}-title`}>
      <div className="page-head">
        <div>
          <h1 id={`${id}-title`}>
            <FormattedMessage id="export.title" defaultMessage="Export" />
          </h1>
          <p>
            <FormattedMessage
              id="export.intro"
              defaultMessage="A book to one audiobook file with chapters, or a file per chapter. <code>#</code> and <code>##</code> headings and <code>[chapter: Title]</code> lines start chapters."
              values={{ code: (chunks) => <code>{chunks}</code> }}
            />
          </p>
        </div>
      </div>

      <div className="export-grid">
        <ExportBookPanel onError={setError} fail={fail} />
        <ExportAudiobookPanel
          busy={busy}
          running={running}
          onStart={(body) => void start(body)}
          onCancel={() => void cancel()}
        />
      </div>

      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}

      {record && <ExportRecordPanel record={record} />}

      {recent.length > 0 && (
        <RecentExportsTable recent={recent} onOpen={open} onRemove={(exportId) => void remove(exportId)} />
      )}
    </section>
  );
}
