import { useEffect, useState } from 'react';
import type { RequestDetail } from '../../../../electron/shared/api';
import { EngineBadge } from '../../components/EngineBadge';
import { CallbackBadge, StatusBadge } from '../../components/StatusBadge';
import { errorMessage, isSignedOut } from '../../lib/api-client';
import { formatClock, formatCredits, formatNumber, formatTime } from '../../lib/format';
import { voiceNameOf } from '../../lib/voice-codes';
import { useClient, useStudio } from '../../stores';

/**
 * The request selected in History (its address is `#/history/<id>`): every field of it, or a
 * sentence saying that no request has that id.
 */
export function RequestDetails({ id }: { id: string }) {
  const client = useClient();
  const selectRequest = useStudio((s) => s.selectRequest);
  const markSignedOut = useStudio((s) => s.markSignedOut);
  const customVoices = useStudio((s) => s.customVoices);
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
      })
      .catch((e: unknown) => {
        if (!current) return;
        if (isSignedOut(e)) markSignedOut();
        setRequest(null);
        setError(errorMessage(e));
      });
    return () => {
      current = false;
    };
  }, [client, id, markSignedOut]);

  const close = (
    <button type="button" onClick={() => selectRequest(null)}>
      Close details
    </button>
  );

  return (
    <section className="panel request-details" aria-labelledby="request-details-title">
      <div className="panel-head">
        <h2 id="request-details-title">
          Request <code>{id}</code>
        </h2>
        {close}
      </div>
      {error && (
        <div role="alert">
          <p className="error">This request cannot be shown: {error}</p>
          <p className="muted">The address may be mistyped, or the request belongs to another studio.</p>
        </div>
      )}
      {!error && !request && (
        <p className="muted" role="status">
          Loading the request…
        </p>
      )}
      {request && (
        <>
          <dl className="request-facts">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={request.status} />
              {request.error_message ? <span className="small"> {request.error_message}</span> : null}
            </dd>
            <dt>Created</dt>
            <dd>{formatTime(request.created_at)}</dd>
            <dt>Finished</dt>
            <dd>{formatTime(request.finished_at)}</dd>
            <dt>Voice</dt>
            <dd>
              {voiceNameOf(request.voice_code, customVoices)}{' '}
              <code className="small">{request.voice_code}</code>
            </dd>
            <dt>Engine</dt>
            <dd>
              {request.engine ? (
                <>
                  <EngineBadge engine={request.engine} /> <code className="small">{request.engine}</code>
                </>
              ) : (
                <span className="muted">—</span>
              )}
            </dd>
            <dt>Characters</dt>
            <dd>{formatNumber(request.characters)}</dd>
            <dt>Credits</dt>
            <dd>{formatCredits(request.cost)}</dd>
            <dt>Duration</dt>
            <dd>{request.duration_ms === null ? '—' : formatClock(request.duration_ms / 1000, true)}</dd>
            <dt>Format</dt>
            <dd>
              {request.audio_type.toUpperCase()} · speed {request.speed_rate} · pitch {request.pitch_rate} ·
              volume {request.volume}
            </dd>
            <dt>Callback</dt>
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
          <h3 className="request-text-title">Text</h3>
          <p className="request-text">{request.input_text}</p>
        </>
      )}
    </section>
  );
}
