/**
 * The SQLite database, the embedded default: one file, opened by one process at a time, WAL
 * journal under exclusive locking (node-sqlite3-wasm ignores WAL otherwise). A write is on disk
 * before its caller is answered, but no fsync runs on the event loop: the driver's own fsync is
 * synchronous (with `synchronous=FULL` every commit held the HTTP thread for the disk's flush;
 * with `NORMAL` every checkpoint did, three times a second under load, and every restart of
 * the WAL), so once the file is open and migrated the driver runs with `synchronous=OFF` and
 * this module syncs, on libuv's thread pool:
 * - commits: the face syncs the WAL file after a write and resolves once that sync covers it
 *   (`fileSyncer`). One sync covers every write before it, so concurrent writers share it, and
 *   the next transaction runs while it is under way; a reader may see a commit a moment before
 *   its sync has finished (never one that is rolled back). The header SQLite writes when it
 *   starts the WAL again is covered by the same sync as the frames after it.
 * - checkpoints (copying the WAL into the database file): SQLite's automatic ones are off; the
 *   face runs one at most once a second after writes, in a turn of its own, once the WAL is
 *   synced (every frame copied is on disk first). The file is then synced, and every write
 *   waits for that sync first: the first write after a complete checkpoint starts the WAL again
 *   from its beginning, overwriting frames whose pages would otherwise be only in the unsynced
 *   file. Reads do not wait.
 * - closing: `synchronous=FULL` again, so the driver's last checkpoint syncs the file before it
 *   deletes the WAL.
 * The driver is synchronous; the asynchronous `Db` face (`sql.ts`) runs each statement at once
 * unless a transaction is open, when it waits its turn. The only module that imports the driver.
 */

