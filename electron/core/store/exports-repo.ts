import type { ModelId } from '../../shared/options';
import type { BookFormat, ExportStatus, FolderFormat, MasteringPresetName } from '../../shared/book-exports';
import type { Lease } from './requests-repo';
import type { SqlExecutor, SqlParams } from './sql';

/**
 * What a row of `exports` exports: a text (POST /api/v1/exports, jobs/export-jobs.ts) or a book
 * project (POST /api/v1/projects/<id>/exports, projects/project-export.ts). Each kind is run by its
 * own worker over the same queue, leases and recovery.
 */
export type ExportKind = 'text' | 'project';

/** A row of `exports`: one audiobook export. Times are ISO 8601 UTC with milliseconds. */
export interface ExportRow {
  seq: number;
  /** The export_id of the API: 32 lowercase hex digits. */
  id: string;
  key_id: string;
  input_text: string;
  characters: number;
  voice_code: string;
  model_id: ModelId;
  speed_rate: number;
  pitch_rate: number;
  volume: number;
  preset: MasteringPresetName;
  format: BookFormat;
  folder_format: FolderFormat | null;
  title: string | null;
  author: string | null;
  /** `image/jpeg` or `image/png` when there is a cover. */
  cover_type: string | null;
  /** The cover's bytes in base64 (null in `list`, which leaves it out). */
  cover_base64: string | null;
  cost_milli: number;
  /**
   * The custom voice `voice_code` named when accepted: its definition then, as JSON (CustomVoice);
   * null for a catalogue voice.
   */
  custom_voice: string | null;
  /** Secret part of the download links. */
  download_token: string;
  status: ExportStatus;
  /** 0–1, as last recorded by the instance running it (renewed with its lease). */
  progress: number;
  /** 1 once its owner asked to cancel it while another instance runs it. */
  cancel_requested: number;
  error_code: string | null;
  error_message: string | null;
  /** A failure's particulars, JSON (platform/error-details.ts; null: none or not failed). */
  error_details?: string | null;
  /** JSON: `[{title, start_ms, end_ms}]` once SUCCESS. */
  chapters: string | null;
  /** JSON: the files' loudness (`ExportFileReport[]`) once SUCCESS. */
  report: string | null;
  duration_ms: number | null;
  file_bytes: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** How many times it was started (more than 1 after a crash). */
  run_attempts: number;
  lease_owner: string | null;
  lease_until: number | null;
  kind: ExportKind;
  /** The exported project (kind `project`), else null. */
  project_id: string | null;
  /** A project export's own record fields as JSON (projects/project-export.ts), else null. */
  project_state: string | null;
}

export type NewExportRow = Omit<
  ExportRow,
  | 'seq'
  | 'status'
  | 'progress'
  | 'cancel_requested'
  | 'error_code'
  | 'error_message'
  | 'chapters'
  | 'report'
  | 'duration_ms'
  | 'file_bytes'
  | 'started_at'
  | 'finished_at'
  | 'run_attempts'
  | 'lease_owner'
  | 'lease_until'
  | 'kind'
  | 'project_id'
  | 'project_state'
> &
  Partial<Pick<ExportRow, 'kind' | 'project_id' | 'project_state'>>;

/** How an export ended. */
export interface ExportFinish {
  status: 'SUCCESS' | 'FAILURE';
  finishedAt: string;
  errorCode?: string | null;
  errorMessage?: string | null;
  /** JSON of the failure's particulars (platform/error-details.ts storedErrorDetails). */
  errorDetails?: string | null;
  chapters?: string | null;
  report?: string | null;
  durationMs?: number | null;
  fileBytes?: number | null;
  /** A project export's record fields (kept when absent). */
  projectState?: string | null;
}

/**
 * The `exports` queue. Reads, claims and recoveries are of one kind (`text` unless named), so the
 * text exports' API and worker never see a project export, nor the reverse.
 */
