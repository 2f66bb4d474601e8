import type { SqlExecutor } from './sql';

/** A row of `api_keys`. Balances are integer milli-credits. */
export interface KeyRow {
  id: string;
  name: string;
  /** sha256 of the full key, lowercase hex. The key itself is never stored. */
  key_hash: string;
  /** First characters of the key, for recognising it in lists. */
  key_prefix: string;
  /**
   * Hash of the key's first characters, its failed-authentication bucket (jobs/keys.ts
   * `keyPrefixHash`); null for a key made before schema version 16 until it next passes a check.
   */
  prefix_hash: string | null;
  /** HMAC secret of the signatures (X-Narration-Signature) on this key's callbacks. */
  signing_secret: string;
  balance_milli: number;
  /** Requests of this key in status new or processing. */
  queued: number;
  created_at: string;
  revoked_at: string | null;
  /**
   * 1 for a key the studio made for itself (server/sessions.ts createStudioKey): when revoked,
   * its balance moves to the studio's next key. 0 (or left out on insert) for every other key.
   */
  studio?: number;
}

export interface KeysRepo {
  insert(row: KeyRow): Promise<void>;
  findByHash(keyHash: string): Promise<KeyRow | undefined>;
  findById(id: string): Promise<KeyRow | undefined>;
  /** Oldest first. */
  list(): Promise<KeyRow[]>;
  /** Of `prefixHashes`, those a live (not revoked) key has. */
  livePrefixHashes(prefixHashes: readonly string[]): Promise<string[]>;
  /** Sets the prefix hash of a key that has none yet (made before schema version 16). */
  fillPrefixHash(id: string, prefixHash: string): Promise<void>;
  /** Marks the key revoked; false when there is no such key or it was already revoked. */
  revoke(id: string, at: string): Promise<boolean>;
  /** Replaces the signing secret; false when there is no such key. */
  setSigningSecret(id: string, secret: string): Promise<boolean>;
  /** Adds `delta` (may be negative) to the balance; returns the new balance. */
  addBalance(id: string, deltaMilli: number): Promise<number>;
  addQueued(id: string, delta: number): Promise<void>;
  /** Adds to the balance and to the queued count in one statement (a batch of submits of one key). */
  adjust(id: string, balanceDeltaMilli: number, queuedDelta: number): Promise<void>;
  /** Requests waiting or running, all keys together. */
  totalQueued(): Promise<number>;
  /**
   * The rows of `ids`, locked until the transaction ends, in one fixed order (by id), so
   * transactions that charge several keys never deadlock (PostgreSQL; SQLite's transactions
   * already hold the whole file). Call first in the transaction.
   */
  lockForUpdate(ids: readonly string[]): Promise<KeyRow[]>;
}

/**
 * Rows found by key hash (`findByHash`: each request's authentication), for a database no
 * other process writes (SQLite under its exclusive lock). Every write to api_keys through the
 * store, a transaction's included, committed or not, empties it; a read stores its row only
 * when no write came between the read's start and its end. So a hit is the row as the last
 * write left it, a revocation applies at the next request, and the lookup costs no SQL. Reads
 * inside a transaction neither use nor fill it (they may see the transaction's own writes).
 */
export interface KeyRowCache {
  rows: Map<string, KeyRow>;
  /** Writes to api_keys so far. */
  writes: number;
}

export function newKeyRowCache(): KeyRowCache {
  return { rows: new Map(), writes: 0 };
}

/**
 * @param cache the store's cache (SQLite), undefined without one (PostgreSQL: other instances
 *   write the same rows)
 * @param inTransaction true for a transaction's repo: its reads bypass the cache
 */
export function createKeysRepo(db: SqlExecutor, cache?: KeyRowCache, inTransaction = false): KeysRepo {
  /** Runs a write to api_keys, emptying the cache before and after it. */
  const write = async <T>(op: () => Promise<T>): Promise<T> => {
    if (!cache) return await op();
    cache.writes++;
    cache.rows.clear();
    try {
      return await op();
    } finally {
      cache.writes++;
      cache.rows.clear();
    }
  };
  return {
    insert: (row) =>
      write(async () => {
        await db.run(
          `INSERT INTO api_keys (id, name, key_hash, key_prefix, prefix_hash, signing_secret, balance_milli, queued, created_at, revoked_at, studio)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            row.id,
            row.name,
            row.key_hash,
            row.key_prefix,
            row.prefix_hash,
            row.signing_secret,
            row.balance_milli,
            row.queued,
            row.created_at,
            row.revoked_at,
            row.studio ?? 0,
          ],
        );
      }),
    async findByHash(keyHash) {
      const read = () => db.get<KeyRow>('SELECT * FROM api_keys WHERE key_hash = ?', [keyHash]);
      if (!cache || inTransaction) return await read();
      const cached = cache.rows.get(keyHash);
      if (cached) return { ...cached };
      const writesBefore = cache.writes;
      const row = await read();
      if (row && cache.writes === writesBefore) cache.rows.set(keyHash, { ...row });
      return row;
    },
    async findById(id) {
      return await db.get<KeyRow>('SELECT * FROM api_keys WHERE id = ?', [id]);
    },
    async list() {
      return await db.all<KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id');
    },
    async livePrefixHashes(prefixHashes) {
      if (prefixHashes.length === 0) return [];
      const unique = [...new Set(prefixHashes)];
      const rows = await db.all<{ prefix_hash: string }>(
        `SELECT DISTINCT prefix_hash FROM api_keys WHERE prefix_hash IN (${unique.map(() => '?').join(', ')}) AND revoked_at IS NULL`,
        unique,
      );
      return rows.map((row) => row.prefix_hash);
    },
    fillPrefixHash: (id, prefixHash) =>
      write(async () => {
        await db.run('UPDATE api_keys SET prefix_hash = ? WHERE id = ? AND prefix_hash IS NULL', [
          prefixHash,
          id,
        ]);
      }),
    revoke: (id, at) =>
      write(async () => {
        return (
          (await db.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, id]))
            .changes === 1
        );
      }),
    setSigningSecret: (id, secret) =>
      write(async () => {
        return (
          (await db.run('UPDATE api_keys SET signing_secret = ? WHERE id = ?', [secret, id])).changes === 1
        );
      }),
    addBalance: (id, deltaMilli) =>
      write(async () => {
        const row = await db.get<{ balance_milli: number }>(
          'UPDATE api_keys SET balance_milli = balance_milli + ? WHERE id = ? RETURNING balance_milli',
          [deltaMilli, id],
        );
        if (!row) throw new Error(`no key ${id}`);
        return row.balance_milli;
      }),
    addQueued: (id, delta) =>
      write(async () => {
        await db.run('UPDATE api_keys SET queued = queued + ? WHERE id = ?', [delta, id]);
      }),
    adjust: (id, balanceDeltaMilli, queuedDelta) =>
      write(async () => {
        await db.run(
          'UPDATE api_keys SET balance_milli = balance_milli + ?, queued = queued + ? WHERE id = ?',
          [balanceDeltaMilli, queuedDelta, id],
        );
      }),
    async lockForUpdate(ids) {
      if (ids.length === 0) return [];
      const sorted = [...new Set(ids)].sort();
      return await db.all<KeyRow>(
        `SELECT * FROM api_keys WHERE id IN (${sorted.map(() => '?').join(', ')}) ORDER BY id${
          db.dialect === 'postgres' ? ' FOR UPDATE' : ''
        }`,
        sorted,
      );
    },
    async totalQueued() {
      return Number((await db.get<{ n: number | null }>('SELECT SUM(queued) AS n FROM api_keys'))?.n ?? 0);
    },
  };
}
