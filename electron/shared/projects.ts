/**
 * Wire records of book projects (/api/v1/projects/…): a project (a book's settings), its
 * chapters, their segments (a paragraph or a line of dialogue, each with who speaks it and the
 * state of its audio), its cast of characters, a render of some or all of it, and its exports.
 * The renderer, the CLI and the server read the same schemas; the OpenAPI document is made
 * from them.
 */

import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ExportFileReportSchema } from './book-exports';
import { BOOK_FORMATS, FOLDER_FORMATS, MASTERING_PRESETS } from './book-formats';
import {
  CHAPTER_KINDS,
  LEGACY_VIETNAMESE_ENCODINGS,
  MANUSCRIPT_FORMATS,
  MANUSCRIPT_LIMITS,
  NOTES_MODES,
  TEXT_ENCODINGS,
} from './manuscript';
import { ErrorDetailsSchema } from './api';
import { MODEL_IDS, RATE_MAX, RATE_MIN, VOLUME_MAX, VOLUME_MIN } from './options';

/**
 * What one project may hold, and how much of it one answer carries: no answer grows with the
 * book (a project's detail has its chapters without their segments; segments come a window at a
 * time). Imports, edits and archives are refused past a limit with MANUSCRIPT_TOO_LARGE or
 * PROJECT_CONFLICT naming it.
 */
export const PROJECT_LIMITS = {
  /** Segments of a project (a manuscript's paragraph limit: one segment per paragraph). */
  segments: MANUSCRIPT_LIMITS.paragraphs,
  /** Characters of text of a project's segments together (a manuscript's limit). */
  characters: MANUSCRIPT_LIMITS.characters,
  /** Characters of one segment's text (an import cuts paragraphs at 1,500). */
  segmentCharacters: 20_000,
  /** Chapters of a project (the Bible has 1,189). */
  chapters: 5_000,
  /** Characters of a project's cast, the narrator included (the suggested ones past it are left out). */
  cast: 500,
  /** Segments one page of GET …/chapters/<cid>/segments holds at most, and without `limit`. */
  segmentPage: 500,
  segmentPageDefault: 100,
  /** Characters of each text GET …/chapters/<cid>/changes answers (the rest is cut, `truncated`). */
  changesCharacters: 200_000,
  /** Segments a `project` event lists at most (a render queueing more lists none: read them again). */
  eventSegments: 500,
  /** Projects one page of GET /api/v1/projects holds at most, and without `limit`. */
  listPage: 100,
  listPageDefault: 20,
} as const;

const literals = <T extends string | number>(values: readonly T[]) =>
  Type.Union(values.map((v) => Type.Literal(v)));
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * The audio of a segment: `not_rendered` (never), `queued` (in a render that has not reached
 * it), `rendering`, `done`, `failed` (see `error`), `changed` (edited since its audio was made:
 * the audio is kept until a render replaces it).
 */
export const SEGMENT_STATES = ['not_rendered', 'queued', 'rendering', 'done', 'failed', 'changed'] as const;
export type SegmentState = (typeof SEGMENT_STATES)[number];

/** What the automatic checks found in a segment's audio (see SegmentCheckSchema). */
export const SEGMENT_CHECK_KINDS = ['long_silence', 'clipping', 'ends_early', 'speech_rate'] as const;
export type SegmentCheckKind = (typeof SEGMENT_CHECK_KINDS)[number];

export const SegmentCheckSchema = Type.Object({
  kind: literals(SEGMENT_CHECK_KINDS),
  /** In words, with the measured figure and the expected one (English, for API clients). */
  message: Type.String(),
  /**
   * The message's figures, for a client to word it in its own language (absent in checks made
   * before they were recorded): long_silence `silence_s`, `allowed_s`; clipping `runs`;
   * ends_early `audio_s`, `characters`, `expected_s`, `syllables_percent`; speech_rate `pace`,
   * `chars_per_second`, `voice_chars_per_second`. Seconds and rates to 0.1.
   */
  figures: Type.Optional(Type.Record(Type.String(), Type.Number())),
  /** Where in the segment's audio, ms (null: the whole segment). */
  at_ms: Nullable(Type.Integer()),
});
export type SegmentCheck = Static<typeof SegmentCheckSchema>;

