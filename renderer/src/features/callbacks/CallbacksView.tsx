import { FormattedMessage } from 'react-intl';
import { KeySelect } from '../../components/KeySelect';
import { CallbackDeliveries } from './CallbackDeliveries';
import { CallbackRequestList } from './CallbackRequestList';
import { useCallbacks } from './use-callbacks';

/**
 * Requests with a callback URL (of the chosen key, or of all) and the newest delivery attempts
 * of the one selected (20, and 20 more each "Show more" up to the 100 a request keeps),
 * refreshed live.
 */
export function CallbacksView() {
  const {
    requests,
    selected,
    select,
    attemptList,
    attemptLimit,
    showMore,
    error,
    resendError,
    resend,
    key,
    setKey,
    keys,
  } = useCallbacks();
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
          <CallbackRequestList
            requests={requests}
            selected={selected}
            onSelect={select}
            keyFilter={key}
            keys={keys}
          />
          {request && (
            <CallbackDeliveries
              request={request}
              attemptList={attemptList}
              attemptLimit={attemptLimit}
              onShowMore={showMore}
              onResend={(id) => void resend(id)}
              resendError={resendError}
            />
          )}
        </div>
      )}
    </>
  );
}
