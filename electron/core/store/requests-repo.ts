import type { AudioFormat, Bitrate, ModelId } from '../../shared/options';
import type { CallbackState, RequestStatus } from '../../shared/api';
import type { SqlExecutor } from './sql';

/** A row of `requests`. Times are ISO 8601 UTC with milliseconds unless named `_at` epoch below. */
export interface RequestRow {
  seq: number;
  /** The request_id of the API. */
  id: string;
  key_id: string;
  /** 'api' (POST /api/v1/tts) or 'openai' (POST /v1/audio/speech). */
  source: string;
  input_text: string;
  characters: number;
  voice_code: string;
  model_id: ModelId;
  audio_type: AudioFormat;
  bitrate: Bitrate;
  speed_rate: number;
  pitch_rate: number;
  volume: number;
  /** 0 or 1. */
  generate_srt: number;
  callback_url: string | null;
  cost_milli: number;
  /** Secret part of the download links. */
  download_token: string;
  status: RequestStatus;
  error_code: string | null;
  error_message: string | null;
  /** A failure's particulars, JSON (platform/error-details.ts; null: none or not failed). */
  error_details?: string | null;
  duration_ms: number | null;
  audio_bytes: number | null;
  cue_count: number | null;
  /**
   * The Kokoro voice or mix the request named (Kokoro-FastAPI's `af_bella(2)+af_sky(1)`),
   * spoken by an installed Kokoro pack holding it; null for a plain voice code.
   */
  kokoro_voice: string | null;
  /** 0 or 1: the render keeps its word timings (`timingsPath`) for the answer. */
  word_timings: number;
  /** What spoke it (set when it finished SUCCESS): `espeak` or a neural voice label. */
  engine: string | null;
  /** JSON array of the render's warnings (see RenderResult.warnings); null when it had none. */
  warnings: string | null;
  /** Our voice that speaks it when `voice_code` is not ours (see shared/voice-mapping.ts); else null. */
  spoken_voice_code: string | null;
  /** How that voice was found: 'alias', 'closest' or 'custom' (a custom voice); null for our own codes. */
  voice_match: 'alias' | 'closest' | 'custom' | null;
  /**
   * The custom voice it was accepted with (shared/custom-voices.ts CustomVoice as JSON, its
   * definition then: later edits and deletes do not change it); null for other voices.
   */
  custom_voice: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** How many times synthesis was started (more than 1 after a crash). */
  run_attempts: number;
  callback_state: CallbackState;
  /** Epoch ms of the next delivery attempt while callback_state is pending. */
  callback_due_at: number | null;
  /** Attempts in the current round (a manual retry starts a new round). */
  callback_round_attempts: number;
  /** Attempts in total. */
  callback_attempts: number;
  /** The instance rendering it (while processing). */
  lease_owner: string | null;
  /** Epoch ms until which that instance's claim holds unless renewed (while processing). */
  lease_until: number | null;
}

export type NewRequestRow = Omit<
  RequestRow,
  | 'seq'
  | 'status'
  | 'error_code'
  | 'error_message'
  | 'duration_ms'
  | 'audio_bytes'
  | 'cue_count'
  | 'engine'
  | 'warnings'
  | 'started_at'
  | 'finished_at'
  | 'run_attempts'
  | 'callback_state'
  | 'callback_due_at'
  | 'callback_round_attempts'
  | 'callback_attempts'
  | 'lease_owner'
  | 'lease_until'
  | 'kokoro_voice'
  | 'word_timings'
  | 'spoken_voice_code'
  | 'voice_match'
  | 'custom_voice'
> &
  Partial<
    Pick<RequestRow, 'kokoro_voice' | 'word_timings' | 'spoken_voice_code' | 'voice_match' | 'custom_voice'>
  >;

export interface ListFilter {
  /** One key's requests; every key's when undefined. */
  keyId: string | undefined;
  status?: RequestStatus | undefined;
  voiceCode?: string | undefined;
  limit: number;
  offset: number;
}

export interface Finish {
  status: 'SUCCESS' | 'FAILURE';
  finishedAt: string;
  errorCode?: string | null;
  errorMessage?: string | null;
  /** JSON of the failure's particulars (platform/error-details.ts storedErrorDetails). */
  errorDetails?: string | null;
  durationMs?: number | null;
  audioBytes?: number | null;
  cueCount?: number | null;
  engine?: string | null;
  /** The render's warnings (stored as a JSON array); none when empty or absent. */
  warnings?: readonly string[] | undefined;
  /** Epoch ms when the first callback attempt is due; ignored for requests without callback_url. */
  callbackDueAt: number;
}

