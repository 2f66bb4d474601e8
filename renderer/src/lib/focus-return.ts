import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE =
  'input:not([type="hidden"]):not([disabled]):not([tabindex="-1"]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), [href], [tabindex]:not([tabindex="-1"])';

/** Whether the keyboard focus is lost: on the page's body, or on nothing. */
export function focusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || !active.isConnected;
}

/** Focuses `target` when the focus is lost (its holder went away); leaves a focus the person moved. */
export function refocus(target: HTMLElement | null | undefined): void {
  if (target && focusLost()) target.focus();
}

/**
 * Focus for an inline form or a dialog that is not a <dialog>: when `open` turns true, the focus
 * moves to `into` when it is a field or button, else to the first field or button inside it; when it turns false, it goes back to what had
 * it before (the button that opened it), or to `fallback` when that is gone, unless the person
 * has moved it elsewhere meanwhile.
 */
export function useFocusReturn(
  open: boolean,
  into: RefObject<HTMLElement | null>,
  fallback?: RefObject<HTMLElement | null>,
): void {
  const opener = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open && !wasOpen.current) {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      const container = into.current;
      if (container && !container.contains(document.activeElement)) {
        (container.matches(FOCUSABLE) ? container : container.querySelector<HTMLElement>(FOCUSABLE))?.focus();
      }
    } else if (!open && wasOpen.current) {
      const back = opener.current?.isConnected ? opener.current : fallback?.current;
      opener.current = null;
      refocus(back);
    }
    wasOpen.current = open;
  });
}

/**
 * For an action that removes the focused control with what it acts on (a deleted project's
 * card, a removed entry's row): call the returned function before the action; after the next
 * render in which `list` has changed, `target` takes the focus if it was lost meanwhile.
 */
export function useFocusAfterRemoval(list: unknown, target: RefObject<HTMLElement | null>): () => void {
  const armed = useRef(false);
  useEffect(() => {
    if (armed.current && focusLost()) {
      armed.current = false;
      target.current?.focus();
    }
  }, [list, target]);
  return () => {
    armed.current = true;
  };
}

/**
 * A modal <dialog> shown while `open` (showModal: the focus stays inside, Escape cancels): the
 * focus moves to `initial` when it opens, and back to what had it before when it closes.
 */
export function useModalDialog(
  open: boolean,
  dialog: RefObject<HTMLDialogElement | null>,
  initial: RefObject<HTMLElement | null>,
): void {
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement ? active : null;
      element.showModal();
      initial.current?.focus();
    } else if (!open && element.open) {
      element.close();
    }
    if (!open && opener.current) {
      if (opener.current.isConnected) refocus(opener.current);
      opener.current = null;
    }
  }, [open, dialog, initial]);
}
