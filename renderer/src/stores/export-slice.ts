import {
  BOOK_FORMATS,
  FOLDER_FORMATS,
  MASTERING_PRESETS,
  type BookFormat,
  type FolderFormat,
  type MasteringPresetName,
} from '../../../electron/shared/book-exports';
import { mayBeVoiceCode } from '../lib/voice-codes';
import { readJson, type SliceCreator } from './types';

export const EXPORT_DRAFT_KEY = 'narration-studio.export-draft';

/** What the Export page holds before an export starts: kept across views and saved like the draft. */
export interface ExportDraft {
  text: string;
  title: string;
  author: string;
  /** The voice for the book; null: the Studio's voice. */
  voice: string | null;
  preset: MasteringPresetName;
  format: BookFormat;
  folderFormat: FolderFormat;
  cover: { name: string; base64: string; type: string } | null;
}

/** A stored draft made valid: unknown values fall back to the defaults. */
export function sanitiseExportDraft(input: Partial<ExportDraft> | undefined): ExportDraft {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const cover = input?.cover;
  return {
    text: text(input?.text),
    title: text(input?.title),
    author: text(input?.author),
    voice: mayBeVoiceCode(input?.voice) ? input.voice : null,
    preset: MASTERING_PRESETS.includes(input?.preset as MasteringPresetName) ? input!.preset! : 'acx',
    format: BOOK_FORMATS.includes(input?.format as BookFormat) ? input!.format! : 'm4b',
    folderFormat: FOLDER_FORMATS.includes(input?.folderFormat as FolderFormat) ? input!.folderFormat! : 'mp3',
    cover:
      cover &&
      typeof cover.name === 'string' &&
      typeof cover.base64 === 'string' &&
      /^image\/(jpeg|png)$/.test(String(cover.type))
        ? { name: cover.name, base64: cover.base64, type: cover.type }
        : null,
  };
}

export interface ExportSlice {
  exportDraft: ExportDraft;
  /** Changes some of the Export page's fields; saved to storage shortly after. */
  updateExportDraft(patch: Partial<ExportDraft>): void;
}

export const createExportSlice: SliceCreator<ExportSlice> =
  ({ storage, saveDelayMs = 300 }) =>
  (set, get) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const save = () => {
      const draft = get().exportDraft;
      try {
        storage.setItem(EXPORT_DRAFT_KEY, JSON.stringify(draft));
      } catch {
        // Over the browser's storage quota (a large cover): keep the text, drop the picture.
        try {
          storage.setItem(EXPORT_DRAFT_KEY, JSON.stringify({ ...draft, cover: null }));
        } catch {
          // Storage full: the page still holds everything until the app closes.
        }
      }
    };
    return {
      exportDraft: sanitiseExportDraft(readJson<Partial<ExportDraft>>(storage, EXPORT_DRAFT_KEY)),
      updateExportDraft(patch) {
        set({ exportDraft: { ...get().exportDraft, ...patch } });
        if (timer) clearTimeout(timer);
        timer = setTimeout(save, saveDelayMs);
      },
    };
  };
