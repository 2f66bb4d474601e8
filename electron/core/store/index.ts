/**
 * The app's persistent state: one SQLite file with a repository per table. Owned by the
 * composition root, closed last.
 */

import { openDatabase, SCHEMA_VERSION } from './database';
import { createCallbacksRepo, type CallbacksRepo } from './callbacks-repo';
import { createIdempotencyRepo, type IdempotencyRepo } from './idempotency-repo';
import { createKeysRepo, type KeysRepo } from './keys-repo';
import { createLedgerRepo, type LedgerRepo } from './ledger-repo';
import { createRequestsRepo, type RequestsRepo } from './requests-repo';

export interface Store {
  readonly keys: KeysRepo;
  readonly requests: RequestsRepo;
  readonly callbacks: CallbacksRepo;
  readonly ledger: LedgerRepo;
  readonly idempotency: IdempotencyRepo;
  /** Runs `fn` atomically: committed (and fsynced) when it returns, rolled back when it throws. */
  transaction<T>(fn: () => T): T;
  /** Path of the database file. */
  readonly path: string;
  close(): void;
}

/**
 * Opens the database file (see `openDatabase` for the errors it throws). `holder` says what
 * this process is to a second one that the data directory's lock refuses, e.g. "Narration
 * Studio serve" (default "Narration Studio").
 */
export function openStore(options: { path: string; holder?: string }): Store {
  const db = openDatabase(options.path, options.holder ? { holder: options.holder } : {});
  return {
    keys: createKeysRepo(db),
    requests: createRequestsRepo(db),
    callbacks: createCallbacksRepo(db),
    ledger: createLedgerRepo(db),
    idempotency: createIdempotencyRepo(db),
    transaction: (fn) => db.transaction(fn),
    path: db.path,
    close: () => db.close(),
  };
}

export { SCHEMA_VERSION };
export type { KeyRow, KeysRepo } from './keys-repo';
export type { RequestRow, NewRequestRow, RequestsRepo, Finish } from './requests-repo';
export type { CallbackAttemptRow, CallbacksRepo } from './callbacks-repo';
export type { LedgerRow, LedgerRepo } from './ledger-repo';
export type { IdempotencyRow, IdempotencyRepo } from './idempotency-repo';
