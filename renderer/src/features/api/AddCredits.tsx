import { useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ApiKeyInfo } from '../../../../electron/shared/api';
import { useStudio } from '../../stores';
import { creditsProblem, MAX_CREDITS_ADDED } from '../../stores/api-view-slice';

/**
 * Adds whole credits to a live key (POST /api/v1/keys/<id>/credits): the key shown in the ledger,
 * else the studio's own. The keys, the ledger and the sidebar's balance follow (api-view-slice.ts).
 */
export function AddCredits({
  keys,
  defaultKey,
}: {
  keys: readonly ApiKeyInfo[];
  defaultKey: string | undefined;
}) {
  const intl = useIntl();
  const id = useId();
  const live = keys.filter((k) => !k.revoked_at);
  const studioKeyId = useStudio((s) => s.session?.key.id);
  const chosen = useStudio((s) => s.apiCreditsTo);
  const setChosen = useStudio((s) => s.chooseCreditsKey);
  const keyId = chosen ?? (live.some((k) => k.id === defaultKey) ? defaultKey : live[0]?.id);
  const amount = useStudio((s) => s.apiCreditsAmount);
  const editAmount = useStudio((s) => s.editCreditsAmount);
  const busy = useStudio((s) => s.apiCreditsAdding);
  const problem = useStudio((s) => s.apiCreditsError);
  const added = useStudio((s) => s.apiCreditsAdded);
  const addCredits = useStudio((s) => s.addCredits);

  const credits = Number(amount);
  const wrong = creditsProblem(amount);
  const invalid =
    wrong === 'not-whole'
      ? intl.formatMessage({
          id: 'api.credits.add.notWhole',
          defaultMessage: 'Enter a whole number of credits above 0.',
        })
      : wrong === 'too-many'
        ? intl.formatMessage(
            { id: 'api.credits.add.tooMany', defaultMessage: 'At most {max, number} credits at a time.' },
            { max: MAX_CREDITS_ADDED },
          )
        : null;
  const done =
    added &&
    intl.formatMessage(
      {
        id: 'api.credits.add.done',
        defaultMessage:
          'Added {credits, plural, one {# credit} other {# credits}} to {name}: balance {balance, plural, one {# credit} other {# credits}}.',
      },
      { credits: added.credits, name: added.name, balance: added.balance },
    );

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!keyId || invalid || amount.trim() === '') return;
    await addCredits(keyId, credits);
  };

  if (live.length === 0) return null;
  return (
    <form
      className="add-credits"
      onSubmit={(e) => void submit(e)}
      aria-label={intl.formatMessage({ id: 'api.credits.add', defaultMessage: 'Add credits' })}
    >
      <h3>
        <FormattedMessage id="api.credits.add" defaultMessage="Add credits" />
      </h3>
      <div className="add-credits-row">
        <div className="field">
          <label htmlFor={`${id}-key`}>
            <FormattedMessage id="api.credits.add.key" defaultMessage="To key" />
          </label>
          <select id={`${id}-key`} value={keyId} onChange={(e) => setChosen(e.target.value)}>
            {live.map((k) => (
              <option key={k.id} value={k.id}>
                {k.id === studioKeyId
                  ? intl.formatMessage(
                      { id: 'api.credits.add.studioKey', defaultMessage: '{name} ({prefix}…) · studio' },
                      { name: k.name, prefix: k.prefix },
                    )
                  : intl.formatMessage(
                      { id: 'api.credits.add.keyOption', defaultMessage: '{name} ({prefix}…)' },
                      { name: k.name, prefix: k.prefix },
                    )}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-credits`}>
            <FormattedMessage id="api.credits.title" defaultMessage="Credits" />
          </label>
          <input
            id={`${id}-credits`}
            inputMode="numeric"
            value={amount}
            onChange={(e) => editAmount(e.target.value)}
            // eslint-disable-next-line messages/no-words-in-jsx -- a number, no words
            placeholder="1000"
            aria-invalid={invalid ? true : undefined}
            aria-describedby={invalid ? `${id}-invalid` : undefined}
          />
        </div>
        <button type="submit" disabled={busy || !keyId || amount.trim() === '' || invalid !== null}>
          {busy
            ? intl.formatMessage({ id: 'api.credits.add.adding', defaultMessage: 'Adding…' })
            : intl.formatMessage({ id: 'api.credits.add', defaultMessage: 'Add credits' })}
        </button>
      </div>
      {invalid && (
        <p id={`${id}-invalid`} className="error small">
          {invalid}
        </p>
      )}
      {problem && (
        <p className="error small" role="alert">
          {problem}
        </p>
      )}
      {done && (
        <p className="muted small" role="status">
          {done}
        </p>
      )}
    </form>
  );
}
