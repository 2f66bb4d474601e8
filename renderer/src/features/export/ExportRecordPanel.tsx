import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { exportRenderShare, type ExportRecord } from '../../../../electron/shared/book-exports';
import { ProgressBar } from '../../components/ProgressBar';
import { TimeLeft } from '../../components/TimeLeft';
import { describeFailure } from '../../i18n/error-messages';
import { ExportResult } from './ExportResult';
import { isFinal } from './use-exports';

const m = defineMessages({
  result: { id: 'export.result.label', defaultMessage: 'Export result' },
  untitledBook: { id: 'export.result.untitled', defaultMessage: 'Untitled book' },
  progress: { id: 'export.progress.label', defaultMessage: 'Export progress' },
});

/** The export shown: its status, its progress while it runs, why it failed, or its result. */
export function ExportRecordPanel({ record }: { record: ExportRecord }) {
  const intl = useIntl();
  const running = !isFinal(record);
  return (
    <section className="panel" aria-label={intl.formatMessage(m.result)}>
      <div className="panel-head">
        <h2>{record.title ?? intl.formatMessage(m.untitledBook)}</h2>
        <span
          className={`badge ${record.status === 'SUCCESS' ? 'ok' : record.status === 'FAILURE' ? 'bad' : 'accent'}`}
          role="status"
        >
          <FormattedMessage
            id="export.result.status"
            defaultMessage="{status, select, new {queued} processing {exporting} SUCCESS {SUCCESS} FAILURE {FAILURE} other {{status}}}"
            values={{ status: record.status }}
          />
        </span>
      </div>
      {running && (
        <div>
          <ProgressBar label={intl.formatMessage(m.progress)} value={record.progress * 100} minWidth={3} />
          <p className="hint">
            {record.status === 'new' ? (
              <FormattedMessage id="export.progress.queued" defaultMessage="Waiting in the queue…" />
            ) : record.progress < exportRenderShare(record.preset) ? (
              <FormattedMessage
                id="export.progress.rendering"
                defaultMessage="Rendering the chapters… {progress, number, percent}"
                values={{ progress: record.progress }}
              />
            ) : (
              <FormattedMessage
                id="export.progress.mastering"
                defaultMessage="Mastering and encoding… {progress, number, percent}"
                values={{ progress: record.progress }}
              />
            )}
            {record.status === 'processing' && record.eta_seconds != null && (
              <>
                {' · '}
                <TimeLeft seconds={record.eta_seconds} />
              </>
            )}
          </p>
        </div>
      )}
      {record.status === 'FAILURE' &&
        (record.error_code === 'CANCELLED' ? (
          <p className="hint">
            <FormattedMessage id="export.cancelled" defaultMessage="Cancelled. The credits were refunded." />
          </p>
        ) : (
          <p className="error" role="alert">
            <FormattedMessage
              id="export.failed"
              defaultMessage="The export failed: {reason} (credits refunded)."
              values={{
                reason: describeFailure(intl, record.error_code, record.error_message, record.error_details),
              }}
            />
          </p>
        ))}
      {record.status === 'SUCCESS' && <ExportResult record={record} />}
    </section>
  );
}