/** Who claims a request, and until when its claim holds. */
export interface Lease {
  /** The instance (see `InstanceInfo.id`). */
  owner: string;
  /** Epoch ms. */
  until: number;
}

export interface RequestsRepo {
  insert(row: NewRequestRow): Promise<void>;
  /** Inserts the rows (a few statements of many rows each); resolves with them as stored, in the same order. */
  insertMany(rows: readonly NewRequestRow[]): Promise<RequestRow[]>;
  get(id: string): Promise<RequestRow | undefined>;
  /** Newest first. */
  list(filter: ListFilter): Promise<{ rows: RequestRow[]; total: number }>;
  /** The oldest queued request of each key that has one. */
  oldestQueuedPerKey(): Promise<RequestRow[]>;
  /**
   * Claims the first of `ids` (in that order) still queued: new → processing under `lease`,
   * its start counted. Several instances may try at once: each request goes to exactly one
   * (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so a row another instance is claiming is skipped,
   * not waited for). Undefined when none was free.
   */
  claim(ids: readonly string[], startedAt: string, lease: Lease): Promise<RequestRow | undefined>;
  /** Extends the lease; false when the request is no longer this owner's (taken over or finished). */
  renewLease(id: string, lease: Lease): Promise<boolean>;
  /**
   * processing → SUCCESS/FAILURE when `owner` still holds it, and schedules the callback;
   * false otherwise (finished already, or taken over by another instance).
   */
  finish(id: string, owner: string, finish: Finish): Promise<boolean>;
  /**
   * processing → new for every row: after a crash, when this process is the database's only
   * user (SQLite). Returns how many.
   */
  requeueProcessing(): Promise<number>;
  /**
   * processing → new for the rows whose lease ran out before `now`: their instance died
   * (a crash counts as a start). Returns their ids.
   */
  requeueExpired(now: number): Promise<string[]>;
  /** processing → new for one row of `owner` (render aborted by a stop); the start is not counted. */
  requeue(id: string, owner: string): Promise<void>;
  /** Queued rows started at least `maxAttempts` times (each start ended by a crash). */
  exhausted(maxAttempts: number): Promise<RequestRow[]>;
  /** Ids of the requests `owner` holds (status processing). */
  leasedBy(owner: string): Promise<string[]>;
  /** Requests whose callback is due at or before `now`, soonest first. */
  dueCallbacks(now: number, limit: number): Promise<RequestRow[]>;
  /**
   * Claims a due delivery for one attempt: moves its due time from `dueAt` to `until`, so
   * another instance takes it over only if this one dies before recording the attempt.
   * False when another instance claimed it first.
   */
  claimCallback(id: string, dueAt: number, until: number): Promise<boolean>;
  /** Soonest callback_due_at among pending callbacks, if any. */
  nextCallbackDue(): Promise<number | undefined>;
  /** Records the outcome of one attempt on the request row. */
  updateCallback(
    id: string,
    state: CallbackState,
    dueAt: number | null,
    roundAttempts: number,
  ): Promise<void>;
  /** Starts a new delivery round now (manual retry). */
  restartCallback(id: string, now: number): Promise<void>;
}

/**
 * Rows per multi-row INSERT: 20 parameters each stays far below SQLite's 32,766 and
 * PostgreSQL's 65,535 parameters per statement.
 */
const INSERT_ROWS_PER_STATEMENT = 500;

export function createRequestsRepo(db: SqlExecutor): RequestsRepo {
  return { ...createRequestRowsRepo(db), ...createRequestLeasesRepo(db), ...createRequestCallbacksRepo(db) };
}

