/**
 * Credits, in one place: the check before a charge (INSUFFICIENT_CREDITS), the charge, the refund,
 * the grant, the transfer of a revoked studio key's balance, and a balance over keys. Every
 * movement of a key's balance goes through here with its `ledger` row (integer milli-credits,
 * `balance_after_milli` the key's balance once moved), inside the caller's transaction: requests
 * (jobs/submit.ts, a batch that writes its rows together: `chargeInBatch`), their refunds
 * (jobs/runner.ts), exports (jobs/export-jobs.ts), project renders (projects/project-renders.ts)
 * and keys (jobs/keys.ts: grants, additions, the studio key's transfer).
 */

import { AppError } from '../../shared/errors';
import type { KeyRow, LedgerRow, Repos } from '../store';

/** What a charge pays for, as its INSUFFICIENT_CREDITS message names it. */
export type ChargedWork = 'request' | 'export' | 'render';

/** A ledger row to write (its id comes from the store). */
export type NewLedgerRow = Omit<LedgerRow, 'id'>;

/**
 * The key `keyId` locked in `tx` (PostgreSQL: `FOR UPDATE`, so two charges of one key take turns)
 * and read as it then is, to charge: UNAUTHORIZED when it is gone or revoked.
 */
export async function lockKeyToCharge(tx: Repos, keyId: string): Promise<KeyRow> {
  await tx.keys.lockForUpdate([keyId]);
  const key = await tx.keys.findById(keyId);
  return liveKeyToCharge(key);
}

/** `key` when it may be charged; UNAUTHORIZED when it is gone or revoked. */
export function liveKeyToCharge<K extends Pick<KeyRow, 'revoked_at'>>(key: K | undefined): K {
  if (!key || key.revoked_at !== null) throw new AppError('UNAUTHORIZED', 'The API key was revoked.');
  return key;
}

/**
 * Refuses a charge of `costMilli` on a balance of `balanceMilli` that cannot pay it:
 * INSUFFICIENT_CREDITS, with the cost and the balance in credits.
 */
export function checkCredits(balanceMilli: number, costMilli: number, work: ChargedWork): void {
  const balance = Number(balanceMilli);
  if (balance < costMilli) {
    throw new AppError(
      'INSUFFICIENT_CREDITS',
      `This ${work} costs ${costMilli / 1000} credits; the balance is ${balance / 1000}.`,
      { cost: costMilli / 1000, balance: balance / 1000 },
    );
  }
}

/**
 * A charge decided in memory, for a batch that writes its rows later in one statement
 * (jobs/submit.ts): checks the balance, lowers `key.balance_milli` by the cost, and returns the
 * `charge` ledger row to write.
 */
export function chargeInBatch(
  key: { id: string; balance_milli: number },
  jobId: string,
  costMilli: number,
  work: ChargedWork,
  at: string,
): NewLedgerRow {
  checkCredits(key.balance_milli, costMilli, work);
  key.balance_milli -= costMilli;
  return chargeEntry(key.id, jobId, costMilli, key.balance_milli, at);
}

/**
 * Charges `costMilli` to `key` (a live key the caller read in `tx`, locked on PostgreSQL) for the
 * job `jobId`, after checking its balance: the balance lowered and a `charge` ledger row, in `tx`.
 * A charge of nothing writes a row of 0 unless `skipFree` (a render that had nothing to pay for).
 * Resolves with the balance after.
 */
export async function chargeCredits(
  tx: Repos,
  key: Pick<KeyRow, 'id' | 'balance_milli'>,
  jobId: string,
  costMilli: number,
  work: ChargedWork,
  at: string,
  options: { skipFree?: boolean } = {},
): Promise<number> {
  checkCredits(key.balance_milli, costMilli, work);
  if (options.skipFree && costMilli <= 0) return Number(key.balance_milli);
  const balance = await tx.keys.addBalance(key.id, -costMilli);
  await tx.ledger.insert(chargeEntry(key.id, jobId, costMilli, balance, at));
  return balance;
}

