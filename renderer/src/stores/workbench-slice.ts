/**
 * The voice workbench (Voices view): the tester's sentence, the voices queued to speak it,
 * favourites, a note per voice and the blind A/B rounds, kept in storage across reloads. The
 * measured results (audio and figures) live in the view for the page's life.
 */

import type { BlindResult } from '../features/voices/workbench/logic';
import { readJson, type SliceCreator } from './types';

export const WORKBENCH_KEY = 'narration-studio.workbench';

export interface WorkbenchSaved {
  /** The tester's own sentence; null until they write one (the default then follows the voices). */
  sentence: string | null;
  queue: string[];
  favourites: string[];
  notes: Record<string, string>;
  blind: BlindResult[];
}

export interface WorkbenchSlice {
  workbench: WorkbenchSaved;
  /** null: back to the default sentence. */
  setWorkbenchSentence(sentence: string | null): void;
  queueWorkbenchVoice(voiceCode: string): void;
  unqueueWorkbenchVoice(voiceCode: string): void;
  toggleWorkbenchFavourite(voiceCode: string): void;
  setWorkbenchNote(voiceCode: string, note: string): void;
  addBlindResult(result: BlindResult): void;
  clearBlindResults(): void;
}

const EMPTY: WorkbenchSaved = { sentence: null, queue: [], favourites: [], notes: {}, blind: [] };

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** What storage holds, each part checked (a damaged part falls back to empty). */
function load(raw: unknown): WorkbenchSaved {
  if (!raw || typeof raw !== 'object') return EMPTY;
  const r = raw as Partial<Record<keyof WorkbenchSaved, unknown>>;
  const notes: Record<string, string> = {};
  if (r.notes && typeof r.notes === 'object')
    for (const [k, v] of Object.entries(r.notes)) if (typeof v === 'string') notes[k] = v;
  const blind = Array.isArray(r.blind)
    ? r.blind.filter(
        (b): b is BlindResult =>
          !!b &&
          typeof (b as BlindResult).a === 'string' &&
          typeof (b as BlindResult).b === 'string' &&
          ['a', 'b', 'same'].includes((b as BlindResult).vote),
      )
    : [];
  return {
    sentence: typeof r.sentence === 'string' ? r.sentence : null,
    queue: [...new Set(strings(r.queue))],
    favourites: [...new Set(strings(r.favourites))],
    notes,
    blind,
  };
}

export const createWorkbenchSlice: SliceCreator<WorkbenchSlice> =
  ({ storage }) =>
  (set, get) => {
    const update = (change: (w: WorkbenchSaved) => WorkbenchSaved) => {
      const workbench = change(get().workbench);
      storage.setItem(WORKBENCH_KEY, JSON.stringify(workbench));
      set({ workbench });
    };
    return {
      workbench: load(readJson<unknown>(storage, WORKBENCH_KEY)),
      setWorkbenchSentence: (sentence) => update((w) => ({ ...w, sentence })),
      queueWorkbenchVoice: (code) =>
        update((w) => (w.queue.includes(code) ? w : { ...w, queue: [...w.queue, code] })),
      unqueueWorkbenchVoice: (code) => update((w) => ({ ...w, queue: w.queue.filter((c) => c !== code) })),
      toggleWorkbenchFavourite: (code) =>
        update((w) => ({
          ...w,
          favourites: w.favourites.includes(code)
            ? w.favourites.filter((c) => c !== code)
            : [...w.favourites, code],
        })),
      setWorkbenchNote: (code, note) =>
        update((w) => {
          const notes = { ...w.notes };
          if (note === '') delete notes[code];
          else notes[code] = note;
          return { ...w, notes };
        }),
      addBlindResult: (result) => update((w) => ({ ...w, blind: [...w.blind, result] })),
      clearBlindResults: () => update((w) => ({ ...w, blind: [] })),
    };
  };
