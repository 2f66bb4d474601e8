/**
 * What a project archive is: its format's name and version, the schema of its `project.json`,
 * and what an archive may hold and unpack to (ARCHIVE_LIMITS). Written by project-archive.ts,
 * read by archive-reader.ts in its child process.
 */

import { Type, type Static } from '@sinclair/typebox';
import { BOOK_FORMATS, FOLDER_FORMATS, MASTERING_PRESETS } from '../../shared/book-formats';
import { CHAPTER_KINDS, MANUSCRIPT_FORMATS } from '../../shared/manuscript';
import { MODEL_IDS } from '../../shared/options';
import { PROJECT_LIMITS, SEGMENT_STATES } from '../../shared/projects';

export const ARCHIVE_FORMAT = 'narration-studio-project';
export const ARCHIVE_VERSION = 1;

/**
 * What an archive may hold and unpack to: a project's limits (PROJECT_LIMITS, the manuscript's),
 * and for its audio what its segments can need (ARCHIVE_AUDIO: bytes per ms of their audio).
 */
export const ARCHIVE_LIMITS = {
  /** Bytes of the archive itself (no ZIP64: the writer stops at 4 GiB). */
  fileBytes: 4 * 1024 ** 3,
  /** Entries besides the audio files: project.json and an `audio/` folder entry. */
  fixedEntries: 2,
  /** Files an audio key may have: its WAV and its word timings. */
  filesPerAudio: 2,
  /**
   * Bytes of project.json unpacked: what the largest project needs (200,000 segments of
   * 5,000,000 characters in all, each chapter's text at its last export).
   */
  jsonBytes: 160 * 1024 ** 2,
  /** Bytes unpacked per archive byte (audio barely compresses), past 1 MiB. */
  ratio: 50,
  /** A segment's audio lasts at most this long, ms (4 hours). */
  segmentMs: 4 * 3600 * 1000,
  /** Characters of a segment's flag note and error; bytes of its emphasis, quotes and checks (JSON). */
  noteCharacters: 2000,
  errorCharacters: 4000,
  spansBytes: 1024 ** 2,
  checksBytes: 64 * 1024,
  /** Characters of the last export's record. */
  lastExportCharacters: 64 * 1024,
  /** Arrays and objects nested in project.json, at most (a project's nest 3 deep), checked before it is parsed. */
  jsonDepth: 8,
  /** The archive is read in a child process (in its turn among the manuscript readers), stopped after this long, ms. */
  readerTimeoutMs: 120_000,
  /** … or when its resident memory goes over this, bytes (its V8 heap is capped 128 MiB below). */
  readerMaxRssBytes: 1024 ** 3,
  /** Segment rows the child sends its parent in one message. */
  segmentsPerPart: 1000,
} as const;

/** Entries an archive of a project with `audioKeys` distinct audio keys may hold. */
export const entriesFor = (audioKeys: number) =>
  ARCHIVE_LIMITS.fixedEntries + ARCHIVE_LIMITS.filesPerAudio * audioKeys;

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(s: T) => Type.Union([s, Type.Null()]);
const Id = Type.String({ minLength: 1, maxLength: 64 });
const AudioName = Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$' });
const Stamp = Type.String({ maxLength: 40 });

export const ArchiveSchema = Type.Object({
  format: Type.Literal(ARCHIVE_FORMAT),
  version: Type.Literal(ARCHIVE_VERSION),
  project: Type.Object({
    title: Type.String({ minLength: 1, maxLength: 500 }),
    author: Nullable(Type.String({ maxLength: 500 })),
    language: Type.String({ minLength: 2, maxLength: 35 }),
    cover_type: Nullable(literals(['image/jpeg', 'image/png'] as const)),
    cover_base64: Nullable(Type.String({ maxLength: 4 * 1024 * 1024 })),
    model_id: literals(MODEL_IDS),
    preset: literals(MASTERING_PRESETS),
    format: literals(BOOK_FORMATS),
    folder_format: Nullable(literals(FOLDER_FORMATS)),
    source_name: Nullable(Type.String({ maxLength: 1000 })),
    source_format: Nullable(literals(MANUSCRIPT_FORMATS)),
    last_export_at: Nullable(Stamp),
    last_export: Nullable(Type.String({ maxLength: ARCHIVE_LIMITS.lastExportCharacters })),
    // The spoken structure (absent in archives made before it).
    speak_headings: Type.Optional(Nullable(Type.Union([Type.Literal(0), Type.Literal(1)]))),
    credits: Type.Optional(Nullable(Type.Union([Type.Literal(0), Type.Literal(1)]))),
    narrator_name: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    copyright: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    opening_credits: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
    closing_credits: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  }),
  characters: Type.Array(
    Type.Object({
      id: Id,
      name: Type.String({ minLength: 1, maxLength: 500 }),
      voice_code: Type.String({ maxLength: 200 }),
      speed_rate: Type.Number({ minimum: 0.5, maximum: 2 }),
      pitch_rate: Type.Number({ minimum: 0.5, maximum: 2 }),
      volume: Type.Integer({ minimum: 50, maximum: 150 }),
      narrator: Type.Union([Type.Literal(0), Type.Literal(1)]),
      confirmed: Type.Union([Type.Literal(0), Type.Literal(1)]),
    }),
    { minItems: 1, maxItems: PROJECT_LIMITS.cast },
  ),
  chapters: Type.Array(
    Type.Object({
      id: Id,
      title: Type.String({ minLength: 1, maxLength: 1000 }),
      kind: literals(CHAPTER_KINDS),
      included: Type.Union([Type.Literal(0), Type.Literal(1)]),
      exported_text: Nullable(Type.String()),
      spoken_heading: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    }),
    { maxItems: PROJECT_LIMITS.chapters },
  ),
  segments: Type.Array(
    Type.Object({
      id: Id,
      chapter_id: Id,
      text: Type.String({ minLength: 1 }),
      emphasis: Nullable(Type.String({ maxLength: ARCHIVE_LIMITS.spansBytes })),
      speaker: Nullable(Id),
      quotes: Nullable(Type.String({ maxLength: ARCHIVE_LIMITS.spansBytes })),
      suggested_speaker: Nullable(Id),
      state: literals(SEGMENT_STATES),
      audio_key: Nullable(AudioName),
      duration_ms: Nullable(Type.Integer({ minimum: 0, maximum: ARCHIVE_LIMITS.segmentMs })),
      error: Nullable(Type.String({ maxLength: ARCHIVE_LIMITS.errorCharacters })),
      flag_note: Nullable(Type.String({ maxLength: ARCHIVE_LIMITS.noteCharacters })),
      checks: Nullable(Type.String({ maxLength: ARCHIVE_LIMITS.checksBytes })),
      rendered_at: Nullable(Stamp),
    }),
    { maxItems: PROJECT_LIMITS.segments },
  ),
});
export type Archive = Static<typeof ArchiveSchema>;

export const SpansSchema = Type.Array(
  Type.Object(
    { start: Type.Integer({ minimum: 0 }), end: Type.Integer({ minimum: 0 }) },
    { additionalProperties: true },
  ),
);
