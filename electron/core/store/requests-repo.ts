import type { AudioFormat, Bitrate, ModelId } from '../../shared/options';
import type { CallbackState, RequestStatus } from '../../shared/api';
import type { Db } from './database';

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
  duration_ms: number | null;
  audio_bytes: number | null;
  cue_count: number | null;
  /** What spoke it (set when it finished SUCCESS): `espeak` or a neural voice label. */
  engine: string | null;
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
  | 'started_at'
  | 'finished_at'
  | 'run_attempts'
  | 'callback_state'
  | 'callback_due_at'
  | 'callback_round_attempts'
  | 'callback_attempts'
>;

export interface ListFilter {
  keyId: string;
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
  durationMs?: number | null;
  audioBytes?: number | null;
  cueCount?: number | null;
  engine?: string | null;
  /** Epoch ms when the first callback attempt is due; ignored for requests without callback_url. */
  callbackDueAt: number;
}

export interface RequestsRepo {
  insert(row: NewRequestRow): void;
  get(id: string): RequestRow | undefined;
  /** Newest first. */
  list(filter: ListFilter): { rows: RequestRow[]; total: number };
  /** The oldest queued request of each key that has one. */
  oldestQueuedPerKey(): RequestRow[];
  /** new → processing; false when the row was not new. */
  markProcessing(id: string, startedAt: string): boolean;
  /** processing → SUCCESS/FAILURE, and schedules the callback; false when the row was not processing. */
  finish(id: string, finish: Finish): boolean;
  /** processing → new for every row (after a crash). Returns how many. */
  requeueProcessing(): number;
  /** processing → new for one row (render aborted by a stop); the start is not counted. */
  requeue(id: string): void;
  /** Queued rows started at least `maxAttempts` times (each start ended by a crash). */
  exhausted(maxAttempts: number): RequestRow[];
  /** Requests whose callback is due at or before `now`, soonest first. */
  dueCallbacks(now: number, limit: number): RequestRow[];
  /** Soonest callback_due_at among pending callbacks, if any. */
  nextCallbackDue(): number | undefined;
  /** Records the outcome of one attempt on the request row. */
  updateCallback(id: string, state: CallbackState, dueAt: number | null, roundAttempts: number): void;
  /** Starts a new delivery round now (manual retry). */
  restartCallback(id: string, now: number): void;
}

export function createRequestsRepo(db: Db): RequestsRepo {
  return {
    insert(row) {
      db.run(
        `INSERT INTO requests (id, key_id, source, input_text, characters, voice_code, model_id, audio_type, bitrate,
           speed_rate, pitch_rate, volume, generate_srt, callback_url, cost_milli, download_token, status, created_at,
           callback_state)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'new', ?, ?)`,
        [
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
        ],
      );
    },
    get(id) {
      return db.get<RequestRow>('SELECT * FROM requests WHERE id = ?', [id]);
    },
    list({ keyId, status, voiceCode, limit, offset }) {
      const where = ['key_id = ?'];
      const params: (string | number)[] = [keyId];
      if (status) {
        where.push('status = ?');
        params.push(status);
      }
      if (voiceCode) {
        where.push('voice_code = ?');
        params.push(voiceCode);
      }
      const clause = where.join(' AND ');
      const total =
        db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM requests WHERE ${clause}`, params)?.n ?? 0;
      const rows = db.all<RequestRow>(
        `SELECT * FROM requests WHERE ${clause} ORDER BY seq DESC LIMIT ? OFFSET ?`,
        [...params, limit, offset],
      );
      return { rows, total };
    },
    oldestQueuedPerKey() {
      return db.all<RequestRow>(
        `SELECT r.* FROM (SELECT MIN(seq) AS seq FROM requests WHERE status = 'new' GROUP BY key_id) f
         JOIN requests r ON r.seq = f.seq`,
      );
    },
    markProcessing(id, startedAt) {
      return (
        db.run(
          `UPDATE requests SET status = 'processing', started_at = ?, run_attempts = run_attempts + 1 WHERE id = ? AND status = 'new'`,
          [startedAt, id],
        ).changes === 1
      );
    },
    finish(id, f) {
      return (
        db.run(
          `UPDATE requests SET status = ?, finished_at = ?, error_code = ?, error_message = ?, duration_ms = ?,
             audio_bytes = ?, cue_count = ?, engine = ?,
             callback_state = CASE WHEN callback_url IS NULL THEN 'none' ELSE 'pending' END,
             callback_due_at = CASE WHEN callback_url IS NULL THEN NULL ELSE ? END,
             callback_round_attempts = 0
           WHERE id = ? AND status = 'processing'`,
          [
            f.status,
            f.finishedAt,
            f.errorCode ?? null,
            f.errorMessage ?? null,
            f.durationMs ?? null,
            f.audioBytes ?? null,
            f.cueCount ?? null,
            f.engine ?? null,
            f.callbackDueAt,
            id,
          ],
        ).changes === 1
      );
    },
    requeueProcessing() {
      return db.run(
        `UPDATE requests SET status = 'new' WHERE status IN ('new', 'processing') AND status = 'processing'`,
      ).changes;
    },
    requeue(id) {
      // A shutdown, not a crash: this start does not count against the request.
      db.run(
        `UPDATE requests SET status = 'new', run_attempts = MAX(0, run_attempts - 1) WHERE id = ? AND status = 'processing'`,
        [id],
      );
    },
    exhausted(maxAttempts) {
      return db.all<RequestRow>(
        `SELECT * FROM requests WHERE status IN ('new', 'processing') AND status = 'new' AND run_attempts >= ? ORDER BY seq`,
        [maxAttempts],
      );
    },
    dueCallbacks(now, limit) {
      return db.all<RequestRow>(
        `SELECT * FROM requests WHERE callback_state = 'pending' AND callback_due_at <= ? ORDER BY callback_due_at LIMIT ?`,
        [now, limit],
      );
    },
    nextCallbackDue() {
      const row = db.get<{ due: number | null }>(
        `SELECT MIN(callback_due_at) AS due FROM requests WHERE callback_state = 'pending'`,
      );
      return row?.due ?? undefined;
    },
    updateCallback(id, state, dueAt, roundAttempts) {
      db.run(
        `UPDATE requests SET callback_state = ?, callback_due_at = ?, callback_round_attempts = ?,
           callback_attempts = callback_attempts + 1 WHERE id = ?`,
        [state, dueAt, roundAttempts, id],
      );
    },
    restartCallback(id, now) {
      db.run(
        `UPDATE requests SET callback_state = 'pending', callback_due_at = ?, callback_round_attempts = 0 WHERE id = ?`,
        [now, id],
      );
    },
  };
}
