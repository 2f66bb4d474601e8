import type { BookFormat, FolderFormat, MasteringPresetName } from '../../shared/book-exports';
import type { ChapterKind, ManuscriptFormat } from '../../shared/manuscript';
import type { ModelId } from '../../shared/options';
import type { SegmentState } from '../../shared/projects';
import type { SqlExecutor, SqlValue } from './sql';

/**
 * Book projects' rows (tables of migration 10): a project, its chapters, its cast, its segments
 * and its undo history. Written once for both databases over sql.ts. The segments' audio columns
 * (state, audio_key, duration_ms, error, checks, rendered_at) are written here only as whole rows
 * (an import, an undo); renders write them through project-renders-repo.ts.
 * Times are ISO 8601 UTC with milliseconds.
 */

export interface ProjectRow {
  seq: number;
  /** 32 lowercase hex digits. */
  id: string;
  key_id: string;
  title: string;
  author: string | null;
  language: string;
  cover_type: string | null;
  /** The cover's bytes in base64 (null in `list`, which leaves it out). */
  cover_base64: string | null;
  model_id: ModelId;
  preset: MasteringPresetName;
  format: BookFormat;
  folder_format: FolderFormat | null;
  source_name: string | null;
  source_format: ManuscriptFormat | null;
  /** How many history entries are applied (undo takes entry `history_position`). */
  history_position: number;
  created_at: string;
  updated_at: string;
  last_export_at: string | null;
  /** JSON the export (project-export.ts) keeps about the last export. */
  last_export: string | null;
  /** 0 or 1; null or absent: as the preset has it (on for ACX). Migration 20. */
  speak_headings?: number | null;
  /** Opening and closing credits: 0 or 1; null or absent: as the preset has it (on for ACX). */
  credits?: number | null;
  /** Who reads the book, for the opening credits. */
  narrator_name?: string | null;
  /** The copyright line of the closing credits. */
  copyright?: string | null;
  /** The credits' words as a person edited them; null or absent: made from the project. */
  opening_credits?: string | null;
  closing_credits?: string | null;
}

export type NewProjectRow = Omit<ProjectRow, 'seq' | 'history_position' | 'last_export_at' | 'last_export'>;

/** The columns a project's settings change. */
export type ProjectFields = Partial<
  Pick<
    ProjectRow,
    | 'title'
    | 'author'
    | 'language'
    | 'cover_type'
    | 'cover_base64'
    | 'model_id'
    | 'preset'
    | 'format'
    | 'folder_format'
    | 'source_name'
    | 'source_format'
    | 'last_export_at'
    | 'last_export'
    | 'speak_headings'
    | 'credits'
    | 'narrator_name'
    | 'copyright'
    | 'opening_credits'
    | 'closing_credits'
  >
>;

const PROJECT_FIELDS: readonly (keyof ProjectFields)[] = [
  'title',
  'author',
  'language',
  'cover_type',
  'cover_base64',
  'model_id',
  'preset',
  'format',
  'folder_format',
  'source_name',
  'source_format',
  'last_export_at',
  'last_export',
  'speak_headings',
  'credits',
  'narrator_name',
  'copyright',
  'opening_credits',
  'closing_credits',
];

/** A project with the figures a list shows (no cover bytes). */
export interface ProjectSummaryRow extends ProjectRow {
  chapter_count: number;
  /** Characters of text of all its segments. */
  characters: number;
  segment_count: number;
  segments_done: number;
  /** Audio of the included chapters' segments so far, ms. */
  duration_ms: number;
  /** 0 or 1. */
  can_undo: number;
  can_redo: number;
}

export interface ChapterRow {
  id: string;
  project_id: string;
  position: number;
  title: string;
  kind: ChapterKind;
  /** 0 or 1. */
  included: number;
  /** The chapter's text at its last export (segments joined by blank lines); null before one. */
  exported_text: string | null;
  /** The heading read at its start as a person edited it; null or absent: from its title. Migration 20. */
  spoken_heading?: string | null;
}