import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { open as openFile, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { AppError } from '../../shared/errors';
import { acquireInstanceLock } from '../platform/instance-lock';
import { MIGRATIONS } from './migrations';
import type { Db, SqlExecutor, SqlParams } from './sql';

type DriverDatabase = InstanceType<typeof sqlite.Database>;
type DriverStatement = ReturnType<DriverDatabase['prepare']>;

/** The synchronous connection, with a prepared-statement cache (inside this module only). */
interface SyncDb {
  run(sql: string, params?: SqlParams): { changes: number };
  get<T>(sql: string, params?: SqlParams): T | undefined;
  all<T>(sql: string, params?: SqlParams): T[];
  /** Runs `fn` in one transaction; rolls back on throw. */
  transaction<T>(fn: () => T): T;
  /** Rows the last INSERT, UPDATE or DELETE changed (SQLite's `changes()`). */
  changes(): number;
  /** BEGIN IMMEDIATE, COMMIT (in the WAL when it returns), ROLLBACK (when one is open). */
  begin(): void;
  commit(): void;
  rollback(): void;
  /** Copies the WAL into the database file, syncing neither (`synchronous=OFF`: see the header). */
  checkpoint(): void;
  readonly path: string;
  /** Finalizes statements, closes the file and releases the instance lock. */
  close(): void;
}

/** Newest schema version this build knows. */
export const SCHEMA_VERSION = MIGRATIONS.length;

export interface OpenDatabaseOptions {
  /**
   * What this process is, named to a second process the lock refuses (default "Narration
   * Studio"), e.g. "Narration Studio serve".
   */
  holder?: string;
  /** How long after a write the WAL is checkpointed, ms (default CHECKPOINT_AFTER_MS). */
  checkpointAfterMs?: number;
}

/**
 * The WAL is copied into the database file this long after the first write since the last
 * copy. Under load that is once a second, each copy holding the event loop a few ms.
 */
export const CHECKPOINT_AFTER_MS = 1000;

/**
 * Opens (creating if needed) the database at `path` and migrates it.
 * Throws AppError DATABASE_LOCKED when another live process has it open, DATABASE_TOO_NEW for a
 * file written by a newer version (left untouched), DATABASE_CORRUPT for a file that is not a
 * readable database (moved aside, never overwritten).
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  return asyncFace(openSyncDatabase(file, options), options.checkpointAfterMs ?? CHECKPOINT_AFTER_MS);
}

function openSyncDatabase(file: string, options: OpenDatabaseOptions): SyncDb {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  const releaseLock = lockDatabase(path, options.holder ?? 'Narration Studio');
  let driver: DriverDatabase | undefined;
  let db: SyncDb | undefined;
  try {
    driver = new sqlite.Database(path);
    db = wrap(driver, path, releaseLock);
    try {
      // Order matters: WAL is silently ignored unless exclusive locking is set first.
      db.get('PRAGMA locking_mode=EXCLUSIVE');
      const mode = db.get<{ journal_mode: string }>('PRAGMA journal_mode=WAL');
      if (mode?.journal_mode !== 'wal')
        throw new Error(`journal_mode is ${mode?.journal_mode}, expected wal`);
      db.run('PRAGMA synchronous=FULL');
      db.run('PRAGMA foreign_keys=ON');
      const check = db.get<{ quick_check: string }>('PRAGMA quick_check');
      if (check?.quick_check !== 'ok') throw new Error(`integrity check: ${check?.quick_check}`);
      // Inside: damage that quick_check misses can still surface as "malformed" here.
      migrate(db);
      // From here on the face syncs and checkpoints, off the event loop (see the header).
      db.run('PRAGMA synchronous=OFF');
      db.get('PRAGMA wal_autocheckpoint=0');
    } catch (error) {
      if (isCorruption(error)) {
        // Closed first (the driver's lock and WAL released), then the file is moved, never rewritten.
        db.close();
        db = undefined;
        driver = undefined;
        const aside = moveAside(path);
        throw new AppError(
          'DATABASE_CORRUPT',
          `The database ${path} is damaged (${(error as Error).message}). It was moved to ${aside}; the next start creates a new, empty database.`,
          { path, aside },
          { cause: error },
        );
      }
      throw error;
    }
    return db;
  } catch (error) {
    // Through the wrapper when there is one: it finalizes the cached statements, without which
    // the driver cannot really close (the WAL file and the lock directory would stay behind).
    if (db) db.close();
    else if (driver?.isOpen) {
      try {
        driver.close();
      } catch {
        // Already failing: the original error is the one to report.
      }
    }
    releaseLock();
    throw error;
  }
}

function wrap(driver: DriverDatabase, path: string, releaseLock: () => void): SyncDb {
  const statements = new Map<string, DriverStatement>();
  const prepare = (sql: string): DriverStatement => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = driver.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  let depth = 0;
  const db: SyncDb = {
    path,
    run(sql, params) {
      return { changes: prepare(sql).run(params as never).changes };
    },
    get<T>(sql: string, params?: SqlParams) {
      // all(), not get(): the driver's get() leaves a cached statement mid-step, which blocks COMMIT.
      return prepare(sql).all(params as never)[0] as T | undefined;
    },
    all<T>(sql: string, params?: SqlParams) {
      return prepare(sql).all(params as never) as T[];
    },
    changes: () => (prepare('SELECT changes() AS n').all()[0] as { n: number }).n,
    transaction<T>(fn: () => T): T {
      if (depth > 0) return fn();
      driver.exec('BEGIN IMMEDIATE');
      depth++;
      try {
        const result = fn();
        driver.exec('COMMIT');
        return result;
      } catch (error) {
        if (driver.inTransaction) driver.exec('ROLLBACK');
        throw error;
      } finally {
        depth--;
      }
    },
    begin: () => driver.exec('BEGIN IMMEDIATE'),
    commit: () => driver.exec('COMMIT'),
    rollback() {
      if (driver.inTransaction) driver.exec('ROLLBACK');
    },
    checkpoint: () => driver.exec('PRAGMA wal_checkpoint(PASSIVE)'),
    close() {
      if (!driver.isOpen) return;
      try {
        try {
          // The driver checkpoints as it closes, then deletes the WAL: the file synced first.
          driver.exec('PRAGMA synchronous=FULL');
        } catch {
          // A damaged file being closed: the error that closes it is the one to report.
        }
        for (const statement of statements.values()) {
          // finalize() repeats the statement's last error (e.g. "database disk image is
          // malformed" on a damaged file); the statement is released all the same.
          try {
            statement.finalize();
          } catch {
            // Released; nothing more to do.
          }
        }
        statements.clear();
        driver.close();
      } finally {
        releaseLock();
      }
    },
  };
  return db;
}

/**
 * The asynchronous face: statements run at once while no transaction is open; a transaction
 * holds the connection until it ends, and what comes meanwhile waits its turn (first come,
 * first served), so no statement ever joins another caller's transaction. Writes wait, in
 * their turn, for the database file's sync after a checkpoint (see the header).
 */
function asyncFace(sync: SyncDb, checkpointAfterMs: number): Db {
  let held = false;
  const waiting: (() => void)[] = [];
  const acquire = (): Promise<void> =>
    held ? new Promise<void>((resolve) => waiting.push(resolve)) : ((held = true), Promise.resolve());
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else held = false;
  };
  const wal = fileSyncer(`${sync.path}-wal`);
  const file = fileSyncer(sync.path);
  let closed = false;

  let checkpointTimer: NodeJS.Timeout | undefined;
  /**
   * A turn of its own: the WAL synced (every frame copied is on disk first), the pages copied,
   * the file's sync started. A failure leaves the WAL as it was; the next write schedules
   * another try (and a disk that fails to sync fails that write's own sync, to its caller).
   */
  const checkpoint = async () => {
    await acquire();
    try {
      checkpointTimer = undefined;
      if (closed) return;
      await wal.covered();
      try {
        sync.checkpoint();
      } finally {
        // Started now, after a failed copy too (pages may be half written): the next write
        // waits for it (file.covered()), and sees its error if it fails.
        file.durable().catch(() => undefined);
      }
    } catch {
      // Not copied: tried again after the next write.
    } finally {
      release();
    }
  };
  /** After each write: a checkpoint within checkpointAfterMs, unless one is already due. */
  const wrote = () => {
    if (checkpointTimer || closed) return;
    checkpointTimer = setTimeout(() => void checkpoint(), checkpointAfterMs);
    // Closing checkpoints by itself: a due checkpoint never keeps the process alive.
    checkpointTimer.unref();
  };

  /** One statement: now when the connection is free, else after the transactions ahead of it. */
  const statement = async <T>(sql: string, op: () => T): Promise<T> => {
    const write = mayWrite(sql);
    let result: T;
    if (!held && (!write || file.isCovered())) result = op();
    else {
      await acquire();
      try {
        if (write) await file.covered();
        result = op();
      } finally {
        release();
      }
    }
    // A statement of its own commits on its own: on disk before its caller hears back (when it
    // changed anything: a claim that found its row taken costs no sync).
    if (write && sync.changes() > 0) {
      wrote();
      await wal.durable();
    }
    return result;
  };
  const executor = (guard: () => void): SqlExecutor => ({
    dialect: 'sqlite',
    run: async (sql, params) => (guard(), sync.run(sql, params)),
    get: async <T>(sql: string, params?: SqlParams) => (guard(), sync.get<T>(sql, params)),
    all: async <T>(sql: string, params?: SqlParams) => (guard(), sync.all<T>(sql, params)),
  });
  const open = () => {
    if (closed) throw new Error(`the database ${sync.path} is closed`);
  };
  return {
    dialect: 'sqlite',
    path: sync.path,
    exclusive: true,
    run: (sql, params) => statement(sql, () => (open(), sync.run(sql, params))),
    get: <T>(sql: string, params?: SqlParams) => statement(sql, () => (open(), sync.get<T>(sql, params))),
    all: <T>(sql: string, params?: SqlParams) => statement(sql, () => (open(), sync.all<T>(sql, params))),
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      await acquire();
      let active = true;
      let result: T;
      try {
        open();
        await file.covered();
        sync.begin();
        try {
          result = await fn(
            executor(() => {
              if (!active) throw new Error('a statement on a transaction that has ended');
            }),
          );
          sync.commit();
        } catch (error) {
          sync.rollback();
          throw error;
        }
      } finally {
        active = false;
        release();
      }
      wrote();
      // Committed; the next transaction may run while this one's sync is under way.
      await wal.durable();
      return result;
    },
    notify: async () => {},
    listen: async () => () => {},
    async close() {
      if (closed) return;
      await acquire();
      closed = true;
      clearTimeout(checkpointTimer);
      try {
        await wal.close();
        await file.close();
        sync.close();
      } finally {
        release();
      }
    },
  };
}

