import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './app/styles.css';
import { createApiClient } from './lib/api-client';
import { createStudioStore, StudioContext, type StoreDeps } from './stores';

const deps: StoreDeps = { client: createApiClient(), storage: window.localStorage };
const store = createStudioStore(deps);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StudioContext.Provider value={{ store, deps }}>
      <App />
    </StudioContext.Provider>
  </StrictMode>,
);