export interface CharacterRow {
  id: string;
  project_id: string;
  name: string;
  voice_code: string;
  speed_rate: number;
  pitch_rate: number;
  volume: number;
  /** 0 or 1. */
  narrator: number;
  /** 0 or 1. */
  confirmed: number;
  /**
   * 1: a name a person gave (or the text named); 0: the narrator's default name; null or absent:
   * written before this was kept (an older archive or undo step): given unless a narrator's name
   * is the default (projects/project-service.ts characterRecord).
   */
  name_given?: number | null;
}

export interface SegmentRow {
  id: string;
  project_id: string;
  chapter_id: string;
  position: number;
  text: string;
  /** JSON EmphasisSpan[] (null: none). */
  emphasis: string | null;
  /** A character id (null: the narrator). */
  speaker: string | null;
  /** JSON QuoteVoice[] (null: none). */
  quotes: string | null;
  suggested_speaker: string | null;
  state: SegmentState;
  audio_key: string | null;
  duration_ms: number | null;
  error: string | null;
  /** The failure's code and particulars (JSON) beside `error` (written by setSegmentAudio only). */
  error_code?: string | null;
  error_details?: string | null;
  flag_note: string | null;
  /** JSON SegmentCheck[] (null: none). */
  checks: string | null;
  rendered_at: string | null;
}

/** A chapter's figures, counted by the database (no segment row leaves it). */
export interface ChapterFiguresRow {
  chapter_id: string;
  segment_count: number;
  /** Characters of its segments' text. */
  characters: number;
  segments_done: number;
  /** Segments with audio, and the sum of their durations, ms. */
  with_audio: number;
  duration_ms: number;
}

/** How many segments a character speaks (`character_id` null: the narrator) and has suggested. */
export interface CastFiguresRow {
  character_id: string | null;
  segments: number;
  suggested: number;
}

export interface HistoryRow {
  project_id: string;
  position: number;
  label: string;
  /** JSON of what undoes the edit. */
  undo: string;
  /** JSON of what redoes it. */
  redo: string;
  created_at: string;
}

export interface ProjectsRepo {
  insertProject(row: NewProjectRow): Promise<void>;
  getProject(id: string): Promise<ProjectRow | undefined>;
  /**
   * A page of the key's projects with their figures, newest first (by `seq`): at most `limit`,
   * those with a `seq` below `beforeSeq` when given. The figures are counted for the page only.
   */
  listProjects(
    keyId: string,
    page: { beforeSeq?: number | undefined; limit: number },
  ): Promise<ProjectSummaryRow[]>;
  /** How many projects the key has. */
  countProjects(keyId: string): Promise<number>;
  /**
   * The `seq` a page continues below: the project `id`'s when the key still has it, else (it was
   * deleted) just above the newest of the key's projects made before `createdAt`.
   */
  pageAnchor(keyId: string, id: string, createdAt: string): Promise<number>;
  /** Sets the given columns and `updated_at`. */
  updateProject(id: string, fields: ProjectFields, updatedAt: string): Promise<void>;
  /** Removes the project and every row of it (chapters, cast, segments, history, renders). */
  removeProject(id: string): Promise<boolean>;

  chapters(projectId: string): Promise<ChapterRow[]>;
  /** Inserts, or replaces whole, each chapter by id. */
  putChapters(rows: readonly ChapterRow[]): Promise<void>;
  removeChapters(ids: readonly string[]): Promise<void>;
  setExportedText(chapterId: string, text: string | null): Promise<void>;

  characters(projectId: string): Promise<CharacterRow[]>;
  putCharacters(rows: readonly CharacterRow[]): Promise<void>;
  removeCharacters(ids: readonly string[]): Promise<void>;

