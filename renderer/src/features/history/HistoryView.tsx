import { useCallback, useEffect, useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { EngineBadge } from '../../components/EngineBadge';
import type { RequestDetail, RequestList, RequestStatus } from '../../../../electron/shared/api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { KEY_FILTER_ALL, REQUEST_STATUSES } from '../../../../electron/shared/api';
import { VOICES } from '../../../../electron/shared/voices';
import { keyName, KeySelect, useKeyFilter } from '../../components/KeySelect';
import { CallbackBadge, STATUS_TEXT, StatusBadge } from '../../components/StatusBadge';
import { errorMessage } from '../../lib/api-client';
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
  const customVoices = useStudio((s) => s.customVoices);
  const selectedId = useStudio((s) => s.historyRequestId);
  const selectRequest = useStudio((s) => s.selectRequest);
  const id = useId();
  const intl = useIntl();
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
      setError(errorMessage(e));
    }
  }, [client, page, status, voice, key]);

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
          <h1>
            <FormattedMessage id="history.title" defaultMessage="History" />
          </h1>
          <p>
            <FormattedMessage
              id="history.intro"
              defaultMessage="Every request of the chosen API key (the studio's by default, or an app's, or all), newest first."
            />
          </p>
        </div>
        <button type="button" onClick={() => void load()}>
          <FormattedMessage id="history.refresh" defaultMessage="Refresh" />
        </button>
      </div>
      {selectedId && <RequestDetails key={selectedId} id={selectedId} />}
      <ConfirmDialog
        request={
          opening && {
            title: intl.formatMessage({ id: 'history.replace.title', defaultMessage: 'Replace the draft?' }),
            message: intl.formatMessage(
              {
                id: 'history.replace.message',
                defaultMessage:
                  "The Studio's draft ({count, plural, one {# character} other {# characters}}) will be replaced by this request's text and settings (voice, speed, pitch, volume, format, model). Undo in the Studio brings the draft back.",
              },
              { count: [...draft].length },
            ),
            confirmLabel: intl.formatMessage({
              id: 'history.replace.confirm',
              defaultMessage: 'Replace draft',
            }),
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
            <label htmlFor={`${id}-status`}>
              <FormattedMessage id="history.status" defaultMessage="Status" />
            </label>
            <select
              id={`${id}-status`}
              value={status}
              onChange={(e) => {
                setStatus(e.target.value as RequestStatus | '');
                setPage(1);
              }}
            >
              <option value="">
                {intl.formatMessage({ id: 'history.status.any', defaultMessage: 'Any' })}
              </option>
              {REQUEST_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {intl.formatMessage(STATUS_TEXT[s])}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-voice`}>
              <FormattedMessage id="history.voice" defaultMessage="Voice" />
            </label>
            <select
              id={`${id}-voice`}
              value={voice}
              onChange={(e) => {
                setVoice(e.target.value);
                setPage(1);
              }}
            >
              <option value="">
                {intl.formatMessage({ id: 'history.voice.any', defaultMessage: 'Any voice' })}
              </option>
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
          <p className="muted">
            <FormattedMessage
              id="history.empty"
              defaultMessage="No requests of this key yet. Generate one in the Studio."
            />
          </p>
        )}
        {list && list.items.length > 0 && (
          <div className="table-scroll">
            <table
              className="data history-table"
              aria-label={intl.formatMessage({ id: 'history.table.label', defaultMessage: 'Requests' })}
            >
              <thead>
                <tr>
                  <th>
                    <FormattedMessage id="history.column.time" defaultMessage="Time" />
                  </th>
                  {allKeys && (
                    <th>
                      <FormattedMessage id="history.column.key" defaultMessage="Key" />
                    </th>
                  )}
                  <th>
                    <FormattedMessage id="history.voice" defaultMessage="Voice" />
                  </th>
                  <th className="wide-only">
                    <FormattedMessage id="history.engine" defaultMessage="Engine" />
                  </th>
                  <th>
                    <FormattedMessage id="history.text" defaultMessage="Text" />
                  </th>
                  <th className="num">
                    <FormattedMessage id="history.characters" defaultMessage="Characters" />
                  </th>
                  <th className="num">
                    <FormattedMessage id="history.credits" defaultMessage="Credits" />
                  </th>
                  <th className="num">
                    <FormattedMessage id="history.duration" defaultMessage="Duration" />
                  </th>
                  <th className="wide-only history-format">
                    <FormattedMessage id="history.format" defaultMessage="Format" />
                  </th>
                  <th>
                    <FormattedMessage id="history.status" defaultMessage="Status" />
                  </th>
                  <th className="wide-only">
                    <FormattedMessage id="history.callback" defaultMessage="Callback" />
                  </th>
                  <th>
                    <span className="visually-hidden">
                      <FormattedMessage id="common.actions" defaultMessage="Actions" />
                    </span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((r) => (
                  <tr key={r.request_id} aria-current={r.request_id === selectedId ? 'true' : undefined}>
                    <td className="small">
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => selectRequest(r.request_id)}
                      >
                        {formatTime(r.created_at)}
                        <span className="visually-hidden">
                          {' '}
                          <FormattedMessage
                            id="history.detailsOf"
                            defaultMessage="— details of request {id}"
                            values={{ id: r.request_id }}
                          />
                        </span>
                      </button>
                    </td>
                    {allKeys && <td className="small">{keyName(keys, r.key_id)}</td>}
                    <td className="history-voice">{voiceNameOf(r.voice_code, customVoices)}</td>
                    <td className="small wide-only" title={r.engine ?? undefined}>
                      {r.engine ? <EngineBadge engine={r.engine} /> : <span className="muted">—</span>}
                    </td>
                    <td className="small muted history-text" title={r.input_text}>
                      {r.input_text}
                    </td>
                    <td className="num">{formatNumber(r.characters)}</td>
                    <td className="num">{r.cost}</td>
                    <td className="num">
                      {r.duration_ms === null ? '—' : formatClock(r.duration_ms / 1000, true)}
                    </td>
                    <td className="small wide-only history-format">{r.audio_type.toUpperCase()}</td>
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
                        aria-label={intl.formatMessage(
                          { id: 'history.open.label', defaultMessage: 'Open request {id} in the Studio' },
                          { id: r.request_id },
                        )}
                      >
                        <FormattedMessage id="history.open" defaultMessage="Open" />
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="row" style={{ marginTop: 12 }}>
          <button type="button" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            <FormattedMessage id="history.page.previous" defaultMessage="Previous page" />
          </button>
          <span className="muted">
            <FormattedMessage
              id="history.page.position"
              defaultMessage="Page {page, number} of {pages, number}"
              values={{ page, pages }}
            />
            {list && (
              <>
                {' · '}
                <FormattedMessage
                  id="history.page.total"
                  defaultMessage="{total, plural, one {# request} other {# requests}}"
                  values={{ total: list.total }}
                />
              </>
            )}
          </span>
          <button type="button" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            <FormattedMessage id="history.page.next" defaultMessage="Next page" />
          </button>
        </div>
      </div>
    </>
  );
}