export const EmphasisSpanSchema = Type.Object({
  start: Type.Integer({ minimum: 0 }),
  end: Type.Integer({ minimum: 0 }),
  kind: literals(['em', 'strong'] as const),
});

/**
 * A quotation inside a segment spoken by another character than the segment's speaker:
 * code-point offsets into the segment's text (quote marks included), end exclusive.
 */
export const QuoteVoiceSchema = Type.Object({
  start: Type.Integer({ minimum: 0 }),
  end: Type.Integer({ minimum: 0 }),
  character_id: Type.String(),
});
export type QuoteVoice = Static<typeof QuoteVoiceSchema>;

export const SegmentRecordSchema = Type.Object({
  id: Type.String(),
  chapter_id: Type.String(),
  /** 0-based within its chapter. */
  position: Type.Integer(),
  text: Type.String(),
  emphasis: Type.Array(EmphasisSpanSchema),
  /** The character who speaks the segment (null: the narrator). */
  speaker: Nullable(Type.String()),
  /** Quotations inside it read by other characters. */
  quotes: Type.Array(QuoteVoiceSchema),
  /** A character the text's attribution suggests ("…," said Anna), until the writer confirms or assigns. */
  suggested_speaker: Nullable(Type.String()),
  state: literals(SEGMENT_STATES),
  /** Of the current audio (kept while `changed`); null before the first render. */
  duration_ms: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  /** A failed segment's error code and particulars (as an error body's), with `error`. */
  error_code: Type.Optional(Type.String()),
  error_details: Type.Optional(ErrorDetailsSchema),
  /** The writer's flag: a note to come back to (null: not flagged). */
  flag_note: Nullable(Type.String()),
  /** What the automatic checks found in the current audio (empty: nothing). */
  checks: Type.Array(SegmentCheckSchema),
});
export type SegmentRecord = Static<typeof SegmentRecordSchema>;

export const ChapterRecordSchema = Type.Object({
  id: Type.String(),
  position: Type.Integer(),
  title: Type.String(),
  kind: literals(CHAPTER_KINDS),
  /** Rendered and exported (front and back matter start left out). */
  included: Type.Boolean(),
  characters: Type.Integer(),
  segment_count: Type.Integer(),
  segments_done: Type.Integer(),
  /** Sum of its segments' audio, ms (null until every segment has audio). */
  duration_ms: Nullable(Type.Integer()),
  /** An export contained it: its text as exported is kept (GET …/chapters/<cid>/changes). */
  exported: Type.Boolean(),
  /**
   * Its text differs from the text the last export that contained it was made of; false when no
   * export contained it (after exporting chapter 1 alone, chapter 2 has not changed since).
   */
  changed_since_export: Type.Boolean(),
  /**
   * The heading read aloud at the chapter's start when the project speaks headings: as edited, or
   * made from the title in the book's language ("CHƯƠNG 1" → "Chương một", "I" → "Chapter One").
   */
  spoken_heading: Type.String(),
  /** Whether `spoken_heading` is one a person wrote (false: made from the title). */
  spoken_heading_edited: Type.Boolean(),
});
export type ChapterRecord = Static<typeof ChapterRecordSchema>;

/**
 * The name the server gives a project's narrator (in no language in particular: API clients
 * read it; the studio words the narrator's role instead while `named` is false).
 */
export const DEFAULT_NARRATOR_NAME = 'Narrator';

export const CharacterRecordSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  voice_code: Type.String(),
  speed_rate: Type.Number(),
  pitch_rate: Type.Number(),
  volume: Type.Integer(),
  /** The narrator: speaks every segment without another speaker. Exactly one per project. */
  narrator: Type.Boolean(),
  /**
   * False for the narrator under the server's default name (DEFAULT_NARRATOR_NAME), which a
   * client words as the narrator's role in its own language; true for a name a person gave.
   */
  named: Type.Boolean(),
  /** False for a character suggested by the text's attributions and not yet confirmed. */
  confirmed: Type.Boolean(),
  /** Segments it speaks (the narrator's: those without another speaker). */
  segments: Type.Integer(),
  /** Segments the attributions suggest for it that it does not speak yet. */
  suggested: Type.Integer(),
});
export type CharacterRecord = Static<typeof CharacterRecordSchema>;