  /** The project's segments ordered by chapter id then position (group them by chapter_id). */
  segments(projectId: string): Promise<SegmentRow[]>;
  /** A chapter's segments in order. */
  chapterSegments(chapterId: string): Promise<SegmentRow[]>;
  /** At most `limit` of a chapter's segments in order, from position `offset` (0-based) on. */
  chapterSegmentWindow(chapterId: string, offset: number, limit: number): Promise<SegmentRow[]>;
  /** A chapter's segments' text in order (no other column). */
  chapterTexts(chapterId: string): Promise<string[]>;
  /** Each chapter's figures that has segments (a chapter without any has no row). */
  chapterFigures(projectId: string): Promise<ChapterFiguresRow[]>;
  /** The segments each speaker speaks and has suggested (speakers of none left out). */
  castFigures(projectId: string): Promise<CastFiguresRow[]>;
  getSegment(id: string): Promise<SegmentRow | undefined>;
  /** Inserts, or replaces whole, each segment by id: batched multi-row statements. */
  putSegments(rows: readonly SegmentRow[]): Promise<void>;
  removeSegments(ids: readonly string[]): Promise<void>;

  /** The history entry at `position`, if kept. */
  historyAt(projectId: string, position: number): Promise<HistoryRow | undefined>;
  /**
   * Records an edit after the applied ones: drops the redo tail (entries after
   * `row.position - 1`), inserts `row`, sets history_position to its position, and keeps at
   * most `keep` entries (the oldest go).
   */
  pushHistory(row: HistoryRow, keep: number): Promise<void>;
  setHistoryPosition(projectId: string, position: number): Promise<void>;
}

const CHAPTER_COLUMNS = [
  'id',
  'project_id',
  'position',
  'title',
  'kind',
  'included',
  'exported_text',
  'spoken_heading',
] as const;
const CHARACTER_COLUMNS = [
  'id',
  'project_id',
  'name',
  'voice_code',
  'speed_rate',
  'pitch_rate',
  'volume',
  'narrator',
  'confirmed',
  'name_given',
] as const;
const SEGMENT_COLUMNS = [
  'id',
  'project_id',
  'chapter_id',
  'position',
  'text',
  'emphasis',
  'speaker',
  'quotes',
  'suggested_speaker',
  'state',
  'audio_key',
  'duration_ms',
  'error',
  'flag_note',
  'checks',
  'rendered_at',
] as const;

/** Rows a multi-row statement takes at most; the rest go in smaller fixed sizes (few distinct statements). */
const BATCH_SIZES = [250, 25, 1] as const;

/** The project's columns but the cover's bytes. */
const LIST_COLUMNS = `p.seq, p.id, p.key_id, p.title, p.author, p.language, p.cover_type, NULL AS cover_base64,
  p.model_id, p.preset, p.format, p.folder_format, p.source_name, p.source_format, p.history_position,
  p.created_at, p.updated_at, p.last_export_at, p.last_export, p.speak_headings, p.credits, p.narrator_name,
  p.copyright, p.opening_credits, p.closing_credits`;

export function createProjectsRepo(db: SqlExecutor): ProjectsRepo {
  return {
    ...createProjectRowsRepo(db),
    ...createChapterRowsRepo(db),
    ...createCastRowsRepo(db),
    ...createSegmentRowsRepo(db),
    ...createHistoryRowsRepo(db),
  };
}

