/**
 * What a book export can write and how it is mastered: the lists the API's schemas
 * (book-exports.ts), the engine's exporter and the command line share. A module of its own,
 * without the schema library, so that `export --help` loads no package.
 */

/**
 * Every format a book export can write, one row each, from which every list is derived (the
 * schemas, the command line's help and checks, the file's extension and MIME type in answers and
 * in the OpenAPI document, the studio's picker): one M4B (AAC in MP4) with chapters, one MP3 with
 * ID3 chapters, or a folder with a file per chapter, delivered as a .zip. Adding a format is its
 * writer (engine/export) and a row here.
 */
export const BOOK_FORMAT_TABLE = {
  m4b: { extension: 'm4b', contentType: 'audio/mp4' },
  mp3: { extension: 'mp3', contentType: 'audio/mpeg' },
  folder: { extension: 'zip', contentType: 'application/zip' },
} as const satisfies Record<string, { extension: string; contentType: string }>;
export type BookFormat = keyof typeof BOOK_FORMAT_TABLE;
export const BOOK_FORMATS = Object.keys(BOOK_FORMAT_TABLE) as BookFormat[] as readonly BookFormat[];
/** The extension of a book's file (`folder` → `zip`). */
export type BookExtension = (typeof BOOK_FORMAT_TABLE)[BookFormat]['extension'];

/** The extension of the file a book export of `format` writes (`folder` → `zip`). */
export function bookExtension(format: BookFormat): BookExtension {
  return BOOK_FORMAT_TABLE[format].extension;
}

/** The MIME type of a book's file by its extension (`zip` → `application/zip`). */
export const BOOK_CONTENT_TYPES = Object.fromEntries(
  BOOK_FORMATS.map((format) => [BOOK_FORMAT_TABLE[format].extension, BOOK_FORMAT_TABLE[format].contentType]),
) as Readonly<Record<BookExtension, string>>;

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
