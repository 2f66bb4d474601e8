/**
 * The SQLite database: one file, opened once per process, WAL journal under exclusive
 * locking (node-sqlite3-wasm ignores WAL otherwise), `synchronous=FULL` so a commit is on
 * disk before the caller is answered. The only module that imports the driver.
 */

import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { AppError } from '../../shared/errors';
import { acquireInstanceLock } from '../platform/instance-lock';
import { MIGRATIONS } from './migrations';

type DriverDatabase = InstanceType<typeof sqlite.Database>;
type DriverStatement = ReturnType<DriverDatabase['prepare']>;

export type SqlValue = number | bigint | string | Uint8Array | null;
export type SqlParams = readonly (SqlValue | boolean)[] | Record<string, SqlValue | boolean>;
export type SqlRow = Record<string, SqlValue>;

/** Thin typed face of the connection, with a prepared-statement cache. */
export interface Db {
  /** Runs a write; returns the number of changed rows. */
  run(sql: string, params?: SqlParams): { changes: number; lastInsertRowid: number };
  get<T = SqlRow>(sql: string, params?: SqlParams): T | undefined;
  all<T = SqlRow>(sql: string, params?: SqlParams): T[];
  /** Runs `fn` in one transaction (nested calls join the outer one); rolls back on throw. */
  transaction<T>(fn: () => T): T;
  /** Path of the database file. */
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
}

/**
 * Opens (creating if needed) the database at `path` and migrates it.
 * Throws AppError DATABASE_LOCKED when another live process has it open, DATABASE_TOO_NEW for a
 * file written by a newer version (left untouched), DATABASE_CORRUPT for a file that is not a
 * readable database (moved aside, never overwritten).
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  const releaseLock = lockDatabase(path, options.holder ?? 'Narration Studio');
  let driver: DriverDatabase | undefined;
  let db: Db | undefined;
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

function wrap(driver: DriverDatabase, path: string, releaseLock: () => void): Db {
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
  const db: Db = {
    path,
    run(sql, params) {
      const result = prepare(sql).run(params as never);
      return { changes: result.changes, lastInsertRowid: Number(result.lastInsertRowid) };
    },
    get<T>(sql: string, params?: SqlParams) {
      // all(), not get(): the driver's get() leaves a cached statement mid-step, which blocks COMMIT.
      return prepare(sql).all(params as never)[0] as T | undefined;
    },
    all<T>(sql: string, params?: SqlParams) {
      return prepare(sql).all(params as never) as T[];
    },
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
    close() {
      if (!driver.isOpen) return;
      try {
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

function migrate(db: Db): void {
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
