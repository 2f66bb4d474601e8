import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { ApiKeyInfo } from '../../../../electron/shared/api';
import type { ConfirmRequest } from '../../components/ConfirmDialog';
import { formatCredits } from '../../lib/format';
import { useStudio } from '../../stores';

/** A question of the confirm dialog, and what its confirm button does. */
export interface KeyQuestion {
  request: ConfirmRequest;
  go(): Promise<void>;
}

/**
 * The questions the keys' table asks before rotating a signing secret or revoking a key (the
 * studio's own key signs the studio out, and says so first); `question` is the one open.
 */
export function useKeyQuestions() {
  const intl = useIntl();
  const session = useStudio((s) => s.session);
  const rotateSecret = useStudio((s) => s.rotateSigningSecret);
  const revokeKey = useStudio((s) => s.revokeApiKey);
  const [question, setQuestion] = useState<KeyQuestion | null>(null);
  const rotate = (key: ApiKeyInfo) =>
    setQuestion({
      request: {
        title: intl.formatMessage({
          id: 'api.keys.rotate.title',
          defaultMessage: 'Rotate the signing secret?',
        }),
        message: intl.formatMessage(
          {
            id: 'api.keys.rotate.confirm',
            defaultMessage:
              'Rotate the signing secret of "{name}" ({prefix}…)? Callbacks delivered from now on are signed with the new secret only: update the receiver, then resend what it refused.',
          },
          { name: key.name, prefix: key.prefix },
        ),
        confirmLabel: intl.formatMessage({ id: 'api.keys.rotate.go', defaultMessage: 'Rotate secret' }),
      },
      go: () => rotateSecret(key.id),
    });
  const revoke = (key: ApiKeyInfo) => {
    const values = { name: key.name, prefix: key.prefix, balance: formatCredits(key.balance) };
    // The key the studio signs in with: revoking it signs the studio out, and says so first.
    const studios = key.id === session?.key.id;
    setQuestion({
      request: {
        title: studios
          ? intl.formatMessage({
              id: 'api.keys.revoke.studio.title',
              defaultMessage: "Revoke the studio's key?",
            })
          : intl.formatMessage({ id: 'api.keys.revoke.title', defaultMessage: 'Revoke this key?' }),
        message: !studios
          ? intl.formatMessage(
              {
                id: 'api.keys.revoke.confirm',
                defaultMessage: 'Revoke "{name}" ({prefix}…)? Apps using it stop working at once.',
              },
              values,
            )
          : key.studio
            ? intl.formatMessage(
                {
                  id: 'api.keys.revoke.studio.moves',
                  defaultMessage:
                    '"{name}" ({prefix}…) is the key this studio works with. Revoking it signs the studio out at once, and apps using it stop working. When you sign in again, the studio gets a new key and the {balance} credits left on this one move to it.',
                },
                values,
              )
            : intl.formatMessage(
                {
                  id: 'api.keys.revoke.studio.stays',
                  defaultMessage:
                    '"{name}" ({prefix}…) is the key this studio works with. Revoking it signs the studio out at once, and apps using it stop working. When you sign in again, the studio works with another key; the {balance} credits left on this one stay on it (the studio did not make it).',
                },
                values,
              ),
        confirmLabel: studios
          ? intl.formatMessage({ id: 'api.keys.revoke.studio.go', defaultMessage: 'Revoke and sign out' })
          : intl.formatMessage({ id: 'api.keys.revoke.go', defaultMessage: 'Revoke key' }),
      },
      go: () => revokeKey(key.id),
    });
  };
  return { question, setQuestion, rotate, revoke };
}