/** INSERT … ON CONFLICT (id) DO UPDATE of whole rows, in batches. */
async function putRows<T extends object>(
  db: SqlExecutor,
  table: string,
  columns: readonly (keyof T & string)[],
  rows: readonly T[],
) {
  const updates = columns
    .filter((c) => c !== 'id')
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  let at = 0;
  while (at < rows.length) {
    const size = BATCH_SIZES.find((n) => n <= rows.length - at)!;
    const params: SqlValue[] = [];
    for (const row of rows.slice(at, at + size)) {
      for (const column of columns) params.push((row[column] as SqlValue | undefined) ?? null);
    }
    await db.run(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array.from({ length: size }, () => tuple).join(', ')}
       ON CONFLICT (id) DO UPDATE SET ${updates}`,
      params,
    );
    at += size;
  }
}

async function removeRows(db: SqlExecutor, table: string, ids: readonly string[]) {
  let at = 0;
  while (at < ids.length) {
    const size = BATCH_SIZES.find((n) => n <= ids.length - at)!;
    await db.run(
      `DELETE FROM ${table} WHERE id IN (${Array.from({ length: size }, () => '?').join(', ')})`,
      ids.slice(at, at + size),
    );
    at += size;
  }
}

/** The projects table: a project's row, its page of the list, its removal with every row of it. */
function createProjectRowsRepo(
  db: SqlExecutor,
): Pick<
  ProjectsRepo,
  | 'insertProject'
  | 'getProject'
  | 'listProjects'
  | 'countProjects'
  | 'pageAnchor'
  | 'updateProject'
  | 'removeProject'
> {
  return {
    async insertProject(row) {
      await db.run(
        `INSERT INTO projects (id, key_id, title, author, language, cover_type, cover_base64, model_id, preset, format,
           folder_format, source_name, source_format, created_at, updated_at, speak_headings, credits, narrator_name,
           copyright, opening_credits, closing_credits)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          row.id,
          row.key_id,
          row.title,
          row.author,
          row.language,
          row.cover_type,
          row.cover_base64,
          row.model_id,
          row.preset,
          row.format,
          row.folder_format,
          row.source_name,
          row.source_format,
          row.created_at,
          row.updated_at,
          row.speak_headings ?? null,
          row.credits ?? null,
          row.narrator_name ?? null,
          row.copyright ?? null,
          row.opening_credits ?? null,
          row.closing_credits ?? null,
        ],
      );
    },
    async getProject(id) {
      return await db.get<ProjectRow>('SELECT * FROM projects WHERE id = ?', [id]);
    },
    async listProjects(keyId, { beforeSeq, limit }) {
      const rows = await db.all<ProjectSummaryRow>(
        `WITH page AS (
           SELECT * FROM projects
           WHERE key_id = ?${beforeSeq === undefined ? '' : ' AND seq < ?'}
           ORDER BY seq DESC LIMIT ?
         )
         SELECT ${LIST_COLUMNS},
           (SELECT COUNT(*) FROM project_chapters c WHERE c.project_id = p.id) AS chapter_count,
           COALESCE(s.characters, 0) AS characters,
           COALESCE(s.segment_count, 0) AS segment_count,
           COALESCE(s.segments_done, 0) AS segments_done,
           COALESCE(s.duration_ms, 0) AS duration_ms,
           CASE WHEN EXISTS (SELECT 1 FROM project_history h WHERE h.project_id = p.id AND h.position = p.history_position)
             THEN 1 ELSE 0 END AS can_undo,
           CASE WHEN EXISTS (SELECT 1 FROM project_history h WHERE h.project_id = p.id AND h.position = p.history_position + 1)
             THEN 1 ELSE 0 END AS can_redo
         FROM page p
         LEFT JOIN (
           SELECT g.project_id, SUM(LENGTH(g.text)) AS characters, COUNT(*) AS segment_count,
             SUM(CASE WHEN g.state = 'done' THEN 1 ELSE 0 END) AS segments_done,
             SUM(CASE WHEN c.included = 1 THEN g.duration_ms ELSE 0 END) AS duration_ms
           FROM project_segments g JOIN project_chapters c ON c.id = g.chapter_id
           WHERE g.project_id IN (SELECT id FROM page)
           GROUP BY g.project_id
         ) s ON s.project_id = p.id
         ORDER BY p.seq DESC`,
        beforeSeq === undefined ? [keyId, limit] : [keyId, beforeSeq, limit],
      );
      // PostgreSQL answers SUM of an INTEGER column as bigint text on some paths: numbers throughout.
      return rows.map((r) => ({
        ...r,
        seq: Number(r.seq),
        chapter_count: Number(r.chapter_count),
        characters: Number(r.characters),
        segment_count: Number(r.segment_count),
        segments_done: Number(r.segments_done),
        duration_ms: Number(r.duration_ms),
        can_undo: Number(r.can_undo),
        can_redo: Number(r.can_redo),
      }));
    },
    async countProjects(keyId) {
      const row = await db.get<{ n: number | string }>(
        'SELECT COUNT(*) AS n FROM projects WHERE key_id = ?',
        [keyId],
      );
      return Number(row?.n ?? 0);
    },
    async pageAnchor(keyId, id, createdAt) {
      const own = await db.get<{ seq: number | string }>(
        'SELECT seq FROM projects WHERE id = ? AND key_id = ?',
        [id, keyId],
      );
      if (own) return Number(own.seq);
      const older = await db.get<{ seq: number | string | null }>(
        'SELECT MAX(seq) AS seq FROM projects WHERE key_id = ? AND created_at < ?',
        [keyId, createdAt],
      );
      return older?.seq === null || older?.seq === undefined ? 0 : Number(older.seq) + 1;
    },
    async updateProject(id, fields, updatedAt) {
      const columns = PROJECT_FIELDS.filter((c) => fields[c] !== undefined);
      await db.run(
        `UPDATE projects SET ${[...columns.map((c) => `${c} = ?`), 'updated_at = ?'].join(', ')} WHERE id = ?`,
        [...columns.map((c) => fields[c] as SqlValue), updatedAt, id],
      );
    },
    async removeProject(id) {
      // Children first: the same on both databases whatever the foreign-key setting.
      for (const table of [
        'project_renders',
        'project_history',
        'project_segments',
        'project_characters',
        'project_chapters',
      ]) {
        await db.run(`DELETE FROM ${table} WHERE project_id = ?`, [id]);
      }
      return (await db.run('DELETE FROM projects WHERE id = ?', [id])).changes === 1;
    },
  };
}

