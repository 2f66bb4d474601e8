/**
 * Wire records of the audiobook export API (POST/GET/DELETE /api/v1/exports): the body of a
 * submit, the export record, its event on the stream, and the loudness report's summary. The
 * formats and presets are defined here, once, because the renderer offers them too; the engine's
 * exporter (core/engine/export) takes its lists from this module.
 */

import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ErrorDetailsSchema } from './api';
import { MODEL_IDS, RATE_MAX, RATE_MIN, VOLUME_MAX, VOLUME_MIN } from './options';

const literals = <T extends string | number>(values: readonly T[]) =>
  Type.Union(values.map((v) => Type.Literal(v)));
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

import {
  BOOK_FORMATS,
  exportRenderShare,
  FOLDER_FORMATS,
  MASTERING_PRESETS,
  type BookFormat,
  type FolderFormat,
  type MasteringPresetName,
} from './book-formats';

export {
  BOOK_FORMATS,
  exportRenderShare,
  FOLDER_FORMATS,
  MASTERING_PRESETS,
  type BookFormat,
  type FolderFormat,
  type MasteringPresetName,
};

/** A cover picture (decoded), as the exporter writes it into an MP3's or an M4B's tags. */
export interface CoverImage {
  data: Uint8Array;
  mimeType: 'image/jpeg' | 'image/png';
}

/**
 * Most chapters an MP3 can list: one ID3 CTOC frame's entry count is one byte
 * (engine/export/mp3-chapters.ts writes the tag; the API refuses a longer book before rendering).
 */
export const MAX_ID3_CHAPTERS = 255;

/** Bytes of a cover picture at most (decoded). */
export const MAX_COVER_BYTES = 2 * 1024 * 1024;
/** Characters of a title or an author at most. */
export const MAX_BOOK_TAG_CHARS = 500;

/**
 * Body of POST /api/v1/exports. `input_text` is the book: Markdown headings (`#`, `##`) and
 * `[chapter: Title]` lines start chapters. `cover` is a JPEG or PNG picture in base64 (a
 * `data:image/…;base64,` prefix is allowed), at most `MAX_COVER_BYTES` decoded.
 */
export const ExportBodySchema = Type.Object({
  input_text: Type.String(),
  voice_code: Type.String(),
  model_id: Type.Optional(literals(MODEL_IDS)),
  /** 0.5–2.0, at most one digit after the point. */
  speed_rate: Type.Optional(Type.Number({ minimum: RATE_MIN, maximum: RATE_MAX })),
  pitch_rate: Type.Optional(Type.Number({ minimum: RATE_MIN, maximum: RATE_MAX })),
  volume: Type.Optional(Type.Integer({ minimum: VOLUME_MIN, maximum: VOLUME_MAX })),
  /** Default `acx`. */
  preset: Type.Optional(literals(MASTERING_PRESETS)),
  /** Default `m4b`. `folder` is delivered as a .zip of one file per chapter. */
  format: Type.Optional(literals(BOOK_FORMATS)),
  /** Each chapter's file when `format` is `folder` (default mp3). */
  folder_format: Type.Optional(literals(FOLDER_FORMATS)),
  title: Type.Optional(Type.String({ maxLength: MAX_BOOK_TAG_CHARS })),
  author: Type.Optional(Type.String({ maxLength: MAX_BOOK_TAG_CHARS })),
  cover: Type.Optional(Type.String()),
});
export type ExportBody = Static<typeof ExportBodySchema>;

