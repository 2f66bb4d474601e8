/**
 * The voice library: installed and downloadable packs, what speaks each voice code, and the
 * installs in progress. Progress arrives as `voice-pack` events on the event stream while an
 * install runs; the list is re-read when one ends, and every `pollMs` while any runs (events
 * sent before the stream opened cannot leave a bar stuck).
 */

import type { ErrorCode } from '../../../electron/shared/errors';
import type { VoiceEngineInfo, VoicePackEvent, VoicePackInfo } from '../../../electron/shared/voice-packs';
import { ApiError, errorMessage } from '../lib/api-client';
import type { SliceCreator } from './types';

export interface VoicePacksSlice {
  voicePacks: VoicePackInfo[];
  /** Per voice code: what speaks it now under std-v1.6, and with its default pack installed. */
  voiceEngines: Record<string, VoiceEngineInfo>;
  voicePacksLoaded: boolean;
  /**
   * The last failed library action, with the pack it concerns: the server's (or the network's)
   * message, or null when an install failed without one (the view then says so in its language).
   */
  voicePackError: { id: string | null; message: string | null } | null;
  loadVoicePacks(): Promise<void>;
  installVoicePack(id: string): Promise<void>;
  cancelVoicePack(id: string): Promise<void>;
  removeVoicePack(id: string): Promise<void>;
  importVoicePack(file: Blob, fileName: string): Promise<void>;
}

/** "natural" for a neural engine label, "basic" for eSpeak. */
export function engineKind(engine: string | null | undefined): 'natural' | 'basic' {
  return engine && engine !== 'espeak' ? 'natural' : 'basic';
}

export const createVoicePacksSlice: SliceCreator<VoicePacksSlice> =
  ({ client, pollMs = 1000 }) =>
  (set, get) => {
    let stream: AbortController | undefined;
    let polling = false;

    const fail = (id: string | null, error: unknown) => {
      set({ voicePackError: { id, message: errorMessage(error) } });
    };
    const anyInstalling = () => get().voicePacks.some((p) => p.state === 'installing');

    const load = async () => {
      const list = await client.voicePacks();
      set({
        voicePacks: list.packs,
        voiceEngines: Object.fromEntries(list.voices.map((v) => [v.voice_code, v])),
        voicePacksLoaded: true,
      });
    };

    /** Follows installs until none runs: events for progress, a slow poll as a safety net. */
    const watch = () => {
      if (!stream) {
        const controller = new AbortController();
        stream = controller;
        client
          .streamEvents(
            {
              onVoicePack(event) {
                if (event.state === 'installing') {
                  set({
                    voicePacks: get().voicePacks.map((p) =>
                      p.id === event.id
                        ? {
                            ...p,
                            state: 'installing',
                            ...(event.progress ? { progress: event.progress } : {}),
                          }
                        : p,
                    ),
                  });
                  return;
                }
                if (event.state === 'failed')
                  set({
                    voicePackError: { id: event.id, message: failureMessage(event) },
                  });
                void load().catch(() => undefined);
              },
            },
            controller.signal,
          )
          .catch(() => undefined)
          .finally(() => {
            if (stream === controller) stream = undefined;
          });
      }
      if (polling) return;
      polling = true;
      void (async () => {
        try {
          while (anyInstalling()) {
            await new Promise((resolve) => setTimeout(resolve, pollMs));
            await load().catch(() => undefined);
          }
        } finally {
          polling = false;
          stream?.abort();
          stream = undefined;
        }
      })();
    };

    return {
      voicePacks: [],
      voiceEngines: {},
      voicePacksLoaded: false,
      voicePackError: null,
      async loadVoicePacks() {
        try {
          await load();
          if (anyInstalling()) watch();
        } catch (error) {
          fail(null, error);
        }
      },
      async installVoicePack(id) {
        set({ voicePackError: null });
        try {
          const info = await client.installVoicePack(id);
          set({ voicePacks: get().voicePacks.map((p) => (p.id === id ? info : p)) });
          if (info.state === 'installing') watch();
          else await load();
        } catch (error) {
          fail(id, error);
        }
      },
      async cancelVoicePack(id) {
        try {
          await client.cancelVoicePack(id);
        } catch (error) {
          fail(id, error);
        }
      },
      async removeVoicePack(id) {
        set({ voicePackError: null });
        try {
          await client.removeVoicePack(id);
          await load();
        } catch (error) {
          fail(id, error);
        }
      },
      async importVoicePack(file, fileName) {
        set({ voicePackError: null });
        try {
          await client.importVoicePack(file, fileName);
          await load();
        } catch (error) {
          fail(null, error);
        }
      },
    };
  };

/** A failed install's sentence in the interface's language, from its code and details. */
function failureMessage(event: VoicePackEvent): string | null {
  if (event.error_message === undefined) return null;
  const code = (event.error_code ?? 'INTERNAL') as ErrorCode;
  return errorMessage(new ApiError(code, event.error_message, 0, event.error_details));
}
