import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './app/styles.css';
import { I18nProvider } from './i18n/I18nProvider';
import { createApiClient, studioBase } from './lib/api-client';
import { getDesktop } from './lib/desktop';
import { createStudioStore, StudioContext, type StoreDeps } from './stores';

// A sign-in address (`/?token=…`) works once: the token is spent by the first check of the
// session and leaves the address bar at once.
const signInToken = new URLSearchParams(window.location.search).get('token') ?? undefined;
// The view's address (the hash, lib/address.ts) stays, and so does the page's path (a reverse
// proxy's sub-path, e.g. /tts/).
if (signInToken !== undefined)
  window.history.replaceState(null, '', `${window.location.pathname}${window.location.hash}`);
const desktop = getDesktop();
const deps: StoreDeps = {
  // The session's value lives in this origin's own storage (a page of another port cannot read it).
  // API calls, audio and the event stream go to the folder the page came from (the server's
  // root, or a reverse proxy's sub-path).
  client: createApiClient({ baseUrl: studioBase(document.baseURI), sessionStorage: window.localStorage }),
  storage: window.localStorage,
  languages: navigator.languages,
  ...(signInToken ? { signInToken } : {}),
  ...(desktop ? { desktopSignInToken: async () => (await desktop.getServerInfo()).loginToken } : {}),
};
const store = createStudioStore(deps);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StudioContext.Provider value={{ store, deps }}>
      <I18nProvider>
        <App />
      </I18nProvider>
    </StudioContext.Provider>
  </StrictMode>,
);
