/** The studio store's shape: one zustand store built from typed slices (ARCHITECTURE.md). */

import type { StateCreator } from 'zustand';
import type { ApiClient } from '../lib/api-client';
import type { ApiViewSlice } from './api-view-slice';
import type { ComposeSlice } from './compose-slice';
import type { CustomVoicesSlice } from './custom-voices-slice';
import type { ExportSlice } from './export-slice';
import type { JobSlice } from './job-slice';
import type { OptionsSlice } from './options-slice';
import type { ProjectsSlice } from './projects-slice';
import type { ReadingSlice } from './reading-slice';
import type { ServerSettingsSlice } from './server-settings-slice';
import type { SessionSlice } from './session-slice';
import type { UiSlice } from './ui-slice';
import type { VoicePacksSlice } from './voice-packs-slice';
import type { WorkbenchSlice } from './workbench-slice';

export type StudioState = SessionSlice &
  ComposeSlice &
  OptionsSlice &
  JobSlice &
  ExportSlice &
  UiSlice &
  VoicePacksSlice &
  ProjectsSlice &
  CustomVoicesSlice &
  WorkbenchSlice &
  ServerSettingsSlice &
  ApiViewSlice &
  ReadingSlice;

/** What slices need from outside: the API client, somewhere to keep drafts, timers. */
export interface StoreDeps {
  client: ApiClient;
  /** localStorage in the browser; a Map-backed stand-in in tests. */
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  /** The token of the sign-in address this page was opened with (`/?token=…`), spent once. */
  signInToken?: string;
  /**
   * A fresh sign-in token from the desktop shell (the Electron window only): the window signs
   * itself in again when its session ended (idle, or a restart of the server).
   */
  desktopSignInToken?: () => Promise<string>;
  /**
   * The browser's preferred languages (`navigator.languages`): with the interface language the
   * user chose, they pick a fresh studio's first voice (none: English).
   */
  languages?: readonly string[];
  /** Progress polling interval, ms (default 250). */
  pollMs?: number;
  /** Draft save delay after the last keystroke, ms (default 300). */
  saveDelayMs?: number;
}

export type SliceCreator<T> = (deps: StoreDeps) => StateCreator<StudioState, [], [], T>;

/** JSON from storage, or undefined when missing or unreadable. */
export function readJson<T>(storage: StoreDeps['storage'], key: string): T | undefined {
  try {
    const text = storage.getItem(key);
    return text === null ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}