/** The project_chapters table. */
function createChapterRowsRepo(
  db: SqlExecutor,
): Pick<ProjectsRepo, 'chapters' | 'putChapters' | 'removeChapters' | 'setExportedText'> {
  return {
    async chapters(projectId) {
      return await db.all<ChapterRow>(
        'SELECT * FROM project_chapters WHERE project_id = ? ORDER BY position',
        [projectId],
      );
    },
    putChapters: (rows) => putRows<ChapterRow>(db, 'project_chapters', CHAPTER_COLUMNS, rows),
    removeChapters: (ids) => removeRows(db, 'project_chapters', ids),
    async setExportedText(chapterId, text) {
      await db.run('UPDATE project_chapters SET exported_text = ? WHERE id = ?', [text, chapterId]);
    },
  };
}

/** The project_characters table (the cast). */
function createCastRowsRepo(
  db: SqlExecutor,
): Pick<ProjectsRepo, 'characters' | 'putCharacters' | 'removeCharacters'> {
  return {
    async characters(projectId) {
      const rows = await db.all<CharacterRow>(
        'SELECT * FROM project_characters WHERE project_id = ? ORDER BY narrator DESC, name, id',
        [projectId],
      );
      return rows;
    },
    putCharacters: (rows) => putRows<CharacterRow>(db, 'project_characters', CHARACTER_COLUMNS, rows),
    removeCharacters: (ids) => removeRows(db, 'project_characters', ids),
  };
}

/** The project_segments table: the segments and the figures counted from them. */
function createSegmentRowsRepo(
  db: SqlExecutor,
): Pick<
  ProjectsRepo,
  | 'segments'
  | 'chapterSegments'
  | 'chapterSegmentWindow'
  | 'chapterTexts'
  | 'chapterFigures'
  | 'castFigures'
  | 'getSegment'
  | 'putSegments'
  | 'removeSegments'
