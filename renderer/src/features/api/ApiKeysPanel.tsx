import { useId, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { CopyButton } from '../../components/CopyButton';
import { useStudio } from '../../stores';
import { ApiKeysTable, type KeyActions } from './ApiKeysTable';

/** The API keys panel: a new key's name and Create, the key created a moment ago, the keys' table. */
export function ApiKeysPanel({ actions }: { actions: KeyActions }) {
  const keys = useStudio((s) => s.apiKeys);
  return (
    <div className="panel">
      <div className="panel-head">
        <h2>
          <FormattedMessage id="api.keys.title" defaultMessage="API keys" />
        </h2>
      </div>
      <NewKeyForm />
      <CreatedKeyNotice />
      <p className="hint">
        <FormattedMessage
          id="api.keys.signingHint"
          defaultMessage="Each key signs its callbacks (the X-Narration-Signature header) with its own signing secret. Rotating one takes effect at once, with no overlap: every delivery from then on, retries included, is signed with the new secret alone, so a leaked secret stops working. Update the receiver, then resend what it refused (Callbacks page)."
        />
      </p>
      <ApiKeysTable keys={keys} actions={actions} />
    </div>
  );
}

/** The new key's name and Create. */
function NewKeyForm() {
  const intl = useIntl();
  const id = useId();
  const name = useStudio((s) => s.apiNewKeyName);
  const setName = useStudio((s) => s.setApiNewKeyName);
  const create = useStudio((s) => s.createApiKey);
  return (
    <div className="row" style={{ alignItems: 'end', marginBottom: 12 }}>
      <div className="field" style={{ margin: 0 }}>
        <label htmlFor={`${id}-name`}>
          <FormattedMessage id="api.keys.newName" defaultMessage="New key name" />
        </label>
        <input
          id={`${id}-name`}
          type="text"
          maxLength={100}
          placeholder={intl.formatMessage({
            id: 'api.keys.newName.placeholder',
            defaultMessage: 'e.g. my app',
          })}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <button type="button" className="primary" onClick={() => void create()}>
        <FormattedMessage id="api.keys.create" defaultMessage="Create key" />
      </button>
    </div>
  );
}

/** The key created a moment ago, its text shown once (until Done). */
function CreatedKeyNotice() {
  const intl = useIntl();
  const created = useStudio((s) => s.apiCreatedKey);
  const dismissCreated = useStudio((s) => s.dismissCreatedKey);
  if (!created) return null;
  return (
    <div className="notice" role="status" style={{ marginBottom: 12 }}>
      <p style={{ margin: '0 0 6px' }}>
        <FormattedMessage
          id="api.keys.created"
          defaultMessage="<b>New key “{name}”.</b> Copy it now: it is shown only once (the examples below use it until you press Done)."
          values={{ name: created.info.name, b: (chunks: ReactNode[]) => <b>{chunks}</b> }}
        />
      </p>
      <div className="copy-row">
        <code aria-label={intl.formatMessage({ id: 'api.keys.created.key', defaultMessage: 'New API key' })}>
          {created.key}
        </code>
        <CopyButton
          text={created.key}
          label={intl.formatMessage({
            id: 'api.keys.created.copy',
            defaultMessage: 'Copy new API key',
          })}
        />
        <button type="button" onClick={dismissCreated}>
          <FormattedMessage id="api.keys.created.done" defaultMessage="Done" />
        </button>
      </div>
    </div>
  );
}
