import type { StoreApi } from 'zustand';
import type { StudioState } from './types';

/**
 * The errors a view shows about an action of its own (an import, a save, a load). One rule for
 * them all: an error belongs to the action that raised it and to the visit it was raised in, so
 * it goes when that action is taken again (each action clears its own as it starts) and when the
 * view changes (`clearErrorsOnViewChange`). The session's error is not one: the sign-in screen
 * says why it is shown, whatever the view.
 */
export const VIEW_ERRORS = [
  'projectsError',
  'projectError',
  'customVoicesError',
  'readingError',
  'serverSettingsError',
  'apiError',
  'apiCreditsError',
] as const satisfies readonly (keyof StudioState)[];

/** Clears every view's error when the studio moves to another view. */
export function clearErrorsOnViewChange(store: StoreApi<StudioState>): void {
  store.subscribe((state, previous) => {
    if (state.view === previous.view) return;
    const stale = VIEW_ERRORS.filter((name) => state[name] !== null);
    if (stale.length > 0) store.setState(Object.fromEntries(stale.map((name) => [name, null])));
  });
}