function chargeEntry(
  keyId: string,
  jobId: string,
  costMilli: number,
  after: number,
  at: string,
): NewLedgerRow {
  return {
    key_id: keyId,
    request_id: jobId,
    kind: 'charge',
    amount_milli: -costMilli,
    balance_after_milli: after,
    created_at: at,
  };
}

/**
 * Gives back `amountMilli` of what the job `job.id` was charged, with its `refund` ledger row, in
 * `tx`; nothing for an amount of 0 or less.
 */
export async function refundCredits(
  tx: Repos,
  job: { id: string; key_id: string },
  amountMilli: number,
  at: string,
): Promise<void> {
  if (amountMilli <= 0) return;
  const balance = await tx.keys.addBalance(job.key_id, amountMilli);
  await tx.ledger.insert({
    key_id: job.key_id,
    request_id: job.id,
    kind: 'refund',
    amount_milli: amountMilli,
    balance_after_milli: balance,
    created_at: at,
  });
}

/** The most credits one addition may give (a typo of a few extra digits is refused). */
export const MAX_CREDITS_ADDED = 1_000_000_000;

/**
 * An amount of credits to add that is not a whole number from 1 to MAX_CREDITS_ADDED:
 * INVALID_FIELD naming `credits`, with what was sent when something was (`addCredits` in
 * jobs/keys.ts, and the body of POST /api/v1/keys/<id>/credits).
 */
export function creditsToAddError(got?: unknown): AppError {
  const sent =
    got === undefined ? '' : `, got ${typeof got === 'number' ? String(got) : JSON.stringify(got)}`;
  return new AppError(
    'INVALID_FIELD',
    `credits must be a whole number from 1 to ${MAX_CREDITS_ADDED.toLocaleString('en')}${sent}.`,
    { field: 'credits' },
  );
}

/**
 * Adds `amountMilli` to the key `keyId`, with its `grant` ledger row, in `tx`; resolves with the
 * balance after.
 */
export async function grantCredits(
  tx: Repos,
  keyId: string,
  amountMilli: number,
  at: string,
): Promise<number> {
  const balance = await tx.keys.addBalance(keyId, amountMilli);
  await tx.ledger.insert(grantEntry(keyId, amountMilli, balance, at));
  return balance;
}

/**
 * The `grant` ledger row of a key inserted with its starting balance (`row.balance_milli`), in
 * `tx` after the key's own row.
 */
export async function recordStartingBalance(
  tx: Repos,
  row: Pick<KeyRow, 'id' | 'balance_milli' | 'created_at'>,
): Promise<void> {
  await tx.ledger.insert(grantEntry(row.id, row.balance_milli, row.balance_milli, row.created_at));
}

function grantEntry(keyId: string, amountMilli: number, after: number, at: string): NewLedgerRow {
  return {
    key_id: keyId,
    request_id: null,
    kind: 'grant',
    amount_milli: amountMilli,
    balance_after_milli: after,
    created_at: at,
  };
}

/**
 * Moves the whole balance of `from` (a revoked key, locked in `tx`) to the key `toId`: `from`
 * goes to 0 and `toId` gets one `transfer` ledger row (`from_key_id` the source), even of 0.
 * Resolves with the balance of `toId` after.
 */
export async function transferCredits(
  tx: Repos,
  from: Pick<KeyRow, 'id' | 'balance_milli'>,
  toId: string,
  at: string,
): Promise<number> {
  const amount = Number(from.balance_milli);
  if (amount !== 0) await tx.keys.addBalance(from.id, -amount);
  const after = await tx.keys.addBalance(toId, amount);
  await tx.ledger.insert({
    key_id: toId,
    request_id: null,
    kind: 'transfer',
    amount_milli: amount,
    balance_after_milli: after,
    created_at: at,
    from_key_id: from.id,
  });
  return after;
}

/** The balance of the live keys among `keys`, together (GET /api/v1/usage without a key filter). */
export function liveBalanceMilli(keys: readonly Pick<KeyRow, 'balance_milli' | 'revoked_at'>[]): number {
  return keys.filter((k) => k.revoked_at === null).reduce((sum, k) => sum + Number(k.balance_milli), 0);
}
