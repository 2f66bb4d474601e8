import type { ButtonHTMLAttributes, Ref } from 'react';

export interface BusyButtonProps extends Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'disabled' | 'aria-disabled' | 'aria-busy'
> {
  /** Its action is running: announced as busy, and clicks wait until it is done. */
  busy?: boolean;
  /** It cannot act now (nothing to act on): announced as unavailable, clicks ignored. */
  unavailable?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

/**
 * A button that keeps the keyboard focus while it cannot act. A `disabled` button loses the
 * focus the moment it is disabled (the page's body gets it), so a button that disables itself
 * under the person who pressed it uses this instead: `aria-disabled` (and `aria-busy` while its
 * action runs), clicks, Enter and Space ignored meanwhile, and the disabled look from the CSS on
 * `[aria-disabled='true']`. The one way to do it in the studio.
 */
export function BusyButton({
  busy = false,
  unavailable = false,
  onClick,
  type = 'button',
  ...rest
}: BusyButtonProps) {
  const inactive = busy || unavailable;
  return (
    <button
      type={type}
      {...rest}
      aria-disabled={inactive || undefined}
      aria-busy={busy || undefined}
      onClick={(e) => {
        // A submit button's click would still submit its form: stopped here too.
        if (inactive) e.preventDefault();
        else onClick?.(e);
      }}
    />
  );
}
