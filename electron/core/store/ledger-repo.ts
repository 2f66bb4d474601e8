import type { LedgerKind } from '../../shared/api';
import type { SqlExecutor } from './sql';

/** A row of `ledger`: one movement of credits, in integer milli-credits. */
export interface LedgerRow {
  id: number;
  key_id: string;
  request_id: string | null;
  kind: LedgerKind;
  /** Negative for a charge. */
  amount_milli: number;
  balance_after_milli: number;
  created_at: string;
  /** A `transfer`'s source: the revoked studio key whose balance moved to `key_id`; else null. */
  from_key_id?: string | null;
}

export interface LedgerRepo {
  insert(row: Omit<LedgerRow, 'id'>): Promise<void>;
  /** Inserts the rows in order (ids ascending in that order). */
  insertMany(rows: readonly Omit<LedgerRow, 'id'>[]): Promise<void>;
  /** Newest first: one key's, or every key's when `keyId` is undefined. */
  list(
    keyId: string | undefined,
    limit: number,
    offset: number,
  ): Promise<{ rows: LedgerRow[]; total: number }>;
  /** All rows of a request, oldest first. */
  forRequest(requestId: string): Promise<LedgerRow[]>;
}

/** Rows per multi-row INSERT (7 parameters each). */
const INSERT_ROWS_PER_STATEMENT = 1000;

export function createLedgerRepo(db: SqlExecutor): LedgerRepo {
  const insertMany = async (rows: readonly Omit<LedgerRow, 'id'>[]): Promise<void> => {
    for (let at = 0; at < rows.length; at += INSERT_ROWS_PER_STATEMENT) {
      const part = rows.slice(at, at + INSERT_ROWS_PER_STATEMENT);
      await db.run(
        `INSERT INTO ledger (key_id, request_id, kind, amount_milli, balance_after_milli, created_at, from_key_id)
         VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        part.flatMap((row) => [
          row.key_id,
          row.request_id,
          row.kind,
          row.amount_milli,
          row.balance_after_milli,
          row.created_at,
          row.from_key_id ?? null,
        ]),
      );
    }
  };
  return {
    async insert(row) {
      await insertMany([row]);
    },
    insertMany,
    async list(keyId, limit, offset) {
      const where = keyId === undefined ? '' : 'WHERE key_id = ?';
      const params = keyId === undefined ? [] : [keyId];
      const total =
        (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ledger ${where}`, params))?.n ?? 0;
      const rows = await db.all<LedgerRow>(
        `SELECT * FROM ledger ${where} ORDER BY id DESC LIMIT ? OFFSET ?`,
        [...params, limit, offset],
      );
      return { rows, total };
    },
    async forRequest(requestId) {
      return await db.all<LedgerRow>('SELECT * FROM ledger WHERE request_id = ? ORDER BY id', [requestId]);
    },
  };
}
