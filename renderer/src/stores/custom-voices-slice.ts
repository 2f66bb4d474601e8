/**
 * The user's own voices (shared/custom-voices.ts): the list every voice picker offers under
 * "Your voices", and its create, edit and delete. A custom voice code is picked like a
 * catalogue code; what it costs and which language it speaks are those of the catalogue voice
 * behind it (`voice_code`).
 */

import type { CustomVoice, CustomVoiceInput } from '../../../electron/shared/custom-voices';
import { findVoice } from '../../../electron/shared/voices';
import { errorMessage } from '../lib/api-client';
import type { SliceCreator } from './types';

export interface CustomVoicesSlice {
  /** By name. */
  customVoices: CustomVoice[];
  customVoicesLoaded: boolean;
  /** The last failed load or delete, in the API's words (the form shows its own save errors). */
  customVoicesError: string | null;
  loadCustomVoices(): Promise<void>;
  /**
   * Creates a custom voice, or replaces the one whose code is `editing`; resolves with it as
   * stored, rejects with the API's error (e.g. CUSTOM_VOICE_CONFLICT) for the form to show.
   */
  saveCustomVoice(input: CustomVoiceInput, editing?: string): Promise<CustomVoice>;
  /** False when the server refused (customVoicesError says why). */
  deleteCustomVoice(code: string): Promise<boolean>;
}

/** The order the studio lists custom voices in: by name, then code. */
export const byName = (a: CustomVoice, b: CustomVoice) =>
  a.name.localeCompare(b.name) || a.code.localeCompare(b.code);

export const createCustomVoicesSlice: SliceCreator<CustomVoicesSlice> =
  ({ client }) =>
  (set, get) => {
    const fail = (error: unknown) => {
      set({ customVoicesError: errorMessage(error) });
    };
    /**
     * Voice codes kept in storage that name no voice now (a custom voice deleted, here or
     * elsewhere) are dropped: the studio's voice falls back to the interface language's first
     * voice (`firstVoice`), dialogue and Export voices to the narrator's and the Studio's.
     */
    const dropMissingVoices = () => {
      const { customVoices, options, dialogue, exportDraft } = get();
      const known = (code: string) =>
        findVoice(code) !== undefined || customVoices.some((v) => v.code === code);
      if (!known(options.voice_code)) get().setOption('voice_code', get().firstVoice());
      if (dialogue.character !== null && !known(dialogue.character)) get().setCharacterVoice(null);
      for (const [index, code] of Object.entries(dialogue.paragraphs))
        if (!known(code)) get().setParagraphVoice(Number(index), null);
      if (exportDraft.voice !== null && !known(exportDraft.voice)) get().updateExportDraft({ voice: null });
    };
    return {
      customVoices: [],
      customVoicesLoaded: false,
      customVoicesError: null,
      async loadCustomVoices() {
        try {
          const voices = await client.customVoices();
          set({ customVoices: [...voices].sort(byName), customVoicesLoaded: true, customVoicesError: null });
          dropMissingVoices();
        } catch (error) {
          fail(error);
        }
      },
      async saveCustomVoice(input, editing) {
        const saved = editing
          ? await client.updateCustomVoice(editing, input)
          : await client.createCustomVoice(input);
        set({
          customVoices: [...get().customVoices.filter((v) => v.code !== saved.code), saved].sort(byName),
          customVoicesError: null,
        });
        return saved;
      },
      async deleteCustomVoice(code) {
        set({ customVoicesError: null });
        try {
          await client.deleteCustomVoice(code);
          set({ customVoices: get().customVoices.filter((v) => v.code !== code) });
          dropMissingVoices();
          return true;
        } catch (error) {
          fail(error);
          return false;
        }
      },
    };
  };
