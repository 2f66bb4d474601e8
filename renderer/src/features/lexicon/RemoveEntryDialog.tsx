import { useIntl } from 'react-intl';
import type { LexiconEntry } from '../../../../electron/shared/lexicon';
import { ConfirmDialog } from '../../components/ConfirmDialog';

/** Asks before an entry's pronunciation is removed (`entry` null: closed). */
export function RemoveEntryDialog({
  entry,
  onConfirm,
  onCancel,
}: {
  entry: LexiconEntry | null;
  onConfirm(entry: LexiconEntry): void;
  onCancel(): void;
}) {
  const intl = useIntl();
  return (
    <ConfirmDialog
      request={
        entry && {
          title: intl.formatMessage(
            { id: 'lexicon.confirmRemove', defaultMessage: 'Remove the pronunciation of “{match}”?' },
            { match: entry.match },
          ),
          message: intl.formatMessage(
            {
              id: 'lexicon.confirmRemove.message',
              defaultMessage: 'Every voice will read “{match}” by its own rules again.',
            },
            { match: entry.match },
          ),
          confirmLabel: intl.formatMessage({ id: 'common.remove', defaultMessage: 'Remove' }),
        }
      }
      onConfirm={() => entry && onConfirm(entry)}
      onCancel={onCancel}
    />
  );
}
