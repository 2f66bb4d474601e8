import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand';
import {
  addressOf,
  connectAddress,
  formatAddress,
  parseAddress,
  type AddressState,
  type AddressStore,
  type AddressWindow,
} from '../../renderer/src/lib/address';
import { VIEWS, type View } from '../../renderer/src/stores/ui-slice';

describe('parseAddress and formatAddress', () => {
  it('reads every view, an open project and a selected request', () => {
    for (const view of VIEWS) {
      expect(parseAddress(`#/${view}`)).toEqual({ view });
      expect(formatAddress({ view })).toBe(`#/${view}`);
    }
    expect(parseAddress('#/projects/abc123')).toEqual({ view: 'projects', projectId: 'abc123' });
    expect(parseAddress('#/history/f00d')).toEqual({ view: 'history', requestId: 'f00d' });
    expect(formatAddress({ view: 'projects', projectId: 'abc123' })).toBe('#/projects/abc123');
    expect(formatAddress({ view: 'history', requestId: 'f00d' })).toBe('#/history/f00d');
  });

  it('an empty address is the Studio; slashes around it do not matter', () => {
    expect(parseAddress('')).toEqual({ view: 'studio' });
    expect(parseAddress('#')).toEqual({ view: 'studio' });
    expect(parseAddress('#/')).toEqual({ view: 'studio' });
    expect(parseAddress('#export/')).toEqual({ view: 'export' });
    expect(parseAddress('#/projects/')).toEqual({ view: 'projects' });
  });

  it('names nothing for an unknown view, an item of a view without items, or a deeper path', () => {
    expect(parseAddress('#/nowhere')).toBeNull();
    expect(parseAddress('#/Export')).toBeNull();
    expect(parseAddress('#/export/abc')).toBeNull();
    expect(parseAddress('#/projects/abc/chapters')).toBeNull();
    expect(parseAddress('#/history/%E0%A4%A')).toBeNull();
  });

  it('encodes an id and reads it back', () => {
    const odd = 'a b/c?d#é';
    const hash = formatAddress({ view: 'projects', projectId: odd });
    expect(hash).toBe('#/projects/a%20b%2Fc%3Fd%23%C3%A9');
    expect(parseAddress(hash)).toEqual({ view: 'projects', projectId: odd });
  });

  it('the address of what the store shows', () => {
    const base: AddressState = { view: 'studio', openProjectId: 'p1', historyRequestId: 'r1' };
    expect(addressOf(base)).toEqual({ view: 'studio' });
    expect(addressOf({ ...base, view: 'projects' })).toEqual({ view: 'projects', projectId: 'p1' });
    expect(addressOf({ ...base, view: 'history' })).toEqual({ view: 'history', requestId: 'r1' });
    expect(addressOf({ ...base, view: 'projects', openProjectId: null })).toEqual({ view: 'projects' });
  });
});

/** The store's address fields and actions, as the studio store has them. */
function addressStore(): AddressStore & { opened: string[] } {
  const opened: string[] = [];
  const store = createStore<ReturnType<AddressStore['getState']>>()((set) => ({
    view: 'studio',
    openProjectId: null,
    historyRequestId: null,
    setView: (view: View) => set({ view }),
    selectRequest: (id) => set({ historyRequestId: id }),
    openProject: async (id) => {
      opened.push(id);
      set({ view: 'projects', openProjectId: id });
    },
    closeProject: () => set({ openProjectId: null }),
  }));
  return Object.assign(store, { opened });
}

/** A browser history in memory: entries, the current one, and popstate on back/forward. */
function memoryWindow(hash = '') {
  const entries = [hash];
  let index = 0;
  const listeners = new Set<() => void>();
  const location = { hash, pathname: '/', search: '' };
  const go = (to: number) => {
    index = to;
    location.hash = entries[index]!;
    for (const listener of listeners) listener();
  };
  const hashOf = (url: string | URL | null | undefined) => new URL(String(url), 'http://x/').hash;
  const win: AddressWindow & { entries: string[]; back(): void; forward(): void; index(): number } = {
    location,
    history: {
      pushState(_data, _unused, url) {
        entries.splice(index + 1, entries.length, hashOf(url));
        index++;
        location.hash = entries[index]!;
      },
      replaceState(_data, _unused, url) {
        entries[index] = hashOf(url);
        location.hash = entries[index]!;
      },
    },
    addEventListener: (_type, listener) => void listeners.add(listener),
    removeEventListener: (_type, listener) => void listeners.delete(listener),
    entries,
    back: () => go(index - 1),
    forward: () => go(index + 1),
    index: () => index,
  };
  return win;
}

describe('connectAddress', () => {
  it('opens what the address names, then pushes one entry per navigation', () => {
    const store = addressStore();
    const win = memoryWindow('#/projects/p1');
    connectAddress(store, win);
    expect(store.opened).toEqual(['p1']);
    expect(store.getState().view).toBe('projects');
    expect(win.entries).toEqual(['#/projects/p1']);

    store.getState().setView('export');
    store.getState().setView('history');
    store.getState().selectRequest('r9');
    expect(win.entries).toEqual(['#/projects/p1', '#/export', '#/history', '#/history/r9']);
    // A change that does not move the address adds nothing.
    store.getState().setView('history');
    expect(win.entries).toHaveLength(4);
  });

  it('Back and Forward show the entry again without adding entries', () => {
    const store = addressStore();
    const win = memoryWindow('');
    connectAddress(store, win);
    expect(win.entries).toEqual(['']);
    store.getState().setView('export');
    store.getState().setView('voices');
    win.back();
    expect(store.getState().view).toBe('export');
    win.back();
    expect(store.getState().view).toBe('studio');
    win.forward();
    win.forward();
    expect(store.getState().view).toBe('voices');
    expect(win.entries).toEqual(['', '#/export', '#/voices']);

    // Back from a project to the list closes it; Forward opens it again.
    void store.getState().openProject('p2');
    store.getState().closeProject();
    expect(win.entries.slice(3)).toEqual(['#/projects/p2', '#/projects']);
    win.back();
    expect(store.getState().openProjectId).toBe('p2');
    win.back();
    expect(store.getState()).toMatchObject({ view: 'voices', openProjectId: 'p2' });
    win.forward();
    win.forward();
    expect(store.getState()).toMatchObject({ view: 'projects', openProjectId: null });
    // Going from the Studio to a selected request does not leave an entry on the way.
    const length = win.entries.length;
    win.location.hash = '#/history/r1';
    win.entries[win.index()] = '#/history/r1';
    win.back();
    win.forward();
    expect(store.getState()).toMatchObject({ view: 'history', historyRequestId: 'r1' });
    expect(win.entries).toHaveLength(length);
  });

  it('an address that names nothing is replaced by the Studio’s; stopping ends both directions', () => {
    const store = addressStore();
    const win = memoryWindow('#/nowhere');
    const stop = connectAddress(store, win);
    expect(win.entries).toEqual(['#/studio']);
    expect(store.getState().view).toBe('studio');
    stop();
    store.getState().setView('api');
    expect(win.entries).toEqual(['#/studio']);
  });
});
