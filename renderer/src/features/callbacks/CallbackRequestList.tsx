import { FormattedMessage, useIntl } from 'react-intl';
import type { ApiKeyInfo, RequestDetail } from '../../../../electron/shared/api';
import { KEY_FILTER_ALL } from '../../../../electron/shared/api';
import { keyName } from '../../components/KeySelect';
import { CallbackBadge } from '../../components/StatusBadge';
import { formatTime } from '../../lib/format';

/** The requests with a callback URL: id, time, key (when all keys are shown), callback state. */
export function CallbackRequestList({
  requests,
  selected,
  onSelect,
  keyFilter,
  keys,
}: {
  requests: readonly RequestDetail[];
  selected: string | null;
  onSelect(requestId: string): void;
  keyFilter: string;
  keys: readonly ApiKeyInfo[];
}) {
  const intl = useIntl();
  return (
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
              onClick={() => onSelect(r.request_id)}
              aria-current={r.request_id === selected ? 'true' : undefined}
              style={{ gridTemplateColumns: '1fr auto' }}
            >
              <span>
                <code className="small">{r.request_id.slice(0, 12)}…</code>
                <br />
                <span className="small muted">{formatTime(r.created_at)}</span>
                {keyFilter === KEY_FILTER_ALL && (
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
  );
}