export interface ExportsRepo {
  insert(row: NewExportRow): Promise<void>;
  get(id: string, kind?: ExportKind): Promise<ExportRow | undefined>;
  /** The key's text exports, newest first, without their covers. */
  list(keyId: string, limit: number, offset: number): Promise<{ rows: ExportRow[]; total: number }>;
  /** How many of the key's text exports are queued or running. */
  countOpen(keyId: string): Promise<number>;
  /**
   * The queued exports (id, key, seq), oldest first: at most 20 a key (MAX_OPEN_EXPORTS_PER_KEY),
   * read through the index of open exports.
   */
  queued(kind?: ExportKind): Promise<{ id: string; key_id: string; seq: number }[]>;
  /** new → processing under `lease`, its start counted; undefined when it was not queued. */
  claim(id: string, startedAt: string, lease: Lease): Promise<ExportRow | undefined>;
  /**
   * Extends the lease and records the progress; the row as it stands (its `cancel_requested`
   * says whether to stop), or undefined when it is no longer this owner's.
   */
  renewLease(id: string, lease: Lease, progress: number): Promise<ExportRow | undefined>;
  /** A running project export's record fields, while `owner` holds it; false otherwise. */
  setProjectState(id: string, owner: string, state: string): Promise<boolean>;
  /** processing → SUCCESS/FAILURE when `owner` still holds it; false otherwise. */
  finish(id: string, owner: string, finish: ExportFinish): Promise<boolean>;
  /** new → FAILURE (cancelled before it started); false when it was not queued. */
  finishQueued(id: string, finish: ExportFinish): Promise<boolean>;
  /** Asks the instance running it to stop (see `renewLease`); false when it is not processing. */
  requestCancel(id: string): Promise<boolean>;
  /** processing → new for every row (SQLite after a crash: this process is the only user). Returns how many. */
  requeueProcessing(kind?: ExportKind): Promise<number>;
  /** processing → new for the rows whose lease ran out before `now`. Returns how many. */
  requeueExpired(now: number, kind?: ExportKind): Promise<number>;
  /** processing → new for one row of `owner` (stopped by a shutdown); the start is not counted. */
  requeue(id: string, owner: string): Promise<void>;
  /** Removes a finished export's row. */
  remove(id: string): Promise<void>;
}

/** Every column but the cover's bytes, for lists. */
const LIST_COLUMNS = `seq, id, key_id, input_text, characters, voice_code, model_id, speed_rate, pitch_rate, volume,
  preset, format, folder_format, title, author, cover_type, NULL AS cover_base64, cost_milli, custom_voice, download_token, status,
  progress, cancel_requested, error_code, error_message, error_details, chapters, report, duration_ms, file_bytes, created_at,
  started_at, finished_at, run_attempts, lease_owner, lease_until, kind, project_id, project_state`;

/** The values of an INSERT of `row`, in the order of its columns. */
function insertValues(row: NewExportRow): SqlParams {
  return [
    row.id,
    row.key_id,
    row.input_text,
    row.characters,
    row.voice_code,
    row.model_id,
    row.speed_rate,
    row.pitch_rate,
    row.volume,
    row.preset,
    row.format,
    row.folder_format,
    row.title,
    row.author,
    row.cover_type,
    row.cover_base64,
    row.cost_milli,
    row.custom_voice,
    row.download_token,
    row.created_at,
    row.kind ?? 'text',
    row.project_id ?? null,
    row.project_state ?? null,
  ];
}

