import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { RequestDetail } from '../../../../electron/shared/api';
import { EngineBadge } from '../../components/EngineBadge';
import { CallbackBadge, StatusBadge } from '../../components/StatusBadge';
import { describeFailure } from '../../i18n/error-messages';
import { errorMessage } from '../../lib/api-client';
import { formatClock, formatCredits, formatNumber, formatTime } from '../../lib/format';
import { voiceNameOf } from '../../lib/voice-codes';
import { useClient, useStudio } from '../../stores';

/**
 * The request selected in History (its address is `#/history/<id>`): every field of it, or a
 * sentence saying that no request has that id.
 */
export function RequestDetails({ id }: { id: string }) {
  const intl = useIntl();
  const selectRequest = useStudio((s) => s.selectRequest);
  const customVoices = useStudio((s) => s.customVoices);
  const { request, error } = useRequestDetail(id);

  const close = (
    <button type="button" onClick={() => selectRequest(null)}>
      <FormattedMessage id="history.details.close" defaultMessage="Close details" />
    </button>
  );

  return (
    <section className="panel request-details" aria-labelledby="request-details-title">
      <div className="panel-head">
        <h2 id="request-details-title">
          <FormattedMessage
            id="history.details.title"
            defaultMessage="Request <code>{id}</code>"
            values={{ id, code: (chunks) => <code>{chunks}</code> }}
          />
        </h2>
        {close}
      </div>
      {error && (
        <div role="alert">
          <p className="error">
            <FormattedMessage
              id="history.details.error"
              defaultMessage="This request cannot be shown: {error}"
              values={{ error }}
            />
          </p>
          <p className="muted">
            <FormattedMessage
              id="history.details.errorHint"
              defaultMessage="The address may be mistyped, or the request belongs to another studio."
            />
          </p>
        </div>
      )}
      {!error && !request && (
        <p className="muted" role="status">
          <FormattedMessage id="history.details.loading" defaultMessage="Loading the request…" />
        </p>
      )}
      {request && (
        <>
          <dl className="request-facts">
            <dt>
              <FormattedMessage id="history.status" defaultMessage="Status" />
            </dt>
            <dd>
              <StatusBadge status={request.status} />
              {request.error_message ? (
                <span className="small">
                  {' '}
                  {describeFailure(intl, request.error_code, request.error_message, request.error_details)}
                </span>
              ) : null}
            </dd>
            <dt>
              <FormattedMessage id="history.details.created" defaultMessage="Created" />
            </dt>
            <dd>{formatTime(request.created_at)}</dd>
            <dt>
              <FormattedMessage id="history.details.finished" defaultMessage="Finished" />
            </dt>
            <dd>{formatTime(request.finished_at)}</dd>
            <dt>
              <FormattedMessage id="history.voice" defaultMessage="Voice" />
            </dt>
            <dd>
              {voiceNameOf(request.voice_code, customVoices)}{' '}
              <code className="small">{request.voice_code}</code>
            </dd>
            <dt>
              <FormattedMessage id="history.engine" defaultMessage="Engine" />
            </dt>
            <dd>
              {request.engine ? (
                <>
                  <EngineBadge engine={request.engine} /> <code className="small">{request.engine}</code>
                </>
              ) : (
                <span className="muted">—</span>
              )}
            </dd>
            <dt>
              <FormattedMessage id="history.characters" defaultMessage="Characters" />
            </dt>
            <dd>{formatNumber(request.characters)}</dd>
            <dt>
              <FormattedMessage id="history.credits" defaultMessage="Credits" />
            </dt>
            <dd>{formatCredits(request.cost)}</dd>
            <dt>
              <FormattedMessage id="history.duration" defaultMessage="Duration" />
            </dt>
            <dd>{request.duration_ms === null ? '—' : formatClock(request.duration_ms / 1000, true)}</dd>
            <dt>
              <FormattedMessage id="history.format" defaultMessage="Format" />
            </dt>
            <dd>
              <FormattedMessage
                id="history.details.format"
                defaultMessage="{type} · speed {speed} · pitch {pitch} · volume {volume}"
                values={{
                  type: request.audio_type.toUpperCase(),
                  speed: request.speed_rate,
                  pitch: request.pitch_rate,
                  volume: request.volume,
                }}
              />
            </dd>
            <dt>
              <FormattedMessage id="history.callback" defaultMessage="Callback" />
            </dt>
            <dd>
              {request.callback_url ? (
                <>
                  <CallbackBadge state={request.callback_state} />{' '}
                  <code className="small">{request.callback_url}</code>
                </>
              ) : (
                <span className="muted">—</span>
              )}
            </dd>
          </dl>
          <h3 className="request-text-title">
            <FormattedMessage id="history.text" defaultMessage="Text" />
          </h3>
          <p className="request-text">{request.input_text}</p>
        </>
      )}
    </section>
  );
}

/** Reads request `id` (again when it changes); the document title names it by its text. */
function useRequestDetail(id: string) {
  const client = useClient();
  const describeRequest = useStudio((s) => s.describeRequest);
  const [request, setRequest] = useState<RequestDetail | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    client
      .request(id)
      .then((detail) => {
        if (!current) return;
        setRequest(detail);
        setError(null);
        // The document title names the request by its text.
        describeRequest(id, detail.input_text);
      })
      .catch((e: unknown) => {
        if (!current) return;
        setRequest(null);
        setError(errorMessage(e));
      });
    return () => {
      current = false;
    };
  }, [client, id, describeRequest]);
  return { request, error };
}
