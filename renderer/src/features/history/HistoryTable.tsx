import { FormattedMessage, useIntl } from 'react-intl';
import type { ApiKeyInfo, RequestDetail } from '../../../../electron/shared/api';
import { EngineBadge } from '../../components/EngineBadge';
import { keyName } from '../../components/KeySelect';
import { CallbackBadge, StatusBadge } from '../../components/StatusBadge';
import { formatClock, formatNumber, formatTime } from '../../lib/format';
import { voiceNameOf } from '../../lib/voice-codes';
import { useStudio } from '../../stores';
import { TableHead } from '../../components/TableHead';

interface TableProps {
  /** The key column is shown when the requests of all keys are. */
  allKeys: boolean;
  keys: readonly ApiKeyInfo[];
  /** Opens a request in the Studio (History asks first when a draft would be replaced). */
  onOpen(request: RequestDetail): void;
}

/** The requests of one page: time (opens the details), key, voice, engine, text, figures, status, Open. */
export function HistoryTable({
  items,
  allKeys,
  keys,
  onOpen,
}: TableProps & { items: readonly RequestDetail[] }) {
  const intl = useIntl();
  return (
    <div className="table-scroll">
      <table
        className="data history-table"
        aria-label={intl.formatMessage({ id: 'history.table.label', defaultMessage: 'Requests' })}
      >
        <TableHead
          columns={[
            { label: <FormattedMessage id="history.column.time" defaultMessage="Time" /> },
            allKeys && { label: <FormattedMessage id="history.column.key" defaultMessage="Key" /> },
            { label: <FormattedMessage id="history.voice" defaultMessage="Voice" /> },
            {
              label: <FormattedMessage id="history.engine" defaultMessage="Engine" />,
              className: 'wide-only',
            },
            { label: <FormattedMessage id="history.text" defaultMessage="Text" /> },
            {
              label: <FormattedMessage id="history.characters" defaultMessage="Characters" />,
              className: 'num',
            },
            { label: <FormattedMessage id="history.credits" defaultMessage="Credits" />, className: 'num' },
            { label: <FormattedMessage id="history.duration" defaultMessage="Duration" />, className: 'num' },
            {
              label: <FormattedMessage id="history.format" defaultMessage="Format" />,
              className: 'wide-only history-format',
            },
            { label: <FormattedMessage id="history.status" defaultMessage="Status" /> },
            {
              label: <FormattedMessage id="history.callback" defaultMessage="Callback" />,
              className: 'wide-only',
            },
            { label: <FormattedMessage id="common.actions" defaultMessage="Actions" />, hidden: true },
          ]}
        />
        <tbody>
          {items.map((r) => (
            <HistoryRow key={r.request_id} r={r} allKeys={allKeys} keys={keys} onOpen={onOpen} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function HistoryRow({ r, allKeys, keys, onOpen }: TableProps & { r: RequestDetail }) {
  const intl = useIntl();
  const customVoices = useStudio((s) => s.customVoices);
  const selectedId = useStudio((s) => s.historyRequestId);
  const selectRequest = useStudio((s) => s.selectRequest);
  return (
    <tr aria-current={r.request_id === selectedId ? 'true' : undefined}>
      <td className="small">
        <button type="button" className="link-button" onClick={() => selectRequest(r.request_id)}>
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
      <td className="num">{r.duration_ms === null ? '—' : formatClock(r.duration_ms / 1000, true)}</td>
      <td className="small wide-only history-format">{r.audio_type.toUpperCase()}</td>
      <td>
        <StatusBadge status={r.status} />
      </td>
      <td className="wide-only">
        {r.callback_url ? <CallbackBadge state={r.callback_state} /> : <span className="muted">—</span>}
      </td>
      <td>
        <button
          type="button"
          onClick={() => onOpen(r)}
          aria-label={intl.formatMessage(
            { id: 'history.open.label', defaultMessage: 'Open request {id} in the Studio' },
            { id: r.request_id },
          )}
        >
          <FormattedMessage id="history.open" defaultMessage="Open" />
        </button>
      </td>
    </tr>
  );
}
