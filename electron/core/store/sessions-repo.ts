import type { SqlExecutor } from './sql';

/**
 * The studio's signed-in sessions (table of migration 14; server/sessions.ts): kept in the
 * database so a restart of the same data directory does not sign the studio out. Only SHA-256
 * hashes of the cookie's id and of the session's value are stored. A session acts with the key
 * it was signed in with; a revoked key ends it.
 */
export interface SessionRow {
  /** sha256 of the cookie's session id, lowercase hex. */
  id_hash: string;
  /** sha256 of the session's value (the X-Studio-Session header), lowercase hex. */
  secret_hash: string;
  key_id: string;
  created_at: string;
  /** ms since the epoch of the session's last request. */
  last_used_ms: number;
}

export interface SessionsRepo {
  insert(row: SessionRow): Promise<void>;
  /** The session with its key's revocation time (null while the key is live). */
  find(idHash: string): Promise<(SessionRow & { revoked_at: string | null }) | undefined>;
  touch(idHash: string, usedMs: number): Promise<void>;
  /** False when there was no such session. */
  delete(idHash: string): Promise<boolean>;
  /** Ends the sessions idle since before `beforeMs`; the number ended. */
  deleteIdle(beforeMs: number): Promise<number>;
  /** Ends every session of a key (its revocation); the number ended. */
  deleteForKey(keyId: string): Promise<number>;
}

export function createSessionsRepo(db: SqlExecutor): SessionsRepo {
  return {
    async insert(row) {
      await db.run(
        `INSERT INTO studio_sessions (id_hash, secret_hash, key_id, created_at, last_used_ms) VALUES (?, ?, ?, ?, ?)`,
        [row.id_hash, row.secret_hash, row.key_id, row.created_at, row.last_used_ms],
      );
    },
    async find(idHash) {
      const row = await db.get<SessionRow & { revoked_at: string | null }>(
        `SELECT s.*, k.revoked_at FROM studio_sessions s JOIN api_keys k ON k.id = s.key_id WHERE s.id_hash = ?`,
        [idHash],
      );
      return row && { ...row, last_used_ms: Number(row.last_used_ms) };
    },
    async touch(idHash, usedMs) {
      await db.run('UPDATE studio_sessions SET last_used_ms = ? WHERE id_hash = ?', [usedMs, idHash]);
    },
    async delete(idHash) {
      return (await db.run('DELETE FROM studio_sessions WHERE id_hash = ?', [idHash])).changes === 1;
    },
    async deleteIdle(beforeMs) {
      return (await db.run('DELETE FROM studio_sessions WHERE last_used_ms < ?', [beforeMs])).changes;
    },
    async deleteForKey(keyId) {
      return (await db.run('DELETE FROM studio_sessions WHERE key_id = ?', [keyId])).changes;
    },
  };
}
