/**
 * Addresses of the studio's views and open items, kept in the URL's hash:
 *
 *   #/studio  #/voices  #/export  …     a view (the names of ui-slice's VIEWS)
 *   #/projects/<project id>             an open project
 *   #/history/<request id>              a request selected in History
 *
 * Hash addresses, because the server sends index.html for `/` only (a deep path is a 404) and
 * the desktop window loads the same page from the same server: the part after `#` never reaches
 * a server, so every address works on reload in a browser and in the window alike.
 *
 * This file is the one place that reads and writes the address: parseAddress/formatAddress turn
 * one into the other, and connectAddress keeps the store and the browser's history in step
 * (a history entry per navigation, Back and Forward applied back to the store). Views only call
 * the store's actions (setView, openProject, selectRequest).
 */

import { VIEWS, type View } from '../stores/ui-slice';

export interface Address {
  view: View;
  /** With view 'projects': the open project. */
  projectId?: string;
  /** With view 'history': the selected request. */
  requestId?: string;
}

/** Where an empty or unreadable address leads. */
export const HOME: Address = { view: 'studio' };

const isView = (name: string): name is View => (VIEWS as readonly string[]).includes(name);

/**
 * The address a hash names (`#/projects/abc`, `#/export`, `''`); null when it names no view of
 * the studio. An empty hash is the home view.
 */
export function parseAddress(hash: string): Address | null {
  const path = hash.replace(/^#/, '').replace(/^\/+/, '').replace(/\/+$/, '');
  if (path === '') return HOME;
  const parts = path.split('/');
  const [name, item, ...rest] = parts;
  if (name === undefined || !isView(name) || rest.length > 0) return null;
  if (item === undefined) return { view: name };
  let id: string;
  try {
    id = decodeURIComponent(item);
  } catch {
    return null;
  }
  if (id === '') return { view: name };
  if (name === 'projects') return { view: name, projectId: id };
  if (name === 'history') return { view: name, requestId: id };
  return null;
}

/** The hash of an address: `#/export`, `#/projects/<id>`, `#/history/<id>`. */
export function formatAddress(address: Address): string {
  const id =
    address.view === 'projects'
      ? address.projectId
      : address.view === 'history'
        ? address.requestId
        : undefined;
  return id ? `#/${address.view}/${encodeURIComponent(id)}` : `#/${address.view}`;
}

/** What the store holds that makes up the address. */
export interface AddressState {
  view: View;
  openProjectId: string | null;
  historyRequestId: string | null;
}

/** The address of what the store shows. */
export function addressOf(state: AddressState): Address {
  if (state.view === 'projects' && state.openProjectId)
    return { view: 'projects', projectId: state.openProjectId };
  if (state.view === 'history' && state.historyRequestId)
    return { view: 'history', requestId: state.historyRequestId };
  return { view: state.view };
}

/** Two addresses that name the same place. */
export const sameAddress = (a: Address, b: Address): boolean => formatAddress(a) === formatAddress(b);

/** The store as connectAddress needs it (the studio store, or a stand-in in tests). */
export interface AddressStore {
  getState(): AddressState & {
    setView(view: View): void;
    selectRequest(id: string | null): void;
    openProject(id: string): Promise<void>;
    closeProject(): void;
  };
  subscribe(listener: (state: AddressState) => void): () => void;
}

/** The browser as connectAddress needs it: window.location and window.history, and popstate. */
export interface AddressWindow {
  location: { hash: string; pathname: string; search: string };
  history: Pick<History, 'pushState' | 'replaceState'>;
  addEventListener(type: 'popstate', listener: () => void): void;
  removeEventListener(type: 'popstate', listener: () => void): void;
}

/**
 * Makes the store show what the address names (a view, an open project, a selected request),
 * without touching what it already shows.
 */
export function applyAddress(store: AddressStore, address: Address): void {
  const state = store.getState();
  if (address.view === 'projects') {
    if (address.projectId && address.projectId !== state.openProjectId)
      void state.openProject(address.projectId).catch(() => undefined);
    else if (!address.projectId && state.openProjectId) state.closeProject();
  }
  if (address.view === 'history') {
    const id = address.requestId ?? null;
    if (id !== state.historyRequestId) state.selectRequest(id);
  }
  if (store.getState().view !== address.view) store.getState().setView(address.view);
}

/**
 * Keeps the store and the address in step from now on: reads the current address into the store
 * (an address that names nothing becomes the home view's, replacing it), pushes a history entry
 * whenever what the store shows moves elsewhere, and applies Back and Forward (popstate) to the
 * store. Returns the function that stops it.
 */
export function connectAddress(store: AddressStore, win: AddressWindow): () => void {
  const here = () => `${win.location.pathname}${win.location.search}`;
  const current = () => parseAddress(win.location.hash);

  // While an address is applied, the store passes through states that are neither the old
  // address nor the new one: no entries for those.
  let applying = false;
  const apply = (address: Address) => {
    applying = true;
    try {
      applyAddress(store, address);
    } finally {
      applying = false;
    }
  };

  const start = current();
  if (start === null) win.history.replaceState(null, '', `${here()}${formatAddress(HOME)}`);
  apply(start ?? HOME);

  const unsubscribe = store.subscribe((state) => {
    if (applying) return;
    const shown = addressOf(state);
    const named = current();
    if (named !== null && sameAddress(shown, named)) return;
    // The home view at the bare address needs no entry of its own.
    if (win.location.hash === '' && sameAddress(shown, HOME)) return;
    win.history.pushState(null, '', `${here()}${formatAddress(shown)}`);
  });
  const onPopState = () => {
    const named = current();
    if (named === null) {
      win.history.replaceState(null, '', `${here()}${formatAddress(HOME)}`);
      apply(HOME);
    } else apply(named);
  };
  win.addEventListener('popstate', onPopState);
  return () => {
    unsubscribe();
    win.removeEventListener('popstate', onPopState);
  };
}