export const ProjectRecordSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  author: Nullable(Type.String()),
  /** Language code of the book (`vi`, `en`, …): the narrator's voices are offered from it. */
  language: Type.String(),
  has_cover: Type.Boolean(),
  model_id: literals(MODEL_IDS),
  preset: literals(MASTERING_PRESETS),
  format: literals(BOOK_FORMATS),
  folder_format: Nullable(literals(FOLDER_FORMATS)),
  /** The file it was imported from, if any. */
  source_name: Nullable(Type.String()),
  source_format: Nullable(literals(MANUSCRIPT_FORMATS)),
  chapter_count: Type.Integer(),
  characters: Type.Integer(),
  segment_count: Type.Integer(),
  segments_done: Type.Integer(),
  /** Sum of the included chapters' audio so far, ms. */
  duration_ms: Type.Integer(),
  can_undo: Type.Boolean(),
  can_redo: Type.Boolean(),
  created_at: Type.String(),
  updated_at: Type.String(),
  last_export_at: Nullable(Type.String()),
  /** Each chapter starts with its heading read aloud (by default on for the ACX preset only). */
  speak_headings: Type.Boolean(),
  /** Opening and closing credits as the first and last chapters (by default on for ACX only). */
  credits: Type.Boolean(),
  /** Who reads the book, named in the opening credits. */
  narrator_name: Nullable(Type.String()),
  /** The copyright line of the closing credits. */
  copyright: Nullable(Type.String()),
  /** The opening credits' words: as edited, or made from title, author and narrator in the book's language. */
  opening_credits: Type.String(),
  /** The closing credits' words: as edited, or "The end." (vi "Hết.") and the copyright line. */
  closing_credits: Type.String(),
  /** Whether the credits' words are a person's (false: made from the project). */
  opening_credits_edited: Type.Boolean(),
  closing_credits_edited: Type.Boolean(),
});
export type ProjectRecord = Static<typeof ProjectRecordSchema>;

/**
 * GET /api/v1/projects/<id> (and every edit's answer): the project with its cast and its
 * chapters, without their segments (GET …/chapters/<cid>/segments pages them), so the answer
 * stays small whatever the book's length.
 */
/**
 * How an imported project's language was chosen (in the answer to POST /api/v1/projects/import
 * only): the request's `language`, else the language detected from the text (vi or en), else
 * the file's metadata, else the voice's, else English.
 */
export const LanguageChoiceSchema = Type.Object({
  language: Type.String(),
  source: Type.Union([
    Type.Literal('request'),
    Type.Literal('text'),
    Type.Literal('metadata'),
    Type.Literal('voice'),
    Type.Literal('default'),
  ]),
  /** The file's metadata language, its primary subtag (`en-US` → `en`), or null when it names none. */
  metadata: Nullable(Type.String()),
  /** The language of the text, detected from its letters and words. */
  detected: Type.Union([Type.Literal('vi'), Type.Literal('en'), Type.Literal('unknown')]),
});
export type LanguageChoice = Static<typeof LanguageChoiceSchema>;

export const ProjectDetailSchema = Type.Object({
  project: ProjectRecordSchema,
  characters: Type.Array(CharacterRecordSchema, { maxItems: PROJECT_LIMITS.cast }),
  chapters: Type.Array(ChapterRecordSchema, { maxItems: PROJECT_LIMITS.chapters }),
  language_choice: Type.Optional(LanguageChoiceSchema),
  /**
   * In the answer to an import only, when the file was written in a legacy Vietnamese encoding
   * (TCVN3, VNI, VIQR) and its text was converted to Unicode.
   */
  legacy_encoding: Type.Optional(Type.Union(LEGACY_VIETNAMESE_ENCODINGS.map((e) => Type.Literal(e)))),
  /** In the answer to an import of a plain-text or Markdown file only: the character encoding detected. */
  text_encoding: Type.Optional(Type.Union(TEXT_ENCODINGS.map((e) => Type.Literal(e)))),
});
export type ProjectDetail = Static<typeof ProjectDetailSchema>;

