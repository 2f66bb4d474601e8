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
}

export interface LedgerRepo {
  insert(row: Omit<LedgerRow, 'id'>): Promise<void>;
  /** Newest first. */
  list(keyId: string, limit: number, offset: number): Promise<{ rows: LedgerRow[]; total: number }>;
  /** All rows of a request, oldest first. */
  forRequest(requestId: string): Promise<LedgerRow[]>;
}

export function createLedgerRepo(db: SqlExecutor): LedgerRepo {
  return {
    async insert(row) {
      await db.run(
        `INSERT INTO ledger (key_id, request_id, kind, amount_milli, balance_after_milli, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
        [row.key_id, row.request_id, row.kind, row.amount_milli, row.balance_after_milli, row.created_at],
      );
    },
    async list(keyId, limit, offset) {
      const total =
        (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM ledger WHERE key_id = ?', [keyId]))?.n ?? 0;
      const rows = await db.all<LedgerRow>(
        'SELECT * FROM ledger WHERE key_id = ? ORDER BY id DESC LIMIT ? OFFSET ?',
        [keyId, limit, offset],
      );
      return { rows, total };
    },
    async forRequest(requestId) {
      return await db.all<LedgerRow>('SELECT * FROM ledger WHERE request_id = ? ORDER BY id', [requestId]);
    },
  };
}
