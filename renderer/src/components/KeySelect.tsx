import { useEffect, useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ApiKeyInfo } from '../../../electron/shared/api';
import { KEY_FILTER_ALL } from '../../../electron/shared/api';
import { useClient, useStudio } from '../stores';

/**
 * Which key's traffic a page shows (History, Callbacks, credits): the studio's own key (the
 * default), one app's key, or all keys. Sent as the `key` query of the list routes.
 */
export function KeySelect({
  value,
  onChange,
  keys,
}: {
  /** A key id or KEY_FILTER_ALL. */
  value: string;
  onChange(value: string): void;
  keys: readonly ApiKeyInfo[];
}) {
  const id = useId();
  const intl = useIntl();
  const studioKeyId = useStudio((s) => s.session?.key.id);
  return (
    <div className="field">
      <label htmlFor={id}>
        <FormattedMessage id="components.keySelect.label" defaultMessage="API key" />
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value={KEY_FILTER_ALL}>
          {intl.formatMessage({ id: 'components.keySelect.all', defaultMessage: 'All keys' })}
        </option>
        {keys.map((k) => (
          <option key={k.id} value={k.id}>
            {intl.formatMessage(
              {
                id: 'components.keySelect.option',
                defaultMessage:
                  '{name} ({prefix}…){studio, select, yes { · studio} other {}}{revoked, select, yes { · revoked} other {}}',
              },
              {
                name: k.name,
                prefix: k.prefix,
                studio: k.id === studioKeyId ? 'yes' : 'no',
                revoked: k.revoked_at ? 'yes' : 'no',
              },
            )}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The key selection of a page and the keys to choose from (read once when the page opens).
 * Starts on the studio's own key.
 */
export function useKeyFilter(): { key: string; setKey(value: string): void; keys: ApiKeyInfo[] } {
  const client = useClient();
  const studioKeyId = useStudio((s) => s.session?.key.id);
  const [keys, setKeys] = useState<ApiKeyInfo[]>([]);
  const [key, setKey] = useState<string>(studioKeyId ?? KEY_FILTER_ALL);
  useEffect(() => {
    let live = true;
    client.keys().then(
      (list) => {
        if (live) setKeys(list);
      },
      () => {
        // The page's own list call reports the error (signed out, server gone).
      },
    );
    return () => {
      live = false;
    };
  }, [client]);
  return { key, setKey, keys };
}

/** The name of the key `keyId` for a table cell (its id when the list has not loaded). */
export function keyName(keys: readonly ApiKeyInfo[], keyId: string): string {
  const k = keys.find((x) => x.id === keyId);
  return k ? `${k.name} (${k.prefix}…)` : keyId;
}