/** A statement that may change the file: anything but a SELECT (an UPDATE … RETURNING read with `get` too). */
function mayWrite(sql: string): boolean {
  return !/^\s*SELECT\b/i.test(sql);
}

/**
 * Syncs a file (`fsync` on libuv's thread pool, not the event loop). `durable()` counts a write
 * (made before the call) and resolves once a sync that started after it has finished; one sync
 * covers all the writes counted before it started, so callers arriving while a sync runs share
 * the next one. A failed sync rejects its callers; the next call tries again.
 */
function fileSyncer(path: string) {
  let handle: FileHandle | undefined;
  /** Writes counted so far, and how many of them a finished sync covers. */
  let written = 0;
  let synced = 0;
  let running: Promise<void> | undefined;
  const syncOnce = async () => {
    const covers = written;
    // Opened at the first sync: the WAL exists once something was written (it stays until the
    // database closes), the database file from the start.
    handle ??= await openFile(path, 'r+');
    await handle.sync();
    synced = Math.max(synced, covers);
  };
  const upTo = async (target: number): Promise<void> => {
    while (synced < target) {
      running ??= syncOnce().finally(() => {
        running = undefined;
      });
      await running;
    }
  };
  return {
    durable: (): Promise<void> => upTo(++written),
    /** True when every write counted so far is synced. */
    isCovered: () => synced >= written,
    /** Resolves once every write counted so far is synced (a failed sync is tried again here). */
    covered: (): Promise<void> => upTo(written),
    async close(): Promise<void> {
      await running?.catch(() => undefined);
      await handle?.close();
      handle = undefined;
    },
  };
}

