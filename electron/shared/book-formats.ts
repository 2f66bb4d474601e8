/**
 * What a book export can write and how it is mastered: the lists the API's schemas
 * (book-exports.ts), the engine's exporter and the command line share. A module of its own,
 * without the schema library, so that `export --help` loads no package.
 */

/** One M4B (AAC in MP4) with chapters, one MP3 with ID3 chapters, or a folder with a file per chapter. */
export const BOOK_FORMATS = ['m4b', 'mp3', 'folder'] as const;
export type BookFormat = (typeof BOOK_FORMATS)[number];

/** The audio format of each chapter's file when the format is `folder`. */
export const FOLDER_FORMATS = ['mp3', 'wav'] as const;
export type FolderFormat = (typeof FOLDER_FORMATS)[number];

/** Mastering presets: ACX (audiobook retailers), podcast (−16 LUFS), or none (the render as it is). */
export const MASTERING_PRESETS = ['acx', 'podcast', 'none'] as const;
export type MasteringPresetName = (typeof MASTERING_PRESETS)[number];

/**
 * The share of an export's progress that is rendering its chapters (the rest is mastering and
 * encoding). Measured on an ACX M4B of three chapters with the real engine: rendering took 46 % of
 * the time, the level search's passes and the encoder the rest; without a level target (`none`)
 * mastering is a single pass.
 */
export function exportRenderShare(preset: MasteringPresetName): number {
  return preset === 'none' ? 0.75 : 0.5;
}
