import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { EngineBadge } from '../../components/EngineBadge';
import type { CallbackAttemptList, RequestDetail } from '../../../../electron/shared/api';
import { CALLBACK_ATTEMPT_LIMITS, KEY_FILTER_ALL } from '../../../../electron/shared/api';
import { keyName, KeySelect, useKeyFilter } from '../../components/KeySelect';
import { CallbackBadge } from '../../components/StatusBadge';
import { errorMessage } from '../../lib/api-client';
import { deliveryResultText } from './delivery-result';
import { formatTime } from '../../lib/format';
import { useClient } from '../../stores';

const NO_ATTEMPTS: CallbackAttemptList = { items: [], next_cursor: null, total: 0, dropped: 0 };

/**
 * Requests with a callback URL (of the chosen key, or of all) and the newest delivery attempts
 * of the one selected (20, and 20 more each "Show more" up to the 100 a request keeps),
 * refreshed live.
 */
export function CallbacksView() {
  const client = useClient();
  const intl = useIntl();
  const [requests, setRequests] = useState<RequestDetail[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [attemptList, setAttemptList] = useState<CallbackAttemptList>(NO_ATTEMPTS);
  const [attemptLimit, setAttemptLimit] = useState<number>(CALLBACK_ATTEMPT_LIMITS.pageDefault);
  const attempts = attemptList.items;
  const [error, setError] = useState<string | null>(null);
  const [resendError, setResendError] = useState<string | null>(null);
  const { key, setKey, keys } = useKeyFilter();

  const load = useCallback(async () => {
    try {
      const list = await client.listRequests({ page: 1, page_size: 100, key });
      const withCallback = list.items.filter((r) => r.callback_url);
      setRequests(withCallback);
      const current = selected ?? withCallback[0]?.request_id ?? null;
      if (current !== selected) setSelected(current);
      setAttemptList(current ? await client.callbackAttempts(current, attemptLimit) : NO_ATTEMPTS);
      setError(null);
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [client, selected, key, attemptLimit]);

  const select = (id: string | null) => {
    setSelected(id);
    setAttemptLimit(CALLBACK_ATTEMPT_LIMITS.pageDefault);
  };

  useEffect(() => {
    // First load on the next tick (not inside the effect body), then refresh on a timer.
    const first = setTimeout(() => void load(), 0);
    const timer = setInterval(() => void load(), 1500);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [load]);

  const resend = async (id: string) => {
    setResendError(null);
    try {
      await client.retryCallback(id);
      await load();
    } catch (e) {
      setResendError(errorMessage(e));
    }
  };

  const request = requests.find((r) => r.request_id === selected);

  return (
    <>
      <div className="page-head">
        <div>
          <h1>
            <FormattedMessage id="callbacks.title" defaultMessage="Callbacks" />
          </h1>
          <p>
            <FormattedMessage
              id="callbacks.intro"
              defaultMessage="What the server POSTed to each callback URL, and what the receiver answered. Updates live."
            />
          </p>
        </div>
        <KeySelect
          value={key}
          keys={keys}
          onChange={(value) => {
            setKey(value);
            select(null);
          }}
        />
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {requests.length === 0 && !error && (
        <div className="panel">
          <p className="muted">
            <FormattedMessage
              id="callbacks.empty"
              defaultMessage="No request of this key has a callback URL yet. Set one under Voice & output in the Studio, then generate."
            />
          </p>
        </div>
      )}
      {requests.length > 0 && (
        <div className="callbacks-grid">
          <div className="panel">
            <h2 style={{ marginBottom: 10 }}>
              <FormattedMessage id="callbacks.requests" defaultMessage="Requests" />
            </h2>
            <ul
              className="cue-list callbacks-list"
              aria-label={intl.formatMessage({
                id: 'callbacks.requests.list',
                defaultMessage: 'Requests with a callback',
              })}
            >
              {requests.map((r) => (
                <li key={r.request_id} className={r.request_id === selected ? 'current' : undefined}>
                  <button
                    type="button"
                    onClick={() => select(r.request_id)}
                    aria-current={r.request_id === selected ? 'true' : undefined}
                    style={{ gridTemplateColumns: '1fr auto' }}
                  >
                    <span>
                      <code className="small">{r.request_id.slice(0, 12)}…</code>
                      <br />
                      <span className="small muted">{formatTime(r.created_at)}</span>
                      {key === KEY_FILTER_ALL && (
                        <>
                          <br />
                          <span className="small muted">{keyName(keys, r.key_id)}</span>
                        </>
                      )}
                    </span>
                    <CallbackBadge state={r.callback_state} />
                  </button>
                </li>
              ))}
            </ul>
          </div>
          {request && (
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
                  onClick={() => void resend(request.request_id)}
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
              {attempts.length > 0 && (
                <table
                  className="data fixed"
                  aria-label={intl.formatMessage({
                    id: 'callbacks.attempts.title',
                    defaultMessage: 'Delivery attempts',
                  })}
                >
                  <thead>
                    <tr>
                      <th style={{ width: 36 }}>#</th>
                      <th style={{ width: 190 }}>
                        <FormattedMessage id="callbacks.attempts.time" defaultMessage="Time" />
                      </th>
                      <th style={{ width: 120 }}>
                        <FormattedMessage id="callbacks.attempts.status" defaultMessage="HTTP status" />
                      </th>
                      <th>
                        <FormattedMessage id="callbacks.attempts.response" defaultMessage="Response" />
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {attempts.map((a) => (
                      <tr key={a.attempt}>
                        <td>{a.attempt}</td>
                        <td className="small">
                          {formatTime(a.created_at)}
                          <br />
                          <span className="muted">
                            <FormattedMessage
                              id="callbacks.attempts.duration"
                              defaultMessage="{ms, number} ms"
                              values={{ ms: a.duration_ms }}
                            />
                          </span>
                        </td>
                        <td>
                          {a.status_code === null ? (
                            <span className="badge bad">
                              <FormattedMessage id="callbacks.attempts.noAnswer" defaultMessage="no answer" />
                            </span>
                          ) : (
                            <span className={`badge ${a.status_code < 300 ? 'ok' : 'bad'}`}>
                              <FormattedMessage
                                id="callbacks.attempts.http"
                                defaultMessage="HTTP {code}"
                                values={{ code: a.status_code }}
                              />
                            </span>
                          )}
                        </td>
                        <td>
                          <span
                            className="small"
                            lang={a.result_code === 'http' || a.result_code === null ? 'en' : undefined}
                          >
                            {deliveryResultText(a, intl)}
                          </span>
                          <details>
                            <summary className="small">
                              <FormattedMessage id="callbacks.attempts.payload" defaultMessage="Payload" />
                            </summary>
                            {/* Focusable, so a keyboard can scroll a long payload; named for a screen reader. */}
                            <pre
                              className="payload"
                              tabIndex={0}
                              aria-label={intl.formatMessage(
                                {
                                  id: 'callbacks.attempts.payloadBlock',
                                  defaultMessage: 'Payload of attempt {attempt, number}',
                                },
                                { attempt: a.attempt },
                              )}
                            >
                              {JSON.stringify(a.payload, null, 2)}
                            </pre>
                          </details>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              {(attemptList.next_cursor !== null || attemptList.dropped > 0) && (
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
                    <button
                      type="button"
                      onClick={() =>
                        setAttemptLimit(
                          Math.min(
                            attemptLimit + CALLBACK_ATTEMPT_LIMITS.pageDefault,
                            CALLBACK_ATTEMPT_LIMITS.page,
                          ),
                        )
                      }
                    >
                      <FormattedMessage
                        id="callbacks.attempts.more"
                        defaultMessage="Show {count, number} more"
                        values={{
                          count: Math.min(
                            attemptList.total - attempts.length,
                            CALLBACK_ATTEMPT_LIMITS.pageDefault,
                          ),
                        }}
                      />
                    </button>
                  )}
                </p>
              )}
            </div>
          )}
        </div>
      )}
    </>
  );
}
