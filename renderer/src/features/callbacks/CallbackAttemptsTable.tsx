import { FormattedMessage, useIntl } from 'react-intl';
import type { CallbackAttemptList } from '../../../../electron/shared/api';
import { formatTime } from '../../lib/format';
import { deliveryResultText } from './delivery-result';

type Attempt = CallbackAttemptList['items'][number];

/** The delivery attempts: number, time and duration, HTTP status, the result and its payload. */
export function CallbackAttemptsTable({ attempts }: { attempts: readonly Attempt[] }) {
  const intl = useIntl();
  return (
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
          <AttemptRow key={a.attempt} a={a} />
        ))}
      </tbody>
    </table>
  );
}

function AttemptRow({ a }: { a: Attempt }) {
  const intl = useIntl();
  return (
    <tr>
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
        <span className="small" lang={a.result_code === 'http' || a.result_code === null ? 'en' : undefined}>
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
  );
}
