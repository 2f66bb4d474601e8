import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { CallbackAttemptList, RequestDetail } from '../../../../electron/shared/api';
import { CALLBACK_ATTEMPT_LIMITS } from '../../../../electron/shared/api';
import { EngineBadge } from '../../components/EngineBadge';
import { formatTime } from '../../lib/format';
import { CallbackAttemptsTable } from './CallbackAttemptsTable';

/** The deliveries of the request selected: where to, how many, Resend, the attempts kept. */
export function CallbackDeliveries({
  request,
  attemptList,
  attemptLimit,
  onShowMore,
  onResend,
  resendError,
}: {
  request: RequestDetail;
  attemptList: CallbackAttemptList;
  attemptLimit: number;
  onShowMore(): void;
  onResend(requestId: string): void;
  resendError: string | null;
}) {
  const intl = useIntl();
  const attempts = attemptList.items;
  return (
    <div className="panel">
      <div className="panel-head">
        <div>
          <h2>
            <FormattedMessage
              id="callbacks.deliveries.title"
              defaultMessage="Deliveries of {request}…"
              values={{ request: request.request_id.slice(0, 12) }}
            />
          </h2>
          <p className="hint">
            <FormattedMessage
              id="callbacks.deliveries.summary"
              defaultMessage="To <code>{url}</code> · {attempts, plural, one {# attempt} other {# attempts}}"
              values={{
                url: request.callback_url,
                attempts: request.callback_attempts,
                code: (chunks: ReactNode[]) => <code>{chunks}</code>,
              }}
            />
            {request.callback_next_attempt_at ? (
              <>
                {' '}
                {intl.formatMessage(
                  { id: 'callbacks.deliveries.next', defaultMessage: '· next at {time}' },
                  { time: formatTime(request.callback_next_attempt_at) },
                )}
              </>
            ) : null}
            {request.engine ? (
              <>
                {' '}
                {intl.formatMessage({
                  id: 'callbacks.deliveries.spokenBy',
                  defaultMessage: '· spoken by',
                })}{' '}
                <EngineBadge engine={request.engine} /> <code>{request.engine}</code>
              </>
            ) : null}
          </p>
        </div>
        <button
          type="button"
          onClick={() => onResend(request.request_id)}
          disabled={request.status !== 'SUCCESS' && request.status !== 'FAILURE'}
        >
          <FormattedMessage id="callbacks.resend" defaultMessage="Resend callback" />
        </button>
      </div>
      {resendError && (
        <p className="error" role="alert">
          {resendError}
        </p>
      )}
      {attempts.length === 0 && (
        <p className="muted">
          <FormattedMessage
            id="callbacks.attempts.none"
            defaultMessage="No attempt yet ({state})."
            values={{ state: request.callback_state }}
          />
        </p>
      )}
      {attempts.length > 0 && <CallbackAttemptsTable attempts={attempts} />}
      {(attemptList.next_cursor !== null || attemptList.dropped > 0) && (
        <AttemptsShown attemptList={attemptList} attemptLimit={attemptLimit} onShowMore={onShowMore} />
      )}
    </div>
  );
}

/** How many attempts are shown of those kept, those no longer kept, Show more. */
function AttemptsShown({
  attemptList,
  attemptLimit,
  onShowMore,
}: {
  attemptList: CallbackAttemptList;
  attemptLimit: number;
  onShowMore(): void;
}) {
  const attempts = attemptList.items;
  return (
    <p className="segment-more small muted">
      <FormattedMessage
        id="callbacks.attempts.shown"
        defaultMessage="The newest {shown, number} of {total, plural, one {# attempt} other {# attempts}} kept shown"
        values={{ shown: attempts.length, total: attemptList.total }}
      />
      {attemptList.dropped > 0 && (
        <>
          {' '}
          <FormattedMessage
            id="callbacks.attempts.dropped"
            defaultMessage="· {dropped, plural, one {# older attempt is} other {# older attempts are}} no longer kept"
            values={{ dropped: attemptList.dropped }}
          />
        </>
      )}{' '}
      {attemptList.next_cursor !== null && attemptLimit < CALLBACK_ATTEMPT_LIMITS.page && (
        <button type="button" onClick={onShowMore}>
          <FormattedMessage
            id="callbacks.attempts.more"
            defaultMessage="Show {count, number} more"
            values={{
              count: Math.min(attemptList.total - attempts.length, CALLBACK_ATTEMPT_LIMITS.pageDefault),
            }}
          />
        </button>
      )}
    </p>
  );
}