/** Query of GET …/chapters/<cid>/segments: a window of the chapter's segments, by position. */
export const SegmentPageQuerySchema = Type.Object({
  /** 0-based position of the first segment (default 0). */
  offset: Type.Optional(Type.String({ pattern: '^(0|[1-9][0-9]{0,8})$', description: 'Default 0.' })),
  /** Segments at most: 1 to 500 (default 100). */
  limit: Type.Optional(
    Type.String({ pattern: '^([1-9][0-9]?|[1-4][0-9][0-9]|500)$', description: '1 to 500 (default 100).' }),
  ),
});
export type SegmentPageQuery = Static<typeof SegmentPageQuerySchema>;

/** GET …/chapters/<cid>/segments: a window of a chapter's segments in order, and how many it has. */
export const SegmentPageSchema = Type.Object({
  chapter_id: Type.String(),
  items: Type.Array(SegmentRecordSchema, { maxItems: PROJECT_LIMITS.segmentPage }),
  offset: Type.Integer(),
  limit: Type.Integer(),
  /** The chapter's segments in all. */
  total: Type.Integer(),
});
export type SegmentPage = Static<typeof SegmentPageSchema>;

/** Query of GET /api/v1/projects: a page of the key's projects, newest first. */
export const ProjectListQuerySchema = Type.Object({
  /** Projects at most: 1 to 100 (default 20). */
  limit: Type.Optional(
    Type.String({ pattern: '^([1-9][0-9]?|100)$', description: '1 to 100 (default 20).' }),
  ),
  /** A `next_cursor` of this list, unchanged (opaque); without it, the first page. */
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
});
export type ProjectListQuery = Static<typeof ProjectListQuerySchema>;

/**
 * GET /api/v1/projects: a page of the key's projects, newest first, and how many it has;
 * `next_cursor` (null on the last page) reads the page after this one.
 */
export const ProjectListSchema = Type.Object({
  items: Type.Array(ProjectRecordSchema, { maxItems: PROJECT_LIMITS.listPage }),
  next_cursor: Nullable(Type.String()),
  /** The key's projects in all. */
  total: Type.Integer(),
});
export type ProjectList = Static<typeof ProjectListSchema>;

/** Body of POST /api/v1/projects (an empty project) and PATCH /api/v1/projects/<id>. */
export const ProjectSettingsSchema = Type.Object({
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  author: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  language: Type.Optional(Type.String({ minLength: 2, maxLength: 35 })),
  /** JPEG or PNG in base64 (a `data:` prefix allowed); null removes it. */
  cover: Type.Optional(Nullable(Type.String())),
  /** The narrator's voice and prosody (the narrator character's). */
  voice_code: Type.Optional(Type.String()),
  speed_rate: Type.Optional(Type.Number({ minimum: RATE_MIN, maximum: RATE_MAX })),
  pitch_rate: Type.Optional(Type.Number({ minimum: RATE_MIN, maximum: RATE_MAX })),
  volume: Type.Optional(Type.Integer({ minimum: VOLUME_MIN, maximum: VOLUME_MAX })),
  model_id: Type.Optional(literals(MODEL_IDS)),
  preset: Type.Optional(literals(MASTERING_PRESETS)),
  format: Type.Optional(literals(BOOK_FORMATS)),
  folder_format: Type.Optional(Nullable(literals(FOLDER_FORMATS))),
  /** Chapters start with their heading read aloud; null: as the preset has it (on for ACX). */
  speak_headings: Type.Optional(Nullable(Type.Boolean())),
  /** Opening and closing credits; null: as the preset has it (on for ACX). */
  credits: Type.Optional(Nullable(Type.Boolean())),
  narrator_name: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  copyright: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  /** The credits' words; null (or empty) makes them from the project again. */
  opening_credits: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  closing_credits: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  /**
   * PATCH only: the narrator and the characters whose catalogue voices speak another language
   * than the project's (the new `language`, if given) get voices of that language, chosen as an
   * import chooses them (the narrator the language's first voice unless `voice_code` is given;
   * each character one of its voice's gender). Custom voices stay. One undo step with the rest.
   */
  recast: Type.Optional(Type.Boolean()),
});
export type ProjectSettings = Static<typeof ProjectSettingsSchema>;

