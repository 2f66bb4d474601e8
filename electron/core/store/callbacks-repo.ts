import type { SqlExecutor } from './sql';

/** A row of `callback_attempts`: one delivery attempt, kept forever. */
export interface CallbackAttemptRow {
  id: number;
  request_id: string;
  /** 1-based, over all rounds. */
  attempt: number;
  callback_url: string;
  /** ISO 8601 with ms and Z. */
  created_at: string;
  /** The exact JSON body that was sent. */
  payload: string;
  status_code: number | null;
  result: string;
  duration_ms: number;
}

export interface CallbacksRepo {
  insert(row: Omit<CallbackAttemptRow, 'id'>): Promise<void>;
  latest(requestId: string): Promise<CallbackAttemptRow | undefined>;
  /** Oldest first. */
  list(requestId: string): Promise<CallbackAttemptRow[]>;
}

export function createCallbacksRepo(db: SqlExecutor): CallbacksRepo {
  return {
    async insert(row) {
      await db.run(
        `INSERT INTO callback_attempts (request_id, attempt, callback_url, created_at, payload, status_code, result, duration_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          row.request_id,
          row.attempt,
          row.callback_url,
          row.created_at,
          row.payload,
          row.status_code,
          row.result,
          row.duration_ms,
        ],
      );
    },
    async latest(requestId) {
      return await db.get<CallbackAttemptRow>(
        'SELECT * FROM callback_attempts WHERE request_id = ? ORDER BY id DESC LIMIT 1',
        [requestId],
      );
    },
    async list(requestId) {
      return await db.all<CallbackAttemptRow>(
        'SELECT * FROM callback_attempts WHERE request_id = ? ORDER BY id',
        [requestId],
      );
    },
  };
}