/** The requests' rows: inserting them, reading them, listing them, the queue's heads. */
function createRequestRowsRepo(
  db: SqlExecutor,
): Pick<RequestsRepo, 'insert' | 'insertMany' | 'get' | 'list' | 'oldestQueuedPerKey'> {
  const insertMany = async (rows: readonly NewRequestRow[]): Promise<RequestRow[]> => {
    const inserted: RequestRow[] = [];
    for (let at = 0; at < rows.length; at += INSERT_ROWS_PER_STATEMENT) {
      const part = rows.slice(at, at + INSERT_ROWS_PER_STATEMENT);
      inserted.push(
        ...(await db.all<RequestRow>(
          `INSERT INTO requests (id, key_id, source, input_text, characters, voice_code, model_id, audio_type, bitrate,
             speed_rate, pitch_rate, volume, generate_srt, callback_url, cost_milli, download_token, status, created_at,
             callback_state, kokoro_voice, word_timings, spoken_voice_code, voice_match, custom_voice)
           VALUES ${part.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'new', ?, ?, ?, ?, ?, ?, ?)").join(', ')}
           RETURNING *`,
          part.flatMap((row) => [
            row.id,
            row.key_id,
            row.source,
            row.input_text,
            row.characters,
            row.voice_code,
            row.model_id,
            row.audio_type,
            row.bitrate,
            row.speed_rate,
            row.pitch_rate,
            row.volume,
            row.generate_srt,
            row.callback_url,
            row.cost_milli,
            row.download_token,
            row.created_at,
            row.callback_url ? 'waiting' : 'none',
            row.kokoro_voice ?? null,
            row.word_timings ?? 0,
            row.spoken_voice_code ?? null,
            row.voice_match ?? null,
            row.custom_voice ?? null,
          ]),
        )),
      );
    }
    // RETURNING promises no order: give the rows back in the order they were given.
    const byId = new Map(inserted.map((r) => [r.id, r]));
    return rows.map((row) => byId.get(row.id)!);
  };
  return {
    async insert(row) {
      await insertMany([row]);
    },
    insertMany,
    async get(id) {
      return await db.get<RequestRow>('SELECT * FROM requests WHERE id = ?', [id]);
    },
    async list({ keyId, status, voiceCode, limit, offset }) {
      const where: string[] = [];
      const params: (string | number)[] = [];
      if (keyId !== undefined) {
        where.push('key_id = ?');
        params.push(keyId);
      }
      if (status) {
        where.push('status = ?');
        params.push(status);
      }
      if (voiceCode) {
        where.push('voice_code = ?');
        params.push(voiceCode);
      }
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const total =
        (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM requests ${clause}`, params))?.n ?? 0;
      const rows = await db.all<RequestRow>(
        `SELECT * FROM requests ${clause} ORDER BY seq DESC LIMIT ? OFFSET ?`,
        [...params, limit, offset],
      );
      return { rows, total };
    },
    async oldestQueuedPerKey() {
      // Per key, the first entry of requests_new_by_key (key_id, seq WHERE status = 'new'): a
      // few index lookups per key, however long the queue. Grouping the queued rows instead
      // read every one of them, on SQLite on the thread that answers HTTP, at each render's start
      // (13 ms with 20,000 queued).
      if (db.dialect === 'postgres') {
        // LATERAL: one index lookup per key whatever the planner's statistics say.
        return await db.all<RequestRow>(
          `SELECT r.* FROM api_keys k CROSS JOIN LATERAL (
             SELECT * FROM requests q WHERE q.key_id = k.id AND q.status = 'new' ORDER BY q.seq LIMIT 1) r`,
        );
      }
      return await db.all<RequestRow>(
        `SELECT * FROM requests WHERE seq IN (
           SELECT (SELECT MIN(q.seq) FROM requests q WHERE q.key_id = k.id AND q.status = 'new') FROM api_keys k)`,
      );
    },
  };
}

/** A request's run: its claim under a lease, the lease's renewal, its finish and its return to the queue. */
function createRequestLeasesRepo(
  db: SqlExecutor,
): Pick<
  RequestsRepo,
  | 'claim'
  | 'renewLease'
  | 'finish'
  | 'requeueProcessing'
  | 'requeueExpired'
  | 'requeue'
  | 'exhausted'
  | 'leasedBy'
> {
  /** new → processing for one row; the row, or undefined when it was not new. */
  const claimOne = (id: string, startedAt: string, lease: Lease) =>
    db.get<RequestRow>(
      `UPDATE requests SET status = 'processing', started_at = ?, run_attempts = run_attempts + 1,
         lease_owner = ?, lease_until = ?
       WHERE id = ? AND status = 'new' RETURNING *`,
      [startedAt, lease.owner, lease.until, id],
    );
  const greatest = db.dialect === 'postgres' ? 'GREATEST' : 'MAX';
  return {
    async claim(ids, startedAt, lease) {
      if (ids.length === 0) return undefined;
      if (db.dialect === 'postgres') {
        // One statement: the first of `ids` still queued, in the caller's order, skipping rows
        // another instance is claiming right now (locked), not waiting for them.
        const order = ids.map(() => 'WHEN ? THEN ?').join(' ');
        return db.get<RequestRow>(
          `UPDATE requests SET status = 'processing', started_at = ?, run_attempts = run_attempts + 1,
             lease_owner = ?, lease_until = ?
           WHERE status = 'new' AND id = (
             SELECT id FROM requests WHERE id IN (${ids.map(() => '?').join(', ')}) AND status = 'new'
             ORDER BY CASE id ${order} END LIMIT 1 FOR UPDATE SKIP LOCKED)
           RETURNING *`,
          [startedAt, lease.owner, lease.until, ...ids, ...ids.flatMap((id, i) => [id, i])],
        );
      }
      for (const id of ids) {
        const row = await claimOne(id, startedAt, lease);
        if (row) return row;
      }
      return undefined;
    },
    async renewLease(id, lease) {
      return (
        (
          await db.run(
            `UPDATE requests SET lease_until = ? WHERE id = ? AND status = 'processing' AND lease_owner = ?`,
            [lease.until, id, lease.owner],
          )
        ).changes === 1
      );
    },
    async finish(id, owner, f) {
      return (
        (
          await db.run(
            `UPDATE requests SET status = ?, finished_at = ?, error_code = ?, error_message = ?, error_details = ?, duration_ms = ?,
             audio_bytes = ?, cue_count = ?, engine = ?, warnings = ?, lease_owner = NULL, lease_until = NULL,
             callback_state = CASE WHEN callback_url IS NULL THEN 'none' ELSE 'pending' END,
             callback_due_at = CASE WHEN callback_url IS NULL THEN NULL ELSE CAST(? AS BIGINT) END,
             callback_round_attempts = 0
           WHERE id = ? AND status = 'processing' AND lease_owner = ?`,
            [
              f.status,
              f.finishedAt,
              f.errorCode ?? null,
              f.errorMessage ?? null,
              f.errorDetails ?? null,
              f.durationMs ?? null,
              f.audioBytes ?? null,
              f.cueCount ?? null,
              f.engine ?? null,
              f.warnings && f.warnings.length > 0 ? JSON.stringify(f.warnings) : null,
              f.callbackDueAt,
              id,
              owner,
            ],
          )
        ).changes === 1
      );
    },
    async requeueProcessing() {
      return (
        await db.run(
          `UPDATE requests SET status = 'new', lease_owner = NULL, lease_until = NULL
           WHERE status IN ('new', 'processing') AND status = 'processing'`,
        )
      ).changes;
    },
    async requeueExpired(now) {
      const rows = await db.all<{ id: string }>(
        `UPDATE requests SET status = 'new', lease_owner = NULL, lease_until = NULL
         WHERE status IN ('new', 'processing') AND status = 'processing' AND lease_until < ? RETURNING id`,
        [now],
      );
      return rows.map((r) => r.id);
    },
    async requeue(id, owner) {
      // A shutdown, not a crash: this start does not count against the request.
      await db.run(
        `UPDATE requests SET status = 'new', run_attempts = ${greatest}(0, run_attempts - 1),
           lease_owner = NULL, lease_until = NULL
         WHERE id = ? AND status = 'processing' AND lease_owner = ?`,
        [id, owner],
      );
    },
    async leasedBy(owner) {
      const rows = await db.all<{ id: string }>(
        `SELECT id FROM requests WHERE status IN ('new', 'processing') AND status = 'processing' AND lease_owner = ?`,
        [owner],
      );
      return rows.map((r) => r.id);
    },
    async exhausted(maxAttempts) {
      return await db.all<RequestRow>(
        `SELECT * FROM requests WHERE status IN ('new', 'processing') AND status = 'new' AND run_attempts >= ? ORDER BY seq`,
        [maxAttempts],
      );
    },
  };
}

/** The callbacks' deliveries kept on the request rows. */
function createRequestCallbacksRepo(
  db: SqlExecutor,
): Pick<
  RequestsRepo,
  'dueCallbacks' | 'claimCallback' | 'nextCallbackDue' | 'updateCallback' | 'restartCallback'
> {
  return {
    async dueCallbacks(now, limit) {
      return await db.all<RequestRow>(
        `SELECT * FROM requests WHERE callback_state = 'pending' AND callback_due_at <= ? ORDER BY callback_due_at LIMIT ?`,
        [now, limit],
      );
    },
    async claimCallback(id, dueAt, until) {
      return (
        (
          await db.run(
            `UPDATE requests SET callback_due_at = ? WHERE id = ? AND callback_state = 'pending' AND callback_due_at = ?`,
            [until, id, dueAt],
          )
        ).changes === 1
      );
    },
    async nextCallbackDue() {
      const row = await db.get<{ due: number | null }>(
        `SELECT MIN(callback_due_at) AS due FROM requests WHERE callback_state = 'pending'`,
      );
      return row?.due ?? undefined;
    },
    async updateCallback(id, state, dueAt, roundAttempts) {
      await db.run(
        `UPDATE requests SET callback_state = ?, callback_due_at = ?, callback_round_attempts = ?,
           callback_attempts = callback_attempts + 1 WHERE id = ?`,
        [state, dueAt, roundAttempts, id],
      );
    },
    async restartCallback(id, now) {
      await db.run(
        `UPDATE requests SET callback_state = 'pending', callback_due_at = ?, callback_round_attempts = 0 WHERE id = ?`,
        [now, id],
      );
    },
  };
}
