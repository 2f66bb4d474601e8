/**
 * The studio store: slices combined into one zustand store. Created per app (and per test)
 * with its dependencies; components read it through `useStudio`.
 */

import { createContext, useContext, useMemo } from 'react';
import { createStore, useStore, type StoreApi } from 'zustand';
import { createApiViewSlice } from './api-view-slice';
import { createComposeSlice } from './compose-slice';
import { createCustomVoicesSlice } from './custom-voices-slice';
import { createExportSlice } from './export-slice';
import { createJobSlice } from './job-slice';
import { createOptionsSlice } from './options-slice';
import { createProjectsSlice } from './projects-slice';
import { createProjectsApi, type ProjectsApi } from '../lib/projects-api';
import { createReadingSlice } from './reading-slice';
import { createServerSettingsSlice } from './server-settings-slice';
import { createSessionSlice } from './session-slice';
import type { StoreDeps, StudioState } from './types';
import { createUiSlice } from './ui-slice';
import { clearErrorsOnViewChange } from './view-errors';
import { createVoicePacksSlice } from './voice-packs-slice';
import { createWorkbenchSlice } from './workbench-slice';

export type { StoreDeps, StudioState } from './types';
export type StudioStore = StoreApi<StudioState>;

export function createStudioStore(deps: StoreDeps): StudioStore {
  const store = createStore<StudioState>()((...a) => ({
    ...createSessionSlice(deps)(...a),
    ...createComposeSlice(deps)(...a),
    ...createOptionsSlice(deps)(...a),
    ...createJobSlice(deps)(...a),
    ...createExportSlice(deps)(...a),
    ...createUiSlice(deps)(...a),
    ...createVoicePacksSlice(deps)(...a),
    ...createProjectsSlice(deps)(...a),
    ...createCustomVoicesSlice(deps)(...a),
    ...createWorkbenchSlice(deps)(...a),
    ...createServerSettingsSlice(deps)(...a),
    ...createApiViewSlice(deps)(...a),
    ...createReadingSlice(deps)(...a),
  }));
  clearErrorsOnViewChange(store);
  return store;
}

export const StudioContext = createContext<{ store: StudioStore; deps: StoreDeps } | null>(null);

function useStudioContext() {
  const context = useContext(StudioContext);
  if (!context) throw new Error('useStudio must be used inside <StudioContext.Provider>');
  return context;
}

/** Reads a slice of the studio store; re-renders only when the selected value changes. */
export function useStudio<T>(selector: (state: StudioState) => T): T {
  return useStore(useStudioContext().store, selector);
}

/** The API client, for views that load their own lists (history, keys). */
export function useClient() {
  return useStudioContext().deps.client;
}

/** The book projects' routes, for views that read their own data (audio, timings, changes, exports). */
export function useProjectsApi(): ProjectsApi {
  const client = useClient();
  return useMemo(() => createProjectsApi(client), [client]);
}
