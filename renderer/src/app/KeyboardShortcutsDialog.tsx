import { Fragment, useId, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useModalDialog } from '../lib/focus-return';
import { comboKeys, SHORTCUTS } from '../lib/shortcuts';

/**
 * The keyboard shortcuts (lib/shortcuts.ts's map, the one the views' handlers use), in a modal
 * <dialog> as ConfirmDialog does it: the Close button takes the focus, Escape closes, and the
 * focus goes back to what had it when the dialog opened (the `?` key's field or the sidebar's entry).
 */
export function KeyboardShortcutsDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const id = useId();
  const intl = useIntl();
  useModalDialog(open, dialog, closeButton);

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog shortcuts-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <h2 id={`${id}-title`}>
            <FormattedMessage id="shortcuts.title" defaultMessage="Keyboard shortcuts" />
          </h2>
          <table className="data shortcuts-table">
            <thead>
              <tr>
                <th scope="col">
                  <FormattedMessage id="shortcuts.column.keys" defaultMessage="Keys" />
                </th>
                <th scope="col">
                  <FormattedMessage id="shortcuts.column.does" defaultMessage="What it does" />
                </th>
                <th scope="col">
                  <FormattedMessage id="shortcuts.column.where" defaultMessage="Where" />
                </th>
              </tr>
            </thead>
            <tbody>
              {SHORTCUTS.map((s) => (
                <tr key={s.id} data-shortcut={s.id}>
                  <td className="shortcut-keys">
                    {s.keys.map((combo, i) => (
                      <Fragment key={i}>
                        {i > 0 && (
                          <span className="muted">
                            {' '}
                            <FormattedMessage id="shortcuts.or" defaultMessage="or" />{' '}
                          </span>
                        )}
                        {comboKeys(combo).map((key, k) => (
                          <Fragment key={k}>
                            {k > 0 && '+'}
                            <kbd>{key}</kbd>
                          </Fragment>
                        ))}
                      </Fragment>
                    ))}
                  </td>
                  <td>{intl.formatMessage(s.does)}</td>
                  <td className="muted">{intl.formatMessage(s.where)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="row confirm-actions">
            <button ref={closeButton} type="button" onClick={onClose}>
              <FormattedMessage id="shortcuts.close" defaultMessage="Close" />
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
