/**
 * The SQLite database: one file, opened once per process, WAL journal under exclusive
 * locking (node-sqlite3-wasm ignores WAL otherwise), `synchronous=FULL` so a commit is on
 * disk before the caller is answered. The only module that imports the driver.
 */

import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  linkSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { AppError } from '../../shared/errors';
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
  /** Finalizes statements, closes the file and releases the ownership lock. */
  close(): void;
}

/** Newest schema version this build knows. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Opens (creating if needed) the database at `path` and migrates it.
 * Throws AppError DATABASE_LOCKED when another live process owns it, DATABASE_TOO_NEW for a
 * file written by a newer version (left untouched), DATABASE_CORRUPT for a file that is not a
 * readable database (moved aside, never overwritten).
 */
export function openDatabase(file: string): Db {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  const releaseOwner = acquireOwnership(path);
  let driver: DriverDatabase | undefined;
  let db: Db | undefined;
  try {
    driver = new sqlite.Database(path);
    db = wrap(driver, path, releaseOwner);
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
    releaseOwner();
    throw error;
  }
}

function wrap(driver: DriverDatabase, path: string, releaseOwner: () => void): Db {
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
        releaseOwner();
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
 * The driver locks with a `<db>.lock` directory that a killed process leaves behind, so a
 * restart after `kill -9` would find its own database "locked" forever. We record the owner's
 * pid beside it: a live owner means a second instance (refused); a dead one means a crash,
 * and its stale lock directory is removed.
 */
function acquireOwnership(path: string): () => void {
  const ownerPath = `${path}.owner`;
  const tmpPath = `${ownerPath}.${process.pid}`;
  writeFileSync(tmpPath, String(process.pid));
  try {
    for (let tries = 0; tries < 3; tries++) {
      try {
        linkSync(tmpPath, ownerPath);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const owner = Number.parseInt(readOwner(ownerPath), 10);
        // Our own pid is a live owner only if this process has the file open (else: a dead process had our pid).
        const live = owner === process.pid ? openHere.has(path) : Number.isInteger(owner) && isAlive(owner);
        if (live) {
          throw new AppError(
            'DATABASE_LOCKED',
            `The database ${path} is in use by process ${owner} (another Narration Studio or serve). Stop it first.`,
            { path, pid: owner },
          );
        }
        rmSync(ownerPath, { force: true });
      }
      if (tries === 2)
        throw new AppError('DATABASE_LOCKED', `Could not take ownership of ${path}.`, { path });
    }
  } finally {
    rmSync(tmpPath, { force: true });
  }
  // Our pid owns the file now, so any driver lock directory is a crash leftover.
  rmSync(`${path}.lock`, { recursive: true, force: true });
  openHere.add(path);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    openHere.delete(path);
    try {
      if (readOwner(ownerPath) === String(process.pid)) unlinkSync(ownerPath);
    } catch {
      // Already gone: nothing to release.
    }
  };
}

/** Database paths this process has open. */
const openHere = new Set<string>();

function readOwner(ownerPath: string): string {
  try {
    return statSync(ownerPath).isFile() ? readFileSync(ownerPath, 'utf8').trim() : '';
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