> {
  return {
    async segments(projectId) {
      const rows = await db.all<SegmentRow>(
        'SELECT * FROM project_segments WHERE project_id = ? ORDER BY chapter_id, position',
        [projectId],
      );
      return rows.map(segmentNumbers);
    },
    async chapterSegments(chapterId) {
      const rows = await db.all<SegmentRow>(
        'SELECT * FROM project_segments WHERE chapter_id = ? ORDER BY position',
        [chapterId],
      );
      return rows.map(segmentNumbers);
    },
    async chapterSegmentWindow(chapterId, offset, limit) {
      const rows = await db.all<SegmentRow>(
        'SELECT * FROM project_segments WHERE chapter_id = ? ORDER BY position LIMIT ? OFFSET ?',
        [chapterId, limit, offset],
      );
      return rows.map(segmentNumbers);
    },
    async chapterTexts(chapterId) {
      const rows = await db.all<{ text: string }>(
        'SELECT text FROM project_segments WHERE chapter_id = ? ORDER BY position',
        [chapterId],
      );
      return rows.map((r) => r.text);
    },
    async chapterFigures(projectId) {
      const rows = await db.all<ChapterFiguresRow>(
        `SELECT chapter_id, COUNT(*) AS segment_count, SUM(LENGTH(text)) AS characters,
           SUM(CASE WHEN state = 'done' THEN 1 ELSE 0 END) AS segments_done,
           COUNT(duration_ms) AS with_audio, COALESCE(SUM(duration_ms), 0) AS duration_ms
         FROM project_segments WHERE project_id = ? GROUP BY chapter_id`,
        [projectId],
      );
      // PostgreSQL answers COUNT and SUM as bigint text: numbers throughout.
      return rows.map((r) => ({
        chapter_id: r.chapter_id,
        segment_count: Number(r.segment_count),
        characters: Number(r.characters),
        segments_done: Number(r.segments_done),
        with_audio: Number(r.with_audio),
        duration_ms: Number(r.duration_ms),
      }));
    },
    async castFigures(projectId) {
      const rows = await db.all<CastFiguresRow>(
        `SELECT character_id, SUM(speaks) AS segments, SUM(suggested) AS suggested FROM (
           SELECT speaker AS character_id, 1 AS speaks, 0 AS suggested
             FROM project_segments WHERE project_id = ?
           UNION ALL
           SELECT suggested_speaker, 0, 1 FROM project_segments
             WHERE project_id = ? AND suggested_speaker IS NOT NULL
               AND (speaker IS NULL OR speaker <> suggested_speaker)
         ) t GROUP BY character_id`,
        [projectId, projectId],
      );
      return rows.map((r) => ({
        character_id: r.character_id,
        segments: Number(r.segments),
        suggested: Number(r.suggested),
      }));
    },
    async getSegment(id) {
      const row = await db.get<SegmentRow>('SELECT * FROM project_segments WHERE id = ?', [id]);
      return row && segmentNumbers(row);
    },
    putSegments: (rows) => putRows<SegmentRow>(db, 'project_segments', SEGMENT_COLUMNS, rows),
    removeSegments: (ids) => removeRows(db, 'project_segments', ids),
  };
}

/** The project_history table and the project's history position (undo, redo). */
function createHistoryRowsRepo(
  db: SqlExecutor,
): Pick<ProjectsRepo, 'historyAt' | 'pushHistory' | 'setHistoryPosition'> {
  return {
    async historyAt(projectId, position) {
      return await db.get<HistoryRow>('SELECT * FROM project_history WHERE project_id = ? AND position = ?', [
        projectId,
        position,
      ]);
    },
    async pushHistory(row, keep) {
      await db.run('DELETE FROM project_history WHERE project_id = ? AND (position >= ? OR position <= ?)', [
        row.project_id,
        row.position,
        row.position - keep,
      ]);
      await db.run(
        `INSERT INTO project_history (project_id, position, label, undo, redo, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
        [row.project_id, row.position, row.label, row.undo, row.redo, row.created_at],
      );
      await db.run('UPDATE projects SET history_position = ? WHERE id = ?', [row.position, row.project_id]);
    },
    async setHistoryPosition(projectId, position) {
      await db.run('UPDATE projects SET history_position = ? WHERE id = ?', [position, projectId]);
    },
  };
}

/** PostgreSQL's BIGINT duration arrives as a number already (int8 parser); SQLite's as a number. */
function segmentNumbers(row: SegmentRow): SegmentRow {
  return row.duration_ms === null || typeof row.duration_ms === 'number'
    ? row
    : { ...row, duration_ms: Number(row.duration_ms) };
}
