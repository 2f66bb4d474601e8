import type { SqlExecutor } from './sql';

/**
 * A row of `idempotency_keys`: an Idempotency-Key an API key sent with a submit, and the
 * request that submit created. Written in the transaction that stores the request.
 */
export interface IdempotencyRow {
  key_id: string;
  /** The header's value as sent: 1–255 printable ASCII characters. */
  idem_key: string;
  /** Hash of the request as validated (see `jobs/idempotency.ts`); equal hashes mean the same request. */
  request_hash: string;
  request_id: string;
  /** ISO 8601 UTC; the key is honoured for 24 h from here. */
  created_at: string;
}

export interface IdempotencyRepo {
  /** The row of `idemKey` for the API key `keyId`, however old. */
  find(keyId: string, idemKey: string): Promise<IdempotencyRow | undefined>;
  /** Stores the row, replacing an (expired) row of the same API key and idempotency key. */
  put(row: IdempotencyRow): Promise<void>;
  /** `put` for several rows at once; no two may share an API key and idempotency key. */
  putMany(rows: readonly IdempotencyRow[]): Promise<void>;
  /** Deletes the rows created before `before` (ISO time); returns how many. */
  deleteCreatedBefore(before: string): Promise<number>;
}

/** Rows per multi-row INSERT (5 parameters each). */
const INSERT_ROWS_PER_STATEMENT = 1000;

export function createIdempotencyRepo(db: SqlExecutor): IdempotencyRepo {
  const putMany = async (rows: readonly IdempotencyRow[]): Promise<void> => {
    for (let at = 0; at < rows.length; at += INSERT_ROWS_PER_STATEMENT) {
      const part = rows.slice(at, at + INSERT_ROWS_PER_STATEMENT);
      await db.run(
        `INSERT INTO idempotency_keys (key_id, idem_key, request_hash, request_id, created_at)
         VALUES ${part.map(() => '(?, ?, ?, ?, ?)').join(', ')}
         ON CONFLICT (key_id, idem_key) DO UPDATE SET
           request_hash = excluded.request_hash, request_id = excluded.request_id, created_at = excluded.created_at`,
        part.flatMap((row) => [row.key_id, row.idem_key, row.request_hash, row.request_id, row.created_at]),
      );
    }
  };
  return {
    async find(keyId, idemKey) {
      return await db.get<IdempotencyRow>(
        'SELECT * FROM idempotency_keys WHERE key_id = ? AND idem_key = ?',
        [keyId, idemKey],
      );
    },
    async put(row) {
      await putMany([row]);
    },
    putMany,
    async deleteCreatedBefore(before) {
      return (await db.run('DELETE FROM idempotency_keys WHERE created_at < ?', [before])).changes;
    },
  };
}
