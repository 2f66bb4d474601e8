/**
 * The credits module (jobs/credits.ts) on the run's real store (a SQLite file, or PostgreSQL with
 * `npm run test:postgres`): each movement leaves the key's balance and one ledger row that agree,
 * and a charge the balance cannot pay is refused with INSUFFICIENT_CREDITS and writes nothing.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MILLI_PER_CREDIT } from '../../../electron/shared/pricing';
import {
  chargeCredits,
  chargeInBatch,
  checkCredits,
  grantCredits,
  liveBalanceMilli,
  lockKeyToCharge,
  refundCredits,
  transferCredits,
} from '../../../electron/core/jobs/credits';
import { createApiKey, revokeApiKey } from '../../../electron/core/jobs/keys';
import type { LedgerRow, Store } from '../../../electron/core/store';
import type { Clock } from '../../../electron/core/platform/clock';
import { openTestStore, type TestStore } from '../../fixtures/test-store';

const AT = '2026-01-02T03:04:05.000Z';
const clock: Clock = { now: () => Date.parse(AT) };

describe('credits', () => {
  let t: TestStore;
  let store: Store;
  beforeAll(async () => {
    t = await openTestStore();
    store = t.store;
  });
  afterAll(async () => {
    await t?.close();
  });

  const newKey = async (credits: number) =>
    (await createApiKey(store, clock, { name: 'k', balanceMilli: credits * MILLI_PER_CREDIT })).row;
  const balance = async (id: string) => Number((await store.keys.findById(id))!.balance_milli);
  const ledgerOf = async (id: string): Promise<LedgerRow[]> =>
    (await store.ledger.list(id, 100, 0)).rows.reverse();
  const shape = (row: LedgerRow) => ({
    kind: row.kind,
    request_id: row.request_id,
    amount_milli: Number(row.amount_milli),
    balance_after_milli: Number(row.balance_after_milli),
    from_key_id: row.from_key_id ?? null,
  });

  it('charges, refunds and grants with one ledger row each, the balance after in each', async () => {
    const key = await newKey(10);
    expect(await store.transaction(async (tx) => chargeCredits(tx, key, 'job-1', 2500, 'request', AT))).toBe(
      7500,
    );
    await store.transaction((tx) => refundCredits(tx, { id: 'job-1', key_id: key.id }, 1000, AT));
    expect(await store.transaction((tx) => grantCredits(tx, key.id, 500, AT))).toBe(9000);
    expect(await balance(key.id)).toBe(9000);
    expect((await ledgerOf(key.id)).map(shape)).toEqual([
      {
        kind: 'grant',
        request_id: null,
        amount_milli: 10_000,
        balance_after_milli: 10_000,
        from_key_id: null,
      },
      {
        kind: 'charge',
        request_id: 'job-1',
        amount_milli: -2500,
        balance_after_milli: 7500,
        from_key_id: null,
      },
      {
        kind: 'refund',
        request_id: 'job-1',
        amount_milli: 1000,
        balance_after_milli: 8500,
        from_key_id: null,
      },
      { kind: 'grant', request_id: null, amount_milli: 500, balance_after_milli: 9000, from_key_id: null },
    ]);
  });

  it('refuses a charge the balance cannot pay, naming the work, and writes nothing', async () => {
    const key = await newKey(1);
    for (const work of ['request', 'export', 'render'] as const) {
      await expect(
        store.transaction((tx) => chargeCredits(tx, key, 'job-2', 1500, work, AT)),
      ).rejects.toMatchObject({
        name: 'AppError',
        code: 'INSUFFICIENT_CREDITS',
        message: `This ${work} costs 1.5 credits; the balance is 1.`,
        details: { cost: 1.5, balance: 1 },
      });
    }
    // Exactly the balance is enough.
    await store.transaction((tx) => chargeCredits(tx, key, 'job-3', 1000, 'export', AT));
    expect(await balance(key.id)).toBe(0);
    expect((await ledgerOf(key.id)).map((r) => r.kind)).toEqual(['grant', 'charge']);
  });

  it('writes a charge of nothing unless told to skip it, and never a refund of nothing', async () => {
    const key = await newKey(1);
    await store.transaction((tx) => chargeCredits(tx, key, 'free-1', 0, 'request', AT));
    await store.transaction((tx) => chargeCredits(tx, key, 'free-2', 0, 'render', AT, { skipFree: true }));
    await store.transaction((tx) => refundCredits(tx, { id: 'free-1', key_id: key.id }, 0, AT));
    expect((await ledgerOf(key.id)).map((r) => [r.kind, r.request_id])).toEqual([
      ['grant', null],
      ['charge', 'free-1'],
    ]);
  });

  it('decides a batch charge in memory: the key lowered, the row returned, a refusal leaves it', () => {
    const key = { id: 'k1', balance_milli: 3000 };
    expect(chargeInBatch(key, 'r1', 2000, 'request', AT)).toEqual({
      key_id: 'k1',
      request_id: 'r1',
      kind: 'charge',
      amount_milli: -2000,
      balance_after_milli: 1000,
      created_at: AT,
    });
    expect(key.balance_milli).toBe(1000);
    expect(() => chargeInBatch(key, 'r2', 2000, 'request', AT)).toThrow(
      'This request costs 2 credits; the balance is 1.',
    );
    expect(key.balance_milli).toBe(1000);
    expect(() => checkCredits(1000, 1000, 'render')).not.toThrow();
  });

  it('moves a revoked key’s whole balance as one transfer row of the receiving key', async () => {
    const from = await newKey(4);
    const to = await newKey(0);
    await revokeApiKey(store, clock, from.id);
    const locked = await store.transaction(async (tx) => {
      const [row] = await tx.keys.lockForUpdate([from.id]);
      return transferCredits(tx, row!, to.id, AT);
    });
    expect(locked).toBe(4000);
    expect(await balance(from.id)).toBe(0);
    expect(await balance(to.id)).toBe(4000);
    expect((await ledgerOf(to.id)).map(shape).at(-1)).toEqual({
      kind: 'transfer',
      request_id: null,
      amount_milli: 4000,
      balance_after_milli: 4000,
      from_key_id: from.id,
    });
    // The source's own ledger is untouched: the transfer is the receiver's row.
    expect((await ledgerOf(from.id)).map((r) => r.kind)).toEqual(['grant']);
  });

  it('charges a live key only: a revoked or unknown one is UNAUTHORIZED', async () => {
    const live = await newKey(1);
    const revoked = await newKey(1);
    await revokeApiKey(store, clock, revoked.id);
    expect((await store.transaction((tx) => lockKeyToCharge(tx, live.id))).id).toBe(live.id);
    for (const id of [revoked.id, 'no-such-key']) {
      await expect(store.transaction((tx) => lockKeyToCharge(tx, id))).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
        message: 'The API key was revoked.',
      });
    }
  });

  it('adds up the balance of live keys only', async () => {
    const keys = await store.keys.list();
    const live = keys.filter((k) => k.revoked_at === null);
    expect(live.length).toBeLessThan(keys.length);
    expect(liveBalanceMilli(keys)).toBe(live.reduce((n, k) => n + Number(k.balance_milli), 0));
    expect(liveBalanceMilli(keys)).toBeGreaterThan(0);
  });
});
