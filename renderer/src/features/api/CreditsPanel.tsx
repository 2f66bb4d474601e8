import type { ReactNode } from 'react';
import {
  defineMessages,
  FormattedMessage,
  useIntl,
  type IntlShape,
  type MessageDescriptor,
} from 'react-intl';
import type { ApiKeyInfo, LedgerKind, Usage } from '../../../../electron/shared/api';
import { KEY_FILTER_ALL } from '../../../../electron/shared/api';
import { keyName, KeySelect } from '../../components/KeySelect';
import { formatCredits, formatTime } from '../../lib/format';
import { useStudio } from '../../stores';
import { TableHead } from '../../components/TableHead';
import { AddCredits } from './AddCredits';

const LEDGER_KIND_MESSAGES = defineMessages<LedgerKind>({
  grant: { id: 'api.ledger.kind.grant', defaultMessage: 'grant' },
  charge: { id: 'api.ledger.kind.charge', defaultMessage: 'charge' },
  refund: { id: 'api.ledger.kind.refund', defaultMessage: 'refund' },
  transfer: { id: 'api.ledger.kind.transfer', defaultMessage: 'moved from a revoked studio key' },
});

/** A ledger entry's kind in the interface's language (an unknown one as the server wrote it). */
function ledgerKind(intl: IntlShape, kind: string): string {
  const message = LEDGER_KIND_MESSAGES[kind as LedgerKind] as MessageDescriptor | undefined;
  return message ? intl.formatMessage(message) : kind;
}

/** The credits of one key or all: the balance, the key shown, Add credits and the ledger. */
export function CreditsPanel() {
  const session = useStudio((s) => s.session);
  const keys = useStudio((s) => s.apiKeys);
  const usage = useStudio((s) => s.apiUsage);
  const creditsKey = useStudio((s) => s.apiCreditsKey);
  const setCreditsKey = useStudio((s) => s.setApiCreditsKey);
  if (!usage) return null;
  return (
    <div className="panel">
      <div className="panel-head">
        <h2>
          <FormattedMessage id="api.credits.title" defaultMessage="Credits" />
        </h2>
        <span>
          <FormattedMessage
            id="api.credits.summary"
            defaultMessage="<b>{balance}</b> credits · {queued, number} queued"
            values={{
              balance: formatCredits(usage.balance),
              queued: usage.queued,
              b: (chunks: ReactNode[]) => <b>{chunks}</b>,
            }}
          />
        </span>
      </div>
      <div className="voice-filters">
        <KeySelect value={creditsKey} keys={keys} onChange={setCreditsKey} />
      </div>
      <AddCredits keys={keys} defaultKey={creditsKey === KEY_FILTER_ALL ? session?.key.id : creditsKey} />
      <LedgerTable usage={usage} keys={keys} allKeys={creditsKey === KEY_FILTER_ALL} />
    </div>
  );
}

/** The ledger's last entries; the key's column when the credits of all keys are shown. */
function LedgerTable({
  usage,
  keys,
  allKeys,
}: {
  usage: Usage;
  keys: readonly ApiKeyInfo[];
  allKeys: boolean;
}) {
  const intl = useIntl();
  return (
    <table
      className="data"
      aria-label={intl.formatMessage({ id: 'api.ledger.title', defaultMessage: 'Ledger' })}
    >
      <TableHead
        columns={[
          { label: <FormattedMessage id="api.ledger.time" defaultMessage="Time" /> },
          allKeys && { label: <FormattedMessage id="api.keys.key" defaultMessage="Key" /> },
          { label: <FormattedMessage id="api.ledger.kind" defaultMessage="Kind" /> },
          { label: <FormattedMessage id="api.ledger.amount" defaultMessage="Amount" />, className: 'num' },
          {
            label: <FormattedMessage id="api.ledger.balanceAfter" defaultMessage="Balance after" />,
            className: 'num',
          },
          { label: <FormattedMessage id="api.ledger.request" defaultMessage="Request" /> },
        ]}
      />
      <tbody>
        {usage.ledger.map((e, i) => (
          <tr key={i}>
            <td className="small">{formatTime(e.created_at)}</td>
            {allKeys && <td className="small">{keyName(keys, e.key_id)}</td>}
            <td>{ledgerKind(intl, e.kind)}</td>
            <td className="num">{formatCredits(e.amount)}</td>
            <td className="num">{formatCredits(e.balance_after)}</td>
            <td>
              <code className="small">{e.request_id ?? '—'}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
