import { CALLBACK_ATTEMPT_LIMITS, type CallbackResultCode } from '../../shared/api';
import type { SqlExecutor } from './sql';

/**
 * A row of `callback_attempts`: one delivery attempt. A request keeps its newest
 * CALLBACK_ATTEMPT_LIMITS.kept (100): recording one drops those older than that.
 */
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
  /** `result` as a stable code; null for attempts recorded before codes were (migration 18). */
  result_code: CallbackResultCode | null;
  duration_ms: number;
}

export interface CallbacksRepo {
  /** Records an attempt and drops the request's attempts numbered `kept` or more before it. */
  insert(row: Omit<CallbackAttemptRow, 'id'>): Promise<void>;
  latest(requestId: string): Promise<CallbackAttemptRow | undefined>;
  /** Every one kept, oldest first (at most CALLBACK_ATTEMPT_LIMITS.kept). */
  list(requestId: string): Promise<CallbackAttemptRow[]>;
  /** At most `limit`, newest first, numbered below `before` when given. */
  page(
    requestId: string,
    page: { before?: number | undefined; limit: number },
  ): Promise<CallbackAttemptRow[]>;
  /** How many the request keeps. */
  count(requestId: string): Promise<number>;
}

export function createCallbacksRepo(db: SqlExecutor): CallbacksRepo {
  return {
    async insert(row) {
      await db.run(
        `INSERT INTO callback_attempts (request_id, attempt, callback_url, created_at, payload, status_code, result, result_code, duration_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          row.request_id,
          row.attempt,
          row.callback_url,
          row.created_at,
          row.payload,
          row.status_code,
          row.result,
          row.result_code,
          row.duration_ms,
        ],
      );
      await db.run('DELETE FROM callback_attempts WHERE request_id = ? AND attempt <= ?', [
        row.request_id,
        row.attempt - CALLBACK_ATTEMPT_LIMITS.kept,
      ]);
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
    async page(requestId, { before, limit }) {
      return before === undefined
        ? await db.all<CallbackAttemptRow>(
            'SELECT * FROM callback_attempts WHERE request_id = ? ORDER BY attempt DESC, id DESC LIMIT ?',
            [requestId, limit],
          )
        : await db.all<CallbackAttemptRow>(
            'SELECT * FROM callback_attempts WHERE request_id = ? AND attempt < ? ORDER BY attempt DESC, id DESC LIMIT ?',
            [requestId, before, limit],
          );
    },
    async count(requestId) {
      const row = await db.get<{ n: number | string }>(
        'SELECT COUNT(*) AS n FROM callback_attempts WHERE request_id = ?',
        [requestId],
      );
      return Number(row?.n ?? 0);
    },
  };
}
