import { useCallback, useEffect, useId, useState } from 'react';
import { EngineBadge } from '../../components/EngineBadge';
import type { RequestDetail, RequestList, RequestStatus } from '../../../../electron/shared/api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { KEY_FILTER_ALL, REQUEST_STATUSES } from '../../../../electron/shared/api';
import { VOICES } from '../../../../electron/shared/voices';
import { keyName, KeySelect, useKeyFilter } from '../../components/KeySelect';
import { CallbackBadge, StatusBadge } from '../../components/StatusBadge';
import { errorMessage, isSignedOut } from '../../lib/api-client';
import { formatClock, formatNumber, formatTime } from '../../lib/format';
import { voiceNameOf } from '../../lib/voice-codes';
import { useClient, useStudio } from '../../stores';
import { RequestDetails } from './RequestDetails';

const PAGE_SIZE = 20;

/** Every request of a key (or of all), newest first, paged and filterable; open one to replay it. */
export function HistoryView() {
  const client = useClient();
  const openRequest = useStudio((s) => s.openRequest);
  const draft = useStudio((s) => s.text);
  // The request whose Open waits for an answer: its text and settings would replace a draft.
  const [opening, setOpening] = useState<RequestDetail | null>(null);
  /** Opens a request in the Studio with its text and settings, asking first when a different draft would be replaced. */
  const open = (r: RequestDetail) => {
    if (draft.trim() === '' || draft === r.input_text) void openRequest(r.request_id, { restore: true });
    else setOpening(r);
  };
  const markSignedOut = useStudio((s) => s.markSignedOut);
  const customVoices = useStudio((s) => s.customVoices);
  const selectedId = useStudio((s) => s.historyRequestId);
  const selectRequest = useStudio((s) => s.selectRequest);
  const id = useId();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<RequestStatus | ''>('');
  const [voice, setVoice] = useState('');
  const [list, setList] = useState<RequestList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { key, setKey, keys } = useKeyFilter();
  const allKeys = key === KEY_FILTER_ALL;

  const load = useCallback(async () => {
    try {
      setList(await client.listRequests({ page, page_size: PAGE_SIZE, status, voice_code: voice, key }));
      setError(null);
    } catch (e) {
      if (isSignedOut(e)) markSignedOut();
      setError(errorMessage(e));
    }
  }, [client, page, status, voice, key, markSignedOut]);

  useEffect(() => {
    // First load on the next tick (not inside the effect body), then refresh on a timer.
    const first = setTimeout(() => void load(), 0);
    // Unfinished requests move on their own: refresh while the page is open.
    const timer = setInterval(() => void load(), 3000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [load]);

  const pages = list ? Math.max(1, Math.ceil(list.total / PAGE_SIZE)) : 1;

  return (
    <>
      <div className="page-head">
        <div>
          <h1>History</h1>
          <p>
            Every request of the chosen API key (the studio's by default, or an app's, or all), newest first.
          </p>
        </div>
        <button type="button" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      {selectedId && <RequestDetails key={selectedId} id={selectedId} />}
      <ConfirmDialog
        request={
          opening && {
            title: 'Replace the draft?',
            message: `The Studio's draft (${formatNumber([...draft].length)} characters) will be replaced by this request's text and settings (voice, speed, pitch, volume, format, model). Undo in the Studio brings the draft back.`,
            confirmLabel: 'Replace draft',
          }
        }
        onCancel={() => setOpening(null)}
        onConfirm={() => {
          if (opening) void openRequest(opening.request_id, { restore: true });
          setOpening(null);
        }}
      />
      <div className="panel">
        <div className="voice-filters">
          <KeySelect
            value={key}
            keys={keys}
            onChange={(value) => {
              setKey(value);
              setPage(1);
            }}
          />
          <div className="field">
            <label htmlFor={`${id}-status`}>Status</label>
            <select
              id={`${id}-status`}
              value={status}
              onChange={(e) => {
                setStatus(e.target.value as RequestStatus | '');
                setPage(1);
              }}
            >
              <option value="">Any</option>
              {REQUEST_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-voice`}>Voice</label>
            <select
              id={`${id}-voice`}
              value={voice}
              onChange={(e) => {
                setVoice(e.target.value);
                setPage(1);
              }}
            >
              <option value="">Any voice</option>
              {VOICES.map((v) => (
                <option key={v.voice_code} value={v.voice_code}>
                  {v.name} ({v.voice_code})
                </option>
              ))}
            </select>
          </div>
        </div>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {list && list.items.length === 0 && (
          <p className="muted">No requests of this key yet. Generate one in the Studio.</p>
        )}
        {list && list.items.length > 0 && (
          <table className="data history-table" aria-label="Requests">
            <thead>
              <tr>
                <th>Time</th>
                {allKeys && <th>Key</th>}
                <th>Voice</th>
                <th className="wide-only">Engine</th>
                <th>Text</th>
                <th className="num">Characters</th>
                <th className="num">Credits</th>
                <th className="num">Duration</th>
                <th className="wide-only">Format</th>
                <th>Status</th>
                <th className="wide-only">Callback</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((r) => (
                <tr key={r.request_id} aria-current={r.request_id === selectedId ? 'true' : undefined}>
                  <td className="small">
                    <button type="button" className="link-button" onClick={() => selectRequest(r.request_id)}>
                      {formatTime(r.created_at)}
                      <span className="visually-hidden"> — details of request {r.request_id}</span>
                    </button>
                  </td>
                  {allKeys && <td className="small">{keyName(keys, r.key_id)}</td>}
                  <td>{voiceNameOf(r.voice_code, customVoices)}</td>
                  <td className="small wide-only" title={r.engine ?? undefined}>
                    {r.engine ? <EngineBadge engine={r.engine} /> : <span className="muted">—</span>}
                  </td>
                  <td className="small muted history-text">{r.input_text}</td>
                  <td className="num">{formatNumber(r.characters)}</td>
                  <td className="num">{r.cost}</td>
                  <td className="num">
                    {r.duration_ms === null ? '—' : formatClock(r.duration_ms / 1000, true)}
                  </td>
                  <td className="small wide-only">{r.audio_type.toUpperCase()}</td>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td className="wide-only">
                    {r.callback_url ? (
                      <CallbackBadge state={r.callback_state} />
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td>
                    <button
                      type="button"
                      onClick={() => open(r)}
                      aria-label={`Open request ${r.request_id} in the Studio`}
                    >
                      Open
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <div className="row" style={{ marginTop: 12 }}>
          <button type="button" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            Previous page
          </button>
          <span className="muted">
            Page {page} of {pages}
            {list ? ` · ${formatNumber(list.total)} requests` : ''}
          </span>
          <button type="button" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            Next page
          </button>
        </div>
      </div>
    </>
  );
}