/** The states of a project render (a chapter, a selection or the whole book). */
export const PROJECT_RENDER_STATUSES = [
  'queued',
  'rendering',
  'paused',
  'done',
  'failed',
  'cancelled',
] as const;
export type ProjectRenderStatus = (typeof PROJECT_RENDER_STATUSES)[number];

export const ProjectRenderRecordSchema = Type.Object({
  id: Type.String(),
  project_id: Type.String(),
  status: literals(PROJECT_RENDER_STATUSES),
  /** The chapters it renders (every included chapter when the whole book was asked). */
  chapter_ids: Type.Array(Type.String()),
  segments_total: Type.Integer(),
  segments_done: Type.Integer(),
  /** 0–1, by characters. */
  progress: Type.Number(),
  /** Each chapter's progress, 0–1. */
  chapters: Type.Array(Type.Object({ chapter_id: Type.String(), progress: Type.Number() })),
  /** Seconds left, from the throughput measured so far (null until it can be told). */
  eta_seconds: Nullable(Type.Number()),
  /** Credits charged for the segments it renders (refunded for those it did not). */
  cost: Type.Number(),
  error_code: Nullable(Type.String()),
  error_message: Nullable(Type.String()),
  /** On a failed render with particulars: as an error body's `error_details`. */
  error_details: Type.Optional(ErrorDetailsSchema),
  created_at: Type.String(),
  finished_at: Nullable(Type.String()),
});
export type ProjectRenderRecord = Static<typeof ProjectRenderRecordSchema>;

/** Data of the `project` server-sent event of GET /api/v1/events: a segment or a render changed. */
export const ProjectEventSchema = Type.Object({
  project_id: Type.String(),
  render: Nullable(ProjectRenderRecordSchema),
  /**
   * Segments whose state changed, with their new state: at most PROJECT_LIMITS.eventSegments (a
   * change of more, such as a whole book queued, lists none: read the segments again).
   */
  segments: Type.Array(Type.Object({ id: Type.String(), state: literals(SEGMENT_STATES) }), {
    maxItems: PROJECT_LIMITS.eventSegments,
  }),
});
export type ProjectEvent = Static<typeof ProjectEventSchema>;

/** Body of POST /api/v1/projects/<id>/exports (defaults: the project's format and folder format). */
export const ProjectExportBodySchema = Type.Object({
  format: Type.Optional(literals(BOOK_FORMATS)),
  folder_format: Type.Optional(Nullable(literals(FOLDER_FORMATS))),
});
export type ProjectExportBody = Static<typeof ProjectExportBodySchema>;

/** Body of POST /api/v1/projects/<id>/renders (neither: the whole book's included chapters). */
export const ProjectRenderBodySchema = Type.Object({
  chapter_ids: Type.Optional(Type.Array(Type.String(), { maxItems: 10_000 })),
  segment_ids: Type.Optional(Type.Array(Type.String(), { maxItems: 100_000 })),
});
export type ProjectRenderBody = Static<typeof ProjectRenderBodySchema>;

/** Body of POST /api/v1/projects/<id>/segments/<sid>/regenerate. */
export const RegenerateBodySchema = Type.Object({
  voice_code: Type.Optional(Type.String({ minLength: 1 })),
  speed_rate: Type.Optional(Type.Number({ minimum: RATE_MIN, maximum: RATE_MAX })),
  pitch_rate: Type.Optional(Type.Number({ minimum: RATE_MIN, maximum: RATE_MAX })),
  volume: Type.Optional(Type.Integer({ minimum: VOLUME_MIN, maximum: VOLUME_MAX })),
});
export type RegenerateBody = Static<typeof RegenerateBodySchema>;

