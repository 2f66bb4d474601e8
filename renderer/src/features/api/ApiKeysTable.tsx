import { FormattedMessage, useIntl } from 'react-intl';
import type { ApiKeyInfo } from '../../../../electron/shared/api';
import { CopyButton } from '../../components/CopyButton';
import { formatCredits, formatTime } from '../../lib/format';
import { useStudio } from '../../stores';
import { TableHead } from '../../components/TableHead';

/** A signing secret with its middle hidden. */
function masked(secret: string): string {
  return `${secret.slice(0, 10)}…${secret.slice(-4)}`;
}

/** What a key's row asks for: the confirm dialog of a rotation or a revocation (key-questions.ts). */
export interface KeyActions {
  rotate(key: ApiKeyInfo): void;
  revoke(key: ApiKeyInfo): void;
}

/** The keys: name, prefix, balance, state, signing secret (shown, copied, rotated) and Revoke. */
export function ApiKeysTable({ keys, actions }: { keys: readonly ApiKeyInfo[]; actions: KeyActions }) {
  const intl = useIntl();
  return (
    <table
      className="data"
      aria-label={intl.formatMessage({ id: 'api.keys.title', defaultMessage: 'API keys' })}
    >
      <TableHead
        columns={[
          { label: <FormattedMessage id="api.keys.name" defaultMessage="Name" /> },
          { label: <FormattedMessage id="api.keys.key" defaultMessage="Key" /> },
          { label: <FormattedMessage id="api.keys.balance" defaultMessage="Balance" />, className: 'num' },
          { label: <FormattedMessage id="api.keys.createdAt" defaultMessage="Created" /> },
          { label: <FormattedMessage id="api.keys.state" defaultMessage="State" /> },
          { label: <FormattedMessage id="api.keys.signingSecret" defaultMessage="Signing secret" /> },
          { label: <FormattedMessage id="common.actions" defaultMessage="Actions" />, hidden: true },
        ]}
      />
      <tbody>
        {keys.map((k) => (
          <KeyRow key={k.id} k={k} actions={actions} />
        ))}
      </tbody>
    </table>
  );
}

function KeyRow({ k, actions }: { k: ApiKeyInfo; actions: KeyActions }) {
  const intl = useIntl();
  const session = useStudio((s) => s.session);
  return (
    <tr>
      <td>
        {k.name}
        {k.id === session?.key.id && (
          <span className="badge accent" style={{ marginLeft: 6 }}>
            <FormattedMessage id="api.keys.studio" defaultMessage="studio" />
          </span>
        )}
      </td>
      <td>
        <code>{k.prefix}…</code>
      </td>
      <td className="num">{formatCredits(k.balance)}</td>
      <td className="small">{formatTime(k.created_at)}</td>
      <td>
        {k.revoked_at ? (
          <span className="badge bad">
            <FormattedMessage id="api.keys.revoked" defaultMessage="revoked" />
          </span>
        ) : (
          <span className="badge ok">
            <FormattedMessage id="api.keys.active" defaultMessage="active" />
          </span>
        )}
      </td>
      <td>
        <SigningSecret k={k} onRotate={() => actions.rotate(k)} />
      </td>
      <td>
        {!k.revoked_at && (
          <button
            type="button"
            className="danger"
            onClick={() => actions.revoke(k)}
            aria-label={intl.formatMessage(
              { id: 'api.keys.revoke.label', defaultMessage: 'Revoke key {name} ({prefix})' },
              { name: k.name, prefix: k.prefix },
            )}
          >
            <FormattedMessage id="api.keys.revoke" defaultMessage="Revoke" />
          </button>
        )}
      </td>
    </tr>
  );
}

/** A key's signing secret, masked or whole, with Show/Hide, Copy and Rotate. */
function SigningSecret({ k, onRotate }: { k: ApiKeyInfo; onRotate(): void }) {
  const intl = useIntl();
  const shown = useStudio((s) => s.apiShownSecrets);
  const toggleSecret = useStudio((s) => s.toggleSigningSecret);
  return (
    <div className="copy-row" style={{ flexWrap: 'nowrap' }}>
      <code
        className="small"
        aria-label={intl.formatMessage(
          { id: 'api.keys.secretOf', defaultMessage: 'Signing secret of {name}' },
          { name: k.name },
        )}
      >
        {shown.has(k.id) ? k.signing_secret : masked(k.signing_secret)}
      </code>
      <button
        type="button"
        onClick={() => toggleSecret(k.id)}
        aria-label={
          shown.has(k.id)
            ? intl.formatMessage(
                {
                  id: 'api.keys.secret.hideOf',
                  defaultMessage: 'Hide the signing secret of {name}',
                },
                { name: k.name },
              )
            : intl.formatMessage(
                {
                  id: 'api.keys.secret.showOf',
                  defaultMessage: 'Show the signing secret of {name}',
                },
                { name: k.name },
              )
        }
      >
        {shown.has(k.id)
          ? intl.formatMessage({ id: 'api.keys.secret.hide', defaultMessage: 'Hide' })
          : intl.formatMessage({ id: 'api.keys.secret.show', defaultMessage: 'Show' })}
      </button>
      <CopyButton
        text={k.signing_secret}
        label={intl.formatMessage(
          { id: 'api.keys.secret.copy', defaultMessage: 'Copy the signing secret of {name}' },
          { name: k.name },
        )}
      />
      {!k.revoked_at && (
        <button
          type="button"
          onClick={onRotate}
          aria-label={intl.formatMessage(
            {
              id: 'api.keys.rotate.label',
              defaultMessage: 'Rotate the signing secret of {name} ({prefix})',
            },
            { name: k.name, prefix: k.prefix },
          )}
        >
          <FormattedMessage id="api.keys.rotate" defaultMessage="Rotate" />
        </button>
      )}
    </div>
  );
}
