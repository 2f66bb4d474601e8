/**
 * The Settings view's server form (ServerSettingsPanel): the shared settings file as read, the
 * fields as typed, their problems, and saving. Read afresh each time the panel opens.
 */

import type { ServerSettings } from '../../../electron/shared/api';
import { checkServerSettings, type ServerSettingsProblem } from '../../../electron/shared/settings';
import type { UnknownVoicePolicy } from '../../../electron/shared/voice-mapping';
import { aliasRowsOf, type AliasRow } from '../features/settings/VoiceMappingFields';
import { ApiError, errorMessage } from '../lib/api-client';
import type { SliceCreator } from './types';

/** What closing the desktop window does, as the Settings view offers it (labels in the view). */
export const CLOSE_CHOICES = { default: null, keep: true, quit: false } as const;
export type CloseChoice = keyof typeof CLOSE_CHOICES;
const closeChoiceOf = (value: boolean | null): CloseChoice =>
  value === null ? 'default' : value ? 'keep' : 'quit';

/** The form's fields as typed. */
export interface ServerSettingsForm {
  port: string;
  dataDir: string;
  origins: string;
  onClose: CloseChoice;
  unknownVoices: UnknownVoicePolicy;
  aliasRows: AliasRow[];
}

export interface ServerSettingsSlice {
  /** The settings file as last read or saved; null until read (the form is disabled). */
  serverSettings: ServerSettings | null;
  serverForm: ServerSettingsForm;
  /** Problems of the port, data folder and origins fields (the browser's check, or the server's). */
  serverProblems: ServerSettingsProblem[];
  /** The alias table's problem, if any. */
  serverAliasProblem: string | undefined;
  /** A failed read or save the fields do not explain. */
  serverSettingsError: string | null;
  /** The answer of the last save, until a field changes. */
  serverSettingsSaved: ServerSettings | null;
  serverSettingsSaving: boolean;
  /** Forgets the form and reads the settings file again. */
  loadServerSettings(): Promise<void>;
  /** Changes fields: the saved notice goes, and so do the changed fields' problems. */
  editServerForm(change: Partial<ServerSettingsForm>): void;
  /**
   * Checks and saves the form; `aliases` is the alias table as the API takes it, or its problem
   * (checked by the view, which speaks the interface's language).
   */
  saveServerSettings(aliases: { aliases: Record<string, string> } | { problem: string }): Promise<void>;
}

/**
 * The form's text as the API's values: an empty data folder means the per-user app data folder;
 * allowed origins are one a line (blank lines left out).
 */
function toValues(
  port: string,
  dataDir: string,
  origins: string,
): { port: unknown; data_dir: string | null; allowed_origins: string[] } {
  const trimmed = port.trim();
  return {
    port: trimmed === '' || !/^-?\d+(\.\d+)?$/.test(trimmed) ? trimmed : Number(trimmed),
    data_dir: dataDir.trim() === '' ? null : dataDir.trim(),
    allowed_origins: origins
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  };
}

function fieldOf(message: string): ServerSettingsProblem['field'] | undefined {
  if (/^port\b/i.test(message)) return 'port';
  if (/^data folder\b/i.test(message)) return 'data_dir';
  if (/^allowed origin/i.test(message)) return 'allowed_origins';
  return undefined;
}

/** The form field of each checked setting. */
const FIELDS: Record<ServerSettingsProblem['field'], keyof ServerSettingsForm> = {
  port: 'port',
  data_dir: 'dataDir',
  allowed_origins: 'origins',
};

const EMPTY_FORM: ServerSettingsForm = {
  port: '',
  dataDir: '',
  origins: '',
  onClose: 'default',
  unknownVoices: 'refuse',
  aliasRows: [],
};

/** The panel before the settings file is read. */
const INITIAL: Omit<ServerSettingsSlice, 'loadServerSettings' | 'editServerForm' | 'saveServerSettings'> = {
  serverSettings: null,
  serverForm: EMPTY_FORM,
  serverProblems: [],
  serverAliasProblem: undefined,
  serverSettingsError: null,
  serverSettingsSaved: null,
  serverSettingsSaving: false,
};

export const createServerSettingsSlice: SliceCreator<ServerSettingsSlice> =
  ({ client }) =>
  (set, get) => {
    /** Each read gets a number: only the newest one's answer is shown. */
    let reads = 0;
    return {
      ...INITIAL,
      async loadServerSettings() {
        const mine = ++reads;
        set(INITIAL);
        try {
          const s = await client.serverSettings();
          if (mine !== reads) return;
          set({
            serverSettings: s,
            serverForm: {
              port: String(s.port),
              dataDir: s.data_dir ?? '',
              origins: s.allowed_origins.join('\n'),
              onClose: closeChoiceOf(s.keep_running_when_closed),
              unknownVoices: s.unknown_voices,
              aliasRows: aliasRowsOf(s.voice_aliases),
            },
          });
        } catch (e) {
          if (mine === reads) set({ serverSettingsError: errorMessage(e) });
        }
      },
      editServerForm(change) {
        const { serverForm, serverProblems, serverAliasProblem } = get();
        set({
          serverForm: { ...serverForm, ...change },
          serverSettingsSaved: null,
          serverProblems: serverProblems.filter((p) => !(FIELDS[p.field] in change)),
          serverAliasProblem: 'aliasRows' in change ? undefined : serverAliasProblem,
        });
      },
      async saveServerSettings(table) {
        const { port, dataDir, origins, onClose, unknownVoices } = get().serverForm;
        set({ serverSettingsError: null, serverSettingsSaved: null });
        const values = toValues(port, dataDir, origins);
        const found = checkServerSettings(values);
        set({
          serverProblems: found,
          serverAliasProblem: 'problem' in table ? table.problem : undefined,
        });
        if (found.length > 0 || 'problem' in table) return;
        set({ serverSettingsSaving: true });
        try {
          const result = await client.updateServerSettings({
            port: values.port as number,
            data_dir: values.data_dir,
            keep_running_when_closed: CLOSE_CHOICES[onClose],
            unknown_voices: unknownVoices,
            voice_aliases: table.aliases,
            allowed_origins: values.allowed_origins,
          });
          set({
            serverSettings: result,
            serverForm: { ...get().serverForm, origins: result.allowed_origins.join('\n') },
            serverSettingsSaved: result,
          });
        } catch (e) {
          // The server's sentence goes next to the field it names.
          const message = errorMessage(e);
          const field = e instanceof ApiError && e.code === 'INVALID_FIELD' ? fieldOf(message) : undefined;
          if (field) set({ serverProblems: [{ field, message }] });
          else if (/^voice_aliases\b/.test(message)) set({ serverAliasProblem: message });
          else set({ serverSettingsError: message });
        } finally {
          set({ serverSettingsSaving: false });
        }
      },
    };
  };
