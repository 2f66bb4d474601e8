import { useId, useRef } from 'react';
import { FormattedMessage } from 'react-intl';
import { useModalDialog } from '../lib/focus-return';

export interface ConfirmRequest {
  title: string;
  message: string;
  /** The button that goes ahead, named after what it does ("Clear draft"). */
  confirmLabel: string;
}

/**
 * A modal question (the platform's <dialog>, shown with showModal: focus stays inside, Escape
 * cancels) with a Cancel button and one that goes ahead. Cancel has the focus: the safe choice
 * is the one Enter takes.
 */
export function ConfirmDialog({
  request,
  onConfirm,
  onCancel,
}: {
  request: ConfirmRequest | null;
  onConfirm(): void;
  onCancel(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const id = useId();
  useModalDialog(request !== null, dialog, cancelButton);

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-message`}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      {request && (
        <>
          <h2 id={`${id}-title`}>{request.title}</h2>
          <p id={`${id}-message`}>{request.message}</p>
          <div className="row confirm-actions">
            <button ref={cancelButton} type="button" onClick={onCancel}>
              <FormattedMessage id="common.cancel" defaultMessage="Cancel" />
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => {
                // Closed first: while a modal dialog is open, the page behind it cannot take focus or edits.
                dialog.current?.close();
                onConfirm();
              }}
            >
              {request.confirmLabel}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