/** `new` (queued), `processing`, then `SUCCESS` or `FAILURE` (error_code CANCELLED when cancelled). */
export const EXPORT_STATUSES = ['new', 'processing', 'SUCCESS', 'FAILURE'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** A chapter of a finished export: its title and where it starts, ms from the book's start. */
export const ExportChapterSchema = Type.Object({
  title: Type.String(),
  start_ms: Type.Integer(),
  end_ms: Type.Integer(),
});
export type ExportChapter = Static<typeof ExportChapterSchema>;

/** What the loudness report says about one written file (levels to 0.01 dB; null: silent). */
export const ExportFileReportSchema = Type.Object({
  /** The file's name (in the zip for `folder`). */
  file: Type.String(),
  duration_ms: Type.Integer(),
  integrated_lufs: Nullable(Type.Number()),
  rms_dbfs: Nullable(Type.Number()),
  peak_dbfs: Nullable(Type.Number()),
  true_peak_dbtp: Nullable(Type.Number()),
  noise_floor_dbfs: Nullable(Type.Number()),
  /** All of the preset's checks pass. */
  passes: Type.Boolean(),
  /** The checks that failed, in words. */
  failures: Type.Array(Type.String()),
});
export type ExportFileReport = Static<typeof ExportFileReportSchema>;

/** An export (POST /api/v1/exports answers it; GET /api/v1/exports/<id>; items of GET /api/v1/exports). */
export const ExportRecordSchema = Type.Object({
  /** 32 lowercase hex digits. */
  export_id: Type.String(),
  status: literals(EXPORT_STATUSES),
  /** 0–1 while processing; 1 when finished. */
  progress: Type.Number(),
  /** While processing: seconds left, at the rate measured since it began (null until it can be told); 0 once it succeeded. */
  eta_seconds: Type.Optional(Nullable(Type.Number())),
  characters: Type.Integer(),
  voice_code: Type.String(),
  model_id: literals(MODEL_IDS),
  speed_rate: Type.Number(),
  pitch_rate: Type.Number(),
  volume: Type.Integer(),
  preset: literals(MASTERING_PRESETS),
  format: literals(BOOK_FORMATS),
  folder_format: Nullable(literals(FOLDER_FORMATS)),
  title: Nullable(Type.String()),
  author: Nullable(Type.String()),
  has_cover: Type.Boolean(),
  /** Credits charged (refunded on FAILURE). */
  cost: Type.Number(),
  /** Once SUCCESS: the book's chapters (for `folder`, as if its files were played in a row). */
  chapters: Type.Array(ExportChapterSchema),
  /** Once SUCCESS: each file's loudness and the preset's checks. */
  files: Type.Array(ExportFileReportSchema),
  duration_ms: Nullable(Type.Integer()),
  file_bytes: Nullable(Type.Integer()),
  /** Once SUCCESS: the book (`.m4b`, `.mp3`, or `.zip` for a folder); the secret token is in the path. */
  file_link: Nullable(Type.String()),
  /** Once SUCCESS: the loudness report (JSON), as written beside the export. */
  report_link: Nullable(Type.String()),
  error_code: Nullable(Type.String()),
  error_message: Nullable(Type.String()),
  /** On a FAILURE with particulars: as an error body's `error_details`. */
  error_details: Type.Optional(ErrorDetailsSchema),
  /** ISO 8601 with milliseconds and Z. */
  created_at: Type.String(),
  started_at: Nullable(Type.String()),
  finished_at: Nullable(Type.String()),
});
export type ExportRecord = Static<typeof ExportRecordSchema>;

/** Query of GET /api/v1/exports: a page (newest first). */
export const ExportListQuerySchema = Type.Object({
  page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$' })),
  page_size: Type.Optional(Type.String({ pattern: '^([1-9][0-9]?|100)$' })),
});
export type ExportListQuery = Static<typeof ExportListQuerySchema>;

export const ExportListSchema = Type.Object({
  items: Type.Array(ExportRecordSchema),
  page: Type.Integer(),
  page_size: Type.Integer(),
  total: Type.Integer(),
});
export type ExportList = Static<typeof ExportListSchema>;

/** Data of the `export` server-sent event of GET /api/v1/events: status and progress changes. */
export const ExportEventSchema = Type.Object({
  export_id: Type.String(),
  status: literals(EXPORT_STATUSES),
  progress: Type.Number(),
});
export type ExportEvent = Static<typeof ExportEventSchema>;

/** Answer of DELETE /api/v1/exports/<id>. */
export const ExportRemovalSchema = Type.Object({
  export_id: Type.String(),
  removed: Type.Literal(true),
});
export type ExportRemoval = Static<typeof ExportRemovalSchema>;

/**
 * GET /api/v1/tts/<id>/chapters: the chapters of a plain request whose text has chapter lines,
 * times in its audio (empty when it has none, or until it is SUCCESS).
 */
export const RequestChaptersSchema = Type.Object({
  items: Type.Array(ExportChapterSchema),
});
export type RequestChapters = Static<typeof RequestChaptersSchema>;
