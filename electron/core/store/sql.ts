/**
 * The one face both databases show the repositories: asynchronous statements with `?`
 * placeholders (the PostgreSQL driver numbers them), transactions that commit durably, and
 * notifications between instances. SQLite (`sqlite-database.ts`) is the embedded default,
 * one process at a time; PostgreSQL (`postgres-database.ts`) is shared by several instances.
 *
 * SQL written for both: `?` placeholders (never inside a string literal), lowercase column
 * names, `RETURNING`, `ON CONFLICT … DO UPDATE SET x = excluded.x`. Where the dialects part
 * (locking, `MAX` of two values), repositories branch on `dialect`.
 */

export type SqlValue = number | string | null;
export type SqlParams = readonly (SqlValue | boolean)[];

/** Runs statements: on the database itself, or inside one transaction. */
export interface SqlExecutor {
  readonly dialect: 'sqlite' | 'postgres';
  /** A write; resolves with the number of changed rows. */
  run(sql: string, params?: SqlParams): Promise<{ changes: number }>;
  get<T>(sql: string, params?: SqlParams): Promise<T | undefined>;
  all<T>(sql: string, params?: SqlParams): Promise<T[]>;
}

export interface Db extends SqlExecutor {
  /**
   * Runs `fn` in one transaction, its statements on `tx`: committed (on disk before this
   * resolves) when `fn` resolves, rolled back when it rejects. Statements on the Db itself
   * while a transaction runs wait for it (SQLite) or run beside it (PostgreSQL).
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Where the data is: the SQLite file's path, or the PostgreSQL URL without its password. */
  readonly path: string;
  /**
   * True when no other process can use this database while this one has it open (SQLite:
   * the data directory's lock), so rows `processing` at start are this instance's own leftovers.
   */
  readonly exclusive: boolean;
  /** Tells every instance listening on `channel` (PostgreSQL NOTIFY); SQLite has no one else to tell. */
  notify(channel: string, payload: string): Promise<void>;
  /** Hears `notify` of every instance, this one included; resolves with the function that stops it. */
  listen(channel: string, handler: (payload: string) => void): Promise<() => void>;
  /** Waits for statements in flight, then closes (and releases the SQLite lock). */
  close(): Promise<void>;
}