export const PROJECT_EXPORT_STATUSES = ['rendering', 'encoding', 'done', 'failed'] as const;

/**
 * An export of a project (POST /api/v1/projects/<id>/exports, GET …/exports/<eid>): its changed
 * segments rendered first, then the book encoded; the file named after the book
 * (`The Lighthouse.m4b`; a folder export downloads as `The Lighthouse.zip` of `01 - Opening.mp3`…).
 */
export const ProjectExportRecordSchema = Type.Object({
  id: Type.String(),
  project_id: Type.String(),
  status: literals(PROJECT_EXPORT_STATUSES),
  format: literals(BOOK_FORMATS),
  folder_format: Nullable(literals(FOLDER_FORMATS)),
  /** The render it waited for (null when nothing needed rendering). */
  render_id: Nullable(Type.String()),
  /** The download's file name. */
  file_name: Type.String(),
  /** Where to download it once done (null before). */
  download_url: Nullable(Type.String()),
  /** For `folder`: the names of the files in the zip. */
  files: Type.Array(Type.String()),
  /**
   * The book-wide subtitles written with it (`<title>.srt`, `<title>.vtt`; a folder's also in the
   * zip), each at `…/exports/<eid>/subtitles/srt` and `…/subtitles/vtt`; absent in records of
   * exports made before.
   */
  subtitles: Type.Optional(Type.Array(Type.String())),
  chapters: Type.Array(
    Type.Object({ title: Type.String(), start_ms: Type.Integer(), end_ms: Type.Integer() }),
  ),
  /** Each file's loudness and the preset's checks, as an audiobook export's record has them. */
  report: Type.Array(ExportFileReportSchema),
  duration_ms: Nullable(Type.Integer()),
  file_bytes: Nullable(Type.Integer()),
  /** While `encoding`: 0–1 of the mastering and encoding (1 once done). */
  progress: Type.Optional(Type.Number()),
  /** While `encoding`: seconds left, from the rate measured so far (null until it can be told). */
  eta_seconds: Type.Optional(Nullable(Type.Number())),
  error_code: Nullable(Type.String()),
  error_message: Nullable(Type.String()),
  /** On a failure with particulars: as an error body's `error_details`. */
  error_details: Type.Optional(ErrorDetailsSchema),
  created_at: Type.String(),
  finished_at: Nullable(Type.String()),
});
export type ProjectExportRecord = Static<typeof ProjectExportRecordSchema>;

/** Query of POST /api/v1/projects/import (the file's bytes are the body). */
export const ProjectImportQuerySchema = Type.Object({
  file_name: Type.String({
    minLength: 1,
    maxLength: 255,
    description: "The file's name: its extension tells the format.",
  }),
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  author: Type.Optional(Type.String({ maxLength: 500 })),
  voice_code: Type.Optional(
    Type.String({ description: "The narrator's voice (default: the language's first)." }),
  ),
  language: Type.Optional(Type.String({ minLength: 2, maxLength: 35 })),
  /** Footnotes and endnotes: left out (`omit`, the default), read after their paragraph (`inline`) or in a last chapter (`appendix`). */
  notes: Type.Optional(literals(NOTES_MODES)),
});
export type ProjectImportQuery = Static<typeof ProjectImportQuerySchema>;

/** Query of POST /api/v1/projects/<id>/import and /api/v1/projects/import-archive. */
export const FileNameQuerySchema = Type.Object({
  file_name: Type.String({ minLength: 1, maxLength: 255 }),
});

/** Query of POST /api/v1/projects/<id>/import: the file's name and, as on a new project's import, `notes`. */
export const ImportIntoQuerySchema = Type.Object({
  file_name: Type.String({ minLength: 1, maxLength: 255 }),
  notes: Type.Optional(literals(NOTES_MODES)),
});
export type ImportIntoQuery = Static<typeof ImportIntoQuerySchema>;

