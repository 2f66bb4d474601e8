import type { Db } from './database';

/** A row of `api_keys`. Balances are integer milli-credits. */
export interface KeyRow {
  id: string;
  name: string;
  /** sha256 of the full key, lowercase hex. The key itself is never stored. */
  key_hash: string;
  /** First characters of the key, for recognising it in lists. */
  key_prefix: string;
  /** HMAC secret for X-Signature on this key's callbacks. */
  signing_secret: string;
  balance_milli: number;
  /** Requests of this key in status new or processing. */
  queued: number;
  created_at: string;
  revoked_at: string | null;
}

export interface KeysRepo {
  insert(row: KeyRow): void;
  findByHash(keyHash: string): KeyRow | undefined;
  findById(id: string): KeyRow | undefined;
  /** Oldest first. */
  list(): KeyRow[];
  /** Marks the key revoked; false when there is no such key or it was already revoked. */
  revoke(id: string, at: string): boolean;
  /** Adds `delta` (may be negative) to the balance; returns the new balance. */
  addBalance(id: string, deltaMilli: number): number;
  addQueued(id: string, delta: number): void;
  /** Requests waiting or running, all keys together. */
  totalQueued(): number;
}

export function createKeysRepo(db: Db): KeysRepo {
  return {
    insert(row) {
      db.run(
        `INSERT INTO api_keys (id, name, key_hash, key_prefix, signing_secret, balance_milli, queued, created_at, revoked_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          row.id,
          row.name,
          row.key_hash,
          row.key_prefix,
          row.signing_secret,
          row.balance_milli,
          row.queued,
          row.created_at,
          row.revoked_at,
        ],
      );
    },
    findByHash(keyHash) {
      return db.get<KeyRow>('SELECT * FROM api_keys WHERE key_hash = ?', [keyHash]);
    },
    findById(id) {
      return db.get<KeyRow>('SELECT * FROM api_keys WHERE id = ?', [id]);
    },
    list() {
      return db.all<KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id');
    },
    revoke(id, at) {
      return (
        db.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, id]).changes ===
        1
      );
    },
    addBalance(id, deltaMilli) {
      const row = db.get<{ balance_milli: number }>(
        'UPDATE api_keys SET balance_milli = balance_milli + ? WHERE id = ? RETURNING balance_milli',
        [deltaMilli, id],
      );
      if (!row) throw new Error(`no key ${id}`);
      return row.balance_milli;
    },
    addQueued(id, delta) {
      db.run('UPDATE api_keys SET queued = queued + ? WHERE id = ?', [delta, id]);
    },
    totalQueued() {
      return Number(db.get<{ n: number | null }>('SELECT SUM(queued) AS n FROM api_keys')?.n ?? 0);
    },
  };
}
