import type { SliceCreator } from './types';

export const DRAFT_KEY = 'narration-studio.draft';

export interface ComposeSlice {
  /** The draft; saved to storage shortly after each change, so it survives a restart. */
  text: string;
  setText(text: string): void;
}

export const createComposeSlice: SliceCreator<ComposeSlice> =
  ({ storage, saveDelayMs = 300 }) =>
  (set) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return {
      text: storage.getItem(DRAFT_KEY) ?? '',
      setText(text) {
        set({ text });
        // Debounced: writing a 100,000-character chapter on every keystroke would stall typing.
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => storage.setItem(DRAFT_KEY, text), saveDelayMs);
      },
    };
  };
