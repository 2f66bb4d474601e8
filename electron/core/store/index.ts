/**
 * The app's persistent state, a repository per table over one database: the embedded SQLite
 * file (the default, one process) or a shared PostgreSQL database (several instances). Owned
 * by the composition root, closed last.
 */

import { createCallbacksRepo, type CallbacksRepo } from './callbacks-repo';
import { createCustomVoicesRepo, type CustomVoicesRepo } from './custom-voices-repo';
import { createExportsRepo, type ExportsRepo } from './exports-repo';
import { createIdempotencyRepo, type IdempotencyRepo } from './idempotency-repo';
import { createKeysRepo, newKeyRowCache, type KeyRowCache, type KeysRepo } from './keys-repo';
import { createLedgerRepo, type LedgerRepo } from './ledger-repo';
import { createProjectRendersRepo, type ProjectRendersRepo } from './project-renders-repo';
import { createProjectsRepo, type ProjectsRepo } from './projects-repo';
import { createRequestsRepo, type RequestsRepo } from './requests-repo';
import { createSessionsRepo, type SessionsRepo } from './sessions-repo';
import type { Db, SqlExecutor } from './sql';
import { openDatabase, SCHEMA_VERSION } from './sqlite-database';

/** The repositories, on the database or inside one transaction. */
export interface Repos {
  readonly keys: KeysRepo;
  readonly requests: RequestsRepo;
  readonly callbacks: CallbacksRepo;
  readonly ledger: LedgerRepo;
  readonly idempotency: IdempotencyRepo;
  readonly exports: ExportsRepo;
  readonly projects: ProjectsRepo;
  readonly projectRenders: ProjectRendersRepo;
  readonly customVoices: CustomVoicesRepo;
  readonly sessions: SessionsRepo;
}

export interface Store extends Repos {
  /** Which database holds the data. */
  readonly kind: 'sqlite' | 'postgres';
  /**
   * Runs `fn` atomically on the repositories it is given: committed (on disk) when it
   * resolves, rolled back when it rejects. On PostgreSQL it may run again after a deadlock or
   * serialization failure, so it must do nothing but database work.
   */
  transaction<T>(fn: (tx: Repos) => Promise<T>): Promise<T>;
  /** The SQLite file's path, or the PostgreSQL URL without its password. */
  readonly path: string;
  /** True when this process is the database's only user (SQLite). */
  readonly exclusive: boolean;
  /** Tells every instance on the database (PostgreSQL NOTIFY; nothing on SQLite). */
  notify(channel: string, payload: string): Promise<void>;
  /** Hears `notify` of every instance; resolves with the function that stops listening. */
  listen(channel: string, handler: (payload: string) => void): Promise<() => void>;
  close(): Promise<void>;
}

/** Where the data is: a SQLite file, or a PostgreSQL URL (`postgres://` or `postgresql://`). */
export type StoreLocation =
  | {
      path: string;
      /**
       * What this process is to a second one that the data directory's lock refuses, e.g.
       * "Narration Studio serve" (default "Narration Studio").
       */
      holder?: string;
    }
  | { url: string };

/**
 * Opens and migrates the database. SQLite throws AppError DATABASE_LOCKED, DATABASE_TOO_NEW or
 * DATABASE_CORRUPT (see `openDatabase`); PostgreSQL rejects with DATABASE_UNAVAILABLE or
 * DATABASE_TOO_NEW.
 */
export async function openStore(location: StoreLocation): Promise<Store> {
  // PostgreSQL's client is loaded only for a database URL (~16 MB of a SQLite server's memory).
  const db =
    'url' in location
      ? await (await import('./postgres-database')).openPostgresDatabase(location.url)
      : openDatabase(location.path, location.holder ? { holder: location.holder } : {});
  return storeOn(db);
}

function reposOn(executor: SqlExecutor, keyCache: KeyRowCache | undefined, inTransaction: boolean): Repos {
  return {
    keys: createKeysRepo(executor, keyCache, inTransaction),
    requests: createRequestsRepo(executor),
    callbacks: createCallbacksRepo(executor),
    ledger: createLedgerRepo(executor),
    idempotency: createIdempotencyRepo(executor),
    exports: createExportsRepo(executor),
    projects: createProjectsRepo(executor),
    projectRenders: createProjectRendersRepo(executor),
    customVoices: createCustomVoicesRepo(executor),
    sessions: createSessionsRepo(executor),
  };
}

function storeOn(db: Db): Store {
  // Only where no other process writes the keys (SQLite's exclusive lock): see KeyRowCache.
  const keyCache = db.exclusive ? newKeyRowCache() : undefined;
  return {
    ...reposOn(db, keyCache, false),
    kind: db.dialect,
    transaction: (fn) => db.transaction((tx) => fn(reposOn(tx, keyCache, true))),
    path: db.path,
    exclusive: db.exclusive,
    notify: (channel, payload) => db.notify(channel, payload),
    listen: (channel, handler) => db.listen(channel, handler),
    close: () => db.close(),
  };
}

export { SCHEMA_VERSION };
export type { KeyRow } from './keys-repo';
export type { RequestRow, NewRequestRow, Finish } from './requests-repo';
export type { CallbackAttemptRow } from './callbacks-repo';
export type { LedgerRow } from './ledger-repo';
export type { IdempotencyRow } from './idempotency-repo';
export type { ExportKind, ExportRow, NewExportRow, ExportFinish } from './exports-repo';
export type {
  ProjectRow,
  ProjectFields,
  ProjectSummaryRow,
  ChapterRow,
  CharacterRow,
  SegmentRow,
  ChapterFiguresRow,
  CastFiguresRow,
} from './projects-repo';
export type { ProjectRenderRow, RenderFinish, RenderItem, SegmentAudio } from './project-renders-repo';
export type { CustomVoiceRow } from './custom-voices-repo';