export function createExportsRepo(db: SqlExecutor): ExportsRepo {
  const greatest = db.dialect === 'postgres' ? 'GREATEST' : 'MAX';
  return {
    async insert(row) {
      await db.run(
        `INSERT INTO exports (id, key_id, input_text, characters, voice_code, model_id, speed_rate, pitch_rate, volume,
           preset, format, folder_format, title, author, cover_type, cover_base64, cost_milli, custom_voice, download_token,
           status, created_at, kind, project_id, project_state)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'new', ?, ?, ?, ?)`,
        insertValues(row),
      );
    },
    async get(id, kind = 'text') {
      return await db.get<ExportRow>('SELECT * FROM exports WHERE id = ? AND kind = ?', [id, kind]);
    },
    async list(keyId, limit, offset) {
      const total =
        (
          await db.get<{ n: number }>(
            `SELECT COUNT(*) AS n FROM exports WHERE key_id = ? AND kind = 'text'`,
            [keyId],
          )
        )?.n ?? 0;
      const rows = await db.all<ExportRow>(
        `SELECT ${LIST_COLUMNS} FROM exports WHERE key_id = ? AND kind = 'text' ORDER BY seq DESC LIMIT ? OFFSET ?`,
        [keyId, limit, offset],
      );
      // PostgreSQL answers COUNT(*) as a string (bigint).
      return { rows, total: Number(total) };
    },
    async countOpen(keyId) {
      const row = await db.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM exports WHERE key_id = ? AND kind = 'text' AND status IN ('new', 'processing')`,
        [keyId],
      );
      return Number(row?.n ?? 0);
    },
    async queued(kind = 'text') {
      return await db.all<{ id: string; key_id: string; seq: number }>(
        `SELECT id, key_id, seq FROM exports WHERE status IN ('new', 'processing') AND status = 'new' AND kind = ?
         ORDER BY seq`,
        [kind],
      );
    },
    async claim(id, startedAt, lease) {
      return await db.get<ExportRow>(
        `UPDATE exports SET status = 'processing', started_at = ?, run_attempts = run_attempts + 1, progress = 0,
           lease_owner = ?, lease_until = ?
         WHERE id = ? AND status = 'new' RETURNING *`,
        [startedAt, lease.owner, lease.until, id],
      );
    },
    async renewLease(id, lease, progress) {
      return await db.get<ExportRow>(
        `UPDATE exports SET lease_until = ?, progress = ?
         WHERE id = ? AND status = 'processing' AND lease_owner = ? RETURNING ${LIST_COLUMNS}`,
        [lease.until, progress, id, lease.owner],
      );
    },
    async setProjectState(id, owner, state) {
      const { changes } = await db.run(
        `UPDATE exports SET project_state = ? WHERE id = ? AND status = 'processing' AND lease_owner = ?`,
        [state, id, owner],
      );
      return changes === 1;
    },
    async finish(id, owner, f) {
      const { changes } = await db.run(
        `UPDATE exports SET status = ?, finished_at = ?, error_code = ?, error_message = ?, error_details = ?, chapters = ?, report = ?,
           duration_ms = ?, file_bytes = ?, progress = 1, cover_base64 = NULL, lease_owner = NULL, lease_until = NULL,
           project_state = COALESCE(?, project_state)
         WHERE id = ? AND status = 'processing' AND lease_owner = ?`,
        [
          f.status,
          f.finishedAt,
          f.errorCode ?? null,
          f.errorMessage ?? null,
          f.errorDetails ?? null,
          f.chapters ?? null,
          f.report ?? null,
          f.durationMs ?? null,
          f.fileBytes ?? null,
          f.projectState ?? null,
          id,
          owner,
        ],
      );
      return changes === 1;
    },
    async finishQueued(id, f) {
      const { changes } = await db.run(
        `UPDATE exports SET status = ?, finished_at = ?, error_code = ?, error_message = ?, progress = 1,
           cover_base64 = NULL
         WHERE id = ? AND status = 'new'`,
        [f.status, f.finishedAt, f.errorCode ?? null, f.errorMessage ?? null, id],
      );
      return changes === 1;
    },
    async requestCancel(id) {
      const { changes } = await db.run(
        `UPDATE exports SET cancel_requested = 1 WHERE id = ? AND status = 'processing'`,
        [id],
      );
      return changes === 1;
    },
    async requeueProcessing(kind = 'text') {
      return (
        await db.run(
          `UPDATE exports SET status = 'new', lease_owner = NULL, lease_until = NULL
           WHERE status IN ('new', 'processing') AND status = 'processing' AND kind = ?`,
          [kind],
        )
      ).changes;
    },
    async requeueExpired(now, kind = 'text') {
      return (
        await db.run(
          `UPDATE exports SET status = 'new', lease_owner = NULL, lease_until = NULL
           WHERE status IN ('new', 'processing') AND status = 'processing' AND lease_until < ? AND kind = ?`,
          [now, kind],
        )
      ).changes;
    },
    async requeue(id, owner) {
      // A shutdown, not a crash: this start does not count against the export.
      await db.run(
        `UPDATE exports SET status = 'new', run_attempts = ${greatest}(0, run_attempts - 1),
           lease_owner = NULL, lease_until = NULL
         WHERE id = ? AND status = 'processing' AND lease_owner = ?`,
        [id, owner],
      );
    },
    async remove(id) {
      await db.run(`DELETE FROM exports WHERE id = ? AND status IN ('SUCCESS', 'FAILURE')`, [id]);
    },
  };
}