function migrate(db: SyncDb): void {
  const current = db.get<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0;
  if (current > SCHEMA_VERSION) {
    throw new AppError(
      'DATABASE_TOO_NEW',
      `The database ${db.path} has schema version ${current}, newer than this app's ${SCHEMA_VERSION}. Update the app; the file was left untouched.`,
      { path: db.path, version: current, supported: SCHEMA_VERSION },
    );
  }
  for (let version = current + 1; version <= SCHEMA_VERSION; version++) {
    const migration = MIGRATIONS[version - 1]!;
    db.transaction(() => {
      for (const statement of migration) db.run(statement);
      // user_version lives in the file header and commits with the transaction.
      db.run(`PRAGMA user_version=${version}`);
    });
  }
}

function isCorruption(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /not a database|malformed|integrity check|journal_mode is/i.test(message);
}

function moveAside(path: string): string {
  const aside = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(path, aside);
  for (const suffix of ['-wal', '-journal']) {
    if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
  }
  return aside;
}

/**
 * Takes the data directory's instance lock (`platform/instance-lock.ts`), which the operating
 * system frees when its holder dies, so a crash never blocks the next start. The driver's own
 * lock, a `<db>.lock` directory, stays behind after `kill -9`; holding the instance lock means
 * no live process has the file open, so such a directory is a crash leftover and is removed,
 * as is the `<db>.owner` pid file of versions before the instance lock.
 * Returns the release function.
 */
function lockDatabase(path: string, holder: string): () => void {
  const result = acquireInstanceLock(path, { description: holder });
  if (!result.acquired) {
    const who = result.holder
      ? `process ${result.holder.pid} (${result.holder.description})`
      : `another process (${result.problem ?? 'it did not answer; it may be hung'})`;
    throw new AppError('DATABASE_LOCKED', `The database ${path} is in use by ${who}. Stop it first.`, {
      path,
      ...(result.holder ? { pid: result.holder.pid } : {}),
    });
  }
  rmSync(`${path}.lock`, { recursive: true, force: true });
  rmSync(`${path}.owner`, { force: true });
  return () => result.lock.release();
}