/** Body of PATCH /api/v1/projects/<id>/chapters/<cid>. */
export const ChapterPatchSchema = Type.Object({
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
  included: Type.Optional(Type.Boolean()),
  kind: Type.Optional(literals(CHAPTER_KINDS)),
  /** The heading read aloud at its start; null (or empty) makes it from the title again. */
  spoken_heading: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
});
export type ChapterPatch = Static<typeof ChapterPatchSchema>;

/** Body of POST …/chapters/order (every chapter, in the new order) and …/chapters/merge (adjacent ones). */
export const ChapterIdsSchema = Type.Object({
  chapter_ids: Type.Array(Type.String(), { maxItems: 100_000 }),
});
export type ChapterIds = Static<typeof ChapterIdsSchema>;

/** Body of POST …/chapters/<cid>/split: `segment_id` starts the new chapter. */
export const ChapterSplitSchema = Type.Object({
  segment_id: Type.String(),
  title: Type.Optional(Type.String({ maxLength: 1000 })),
});
export type ChapterSplit = Static<typeof ChapterSplitSchema>;

/**
 * GET …/chapters/<cid>/changes: the chapter's text now and at its last export, each cut after
 * PROJECT_LIMITS.changesCharacters characters (`truncated` then says so).
 */
export const ChapterChangesSchema = Type.Object({
  chapter_id: Type.String(),
  exported_text: Nullable(Type.String()),
  text: Type.String(),
  truncated: Type.Boolean(),
});
export type ChapterChanges = Static<typeof ChapterChangesSchema>;

/** Body of PATCH …/segments/<sid>. */
export const SegmentPatchSchema = Type.Object({
  text: Type.Optional(Type.String({ minLength: 1 })),
  speaker: Type.Optional(Nullable(Type.String())),
  quotes: Type.Optional(Type.Array(QuoteVoiceSchema, { maxItems: 1000 })),
  flag_note: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
});
export type SegmentPatch = Static<typeof SegmentPatchSchema>;

const characterFields = {
  name: Type.String({ minLength: 1, maxLength: 500 }),
  voice_code: Type.String(),
  speed_rate: Type.Optional(Type.Number({ minimum: RATE_MIN, maximum: RATE_MAX })),
  pitch_rate: Type.Optional(Type.Number({ minimum: RATE_MIN, maximum: RATE_MAX })),
  volume: Type.Optional(Type.Integer({ minimum: VOLUME_MIN, maximum: VOLUME_MAX })),
};
/** Body of POST …/characters. */
export const CharacterBodySchema = Type.Object(characterFields);
export type CharacterBody = Static<typeof CharacterBodySchema>;
/** Body of PATCH …/characters/<chid> (`confirmed: true` also gives it the segments suggested for it). */
export const CharacterPatchSchema = Type.Object({
  name: Type.Optional(characterFields.name),
  voice_code: Type.Optional(characterFields.voice_code),
  speed_rate: characterFields.speed_rate,
  pitch_rate: characterFields.pitch_rate,
  volume: characterFields.volume,
  confirmed: Type.Optional(Type.Boolean()),
});
export type CharacterPatch = Static<typeof CharacterPatchSchema>;

/** Body of POST …/characters/<chid>/merge: the character that takes its lines. */
export const CharacterMergeSchema = Type.Object({ into: Type.String() });
export type CharacterMerge = Static<typeof CharacterMergeSchema>;
/** Body of POST …/characters/<chid>/split: names the text attributes some of its lines to. */
export const CharacterSplitSchema = Type.Object({
  names: Type.Array(characterFields.name, { minItems: 1, maxItems: 50 }),
});
export type CharacterSplit = Static<typeof CharacterSplitSchema>;

/** Body of POST …/suggestions/apply (no segment_ids: every suggestion). */
export const SuggestionsApplySchema = Type.Object({
  segment_ids: Type.Optional(Type.Array(Type.String(), { maxItems: 100_000 })),
});

/** DELETE /api/v1/projects/<id>. */
export const ProjectRemovalSchema = Type.Object({ project_id: Type.String(), removed: Type.Literal(true) });
