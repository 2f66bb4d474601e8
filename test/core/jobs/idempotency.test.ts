/**
 * Idempotent submits at the submitter: the key is looked up and recorded in the transaction
 * that stores and charges the request, on a real database of the run's backend, with a clock the
 * test moves.
 */

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalJson, hashRequest, IDEMPOTENCY_WINDOW_MS } from '../../../electron/core/jobs/idempotency';
import { createApiKey } from '../../../electron/core/jobs/keys';
import { createSubmitter, type SubmitInput, type Submitter } from '../../../electron/core/jobs/submit';
import type { Clock } from '../../../electron/core/platform/clock';
import type { RequestRow, Store } from '../../../electron/core/store';
import { openReopenableTestStore, type ReopenableTestStore } from '../../fixtures/reopenable-store';
import { submitInput } from '../../fixtures/submit-input';
import { onPostgres } from '../../fixtures/test-store';

let t: ReopenableTestStore;
let store: Store;
let submitter: Submitter;
let accepted: RequestRow[];
let now: number;
const clock: Clock = { now: () => now };

function input(keyId: string, text = 'Hello there.'): SubmitInput {
  return submitInput(keyId, { text, audio_type: 'mp3' });
}

const startSubmitter = () => {
  submitter = createSubmitter({
    store,
    clock,
    maxQueuedPerKey: 50,
    onAccepted: (rows) => accepted.push(...rows),
  });
};

const chargesOf = async (keyId: string) =>
  (await store.ledger.list(keyId, 1000, 0)).rows.filter((entry) => entry.kind === 'charge');
const requestsOf = async (keyId: string) =>
  (await store.requests.list({ keyId, limit: 1000, offset: 0 })).total;

beforeEach(async () => {
  t = await openReopenableTestStore();
  store = t.store;
  now = Date.parse('2026-03-01T12:00:00.000Z');
  accepted = [];
  startSubmitter();
});
afterEach(async () => {
  await submitter.close();
  await t.close();
});

describe('canonical request hash', () => {
  it('ignores key order and undefined members, keeps every value and the nesting', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 'x', null], c: true }, u: undefined })).toBe(
      '{"a":{"c":true,"d":[1,"x",null]},"b":1}',
    );
    expect(hashRequest({ a: 1, b: 2 })).toBe(hashRequest({ b: 2, a: 1 }));
    expect(hashRequest({ a: 1.0 })).toBe(hashRequest({ a: 1 }));
    expect(hashRequest({ a: 1 })).not.toBe(hashRequest({ a: '1' }));
    expect(hashRequest({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('idempotent submits', () => {
  it('replays the first request for the same key and hash: one row, one charge, one acceptance', async () => {
    const { row: key } = await createApiKey(store, clock, { balanceMilli: 1_000_000 });
    const idem = { key: 'order-1', requestHash: 'h1' };
    const first = await submitter.submitIdempotent(input(key.id), idem);
    const second = await submitter.submitIdempotent(input(key.id), idem);
    expect(first.replayed).toBe(false);
    expect(second).toMatchObject({ replayed: true, row: { id: first.row.id } });
    expect(await requestsOf(key.id)).toBe(1);
    expect(await chargesOf(key.id)).toHaveLength(1);
    expect(accepted.map((r) => r.id)).toEqual([first.row.id]);
    expect(await store.keys.findById(key.id)).toMatchObject({
      balance_milli: 1_000_000 - first.row.cost_milli,
      queued: 1,
    });
    expect(await store.idempotency.find(key.id, 'order-1')).toMatchObject({
      request_id: first.row.id,
      request_hash: 'h1',
    });
  });

  it('replays within one group commit: the same key twice in one batch stores one request', async () => {
    const { row: key } = await createApiKey(store, clock, { balanceMilli: 1_000_000 });
    const idem = { key: 'same-turn', requestHash: 'h' };
    const outcomes = await Promise.all([
      submitter.submitIdempotent(input(key.id), idem),
      submitter.submitIdempotent(input(key.id), idem),
      submitter.submitIdempotent(input(key.id), idem),
    ]);
    expect(new Set(outcomes.map((o) => o.row.id)).size).toBe(1);
    expect(outcomes.map((o) => o.replayed)).toEqual([false, true, true]);
    expect(await requestsOf(key.id)).toBe(1);
    expect(await chargesOf(key.id)).toHaveLength(1);
  });

  it('the same key sent to two instances at once (two submitters) stores and charges one request', async () => {
    const { row: key } = await createApiKey(store, clock, { balanceMilli: 1_000_000 });
    // On PostgreSQL a second instance with its own connections; SQLite has one process.
    const other = createSubmitter({
      store: onPostgres ? await t.openAnother() : store,
      clock,
      maxQueuedPerKey: 50,
      onAccepted: () => {},
    });
    try {
      const idem = { key: 'two-instances', requestHash: 'h' };
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 === 0 ? submitter : other).submitIdempotent(input(key.id), idem),
        ),
      );
      expect(new Set(outcomes.map((o) => o.row.id)).size).toBe(1);
      expect(outcomes.filter((o) => !o.replayed)).toHaveLength(1);
      expect(await requestsOf(key.id)).toBe(1);
      expect(await chargesOf(key.id)).toHaveLength(1);
      expect((await store.idempotency.find(key.id, 'two-instances'))?.request_id).toBe(outcomes[0]!.row.id);
    } finally {
      await other.close();
    }
  });

  it('refuses the key with another request: IDEMPOTENCY_KEY_REUSED, nothing stored or charged', async () => {
    const { row: key } = await createApiKey(store, clock, { balanceMilli: 1_000_000 });
    const first = await submitter.submitIdempotent(input(key.id), { key: 'k', requestHash: 'h1' });
    await expect(
      submitter.submitIdempotent(input(key.id, 'Other.'), { key: 'k', requestHash: 'h2' }),
    ).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
      details: { field: 'Idempotency-Key', request_id: first.row.id },
    });
    expect(await requestsOf(key.id)).toBe(1);
    expect(await chargesOf(key.id)).toHaveLength(1);
  });

  it('keeps keys per API key: the same key from another API key is a new request', async () => {
    const { row: a } = await createApiKey(store, clock, { balanceMilli: 1_000_000 });
    const { row: b } = await createApiKey(store, clock, { balanceMilli: 1_000_000 });
    const idem = { key: 'shared', requestHash: 'h' };
    const fromA = await submitter.submitIdempotent(input(a.id), idem);
    const fromB = await submitter.submitIdempotent(input(b.id), idem);
    expect(fromB.replayed).toBe(false);
    expect(fromB.row.id).not.toBe(fromA.row.id);
    expect(fromB.row.key_id).toBe(b.id);
  });

  it('forgets a key after 24 h: a new request, the row now points at it; expired rows are pruned', async () => {
    const { row: key } = await createApiKey(store, clock, { balanceMilli: 1_000_000 });
    const idem = { key: 'daily', requestHash: 'h' };
    const first = await submitter.submitIdempotent(input(key.id), idem);
    await submitter.submitIdempotent(input(key.id), { key: 'other', requestHash: 'h' });
    now += IDEMPOTENCY_WINDOW_MS - 1;
    expect(await submitter.submitIdempotent(input(key.id), idem)).toMatchObject({
      replayed: true,
      row: { id: first.row.id },
    });
    now += 1;
    const later = await submitter.submitIdempotent(input(key.id), idem);
    expect(later.replayed).toBe(false);
    expect(later.row.id).not.toBe(first.row.id);
    expect((await store.idempotency.find(key.id, 'daily'))?.request_id).toBe(later.row.id);
    // After a day, a different body under the same key is a new request too, not an error.
    now += IDEMPOTENCY_WINDOW_MS;
    const third = await submitter.submitIdempotent(input(key.id, 'Changed.'), {
      key: 'daily',
      requestHash: 'h2',
    });
    expect(third.replayed).toBe(false);
    // 'other' expired long ago and was deleted by the hourly prune in a submit's transaction.
    expect(await store.idempotency.find(key.id, 'other')).toBeUndefined();
    expect(await chargesOf(key.id)).toHaveLength(4);
  });

  it('records no key for a refused submit, so the same key works once it can be accepted', async () => {
    const { row: key } = await createApiKey(store, clock, { balanceMilli: 5_000 });
    const idem = { key: 'retry-me', requestHash: 'h' };
    await expect(submitter.submitIdempotent(input(key.id), idem)).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
    });
    expect(await store.idempotency.find(key.id, 'retry-me')).toBeUndefined();
    await store.keys.addBalance(key.id, 100_000);
    expect((await submitter.submitIdempotent(input(key.id), idem)).replayed).toBe(false);
  });

  it('is durable with the request: after reopening the database the key still replays', async () => {
    const { row: key } = await createApiKey(store, clock, { balanceMilli: 1_000_000 });
    const idem = { key: 'across-restart', requestHash: 'h' };
    const first = await submitter.submitIdempotent(input(key.id), idem);
    await submitter.close();
    store = await t.reopen();
    startSubmitter();
    expect(await submitter.submitIdempotent(input(key.id), idem)).toMatchObject({
      replayed: true,
      row: { id: first.row.id },
    });
    expect(await chargesOf(key.id)).toHaveLength(1);
  });

  it('keeps plain submits as they were: no key row, a new request each time', async () => {
    const { row: key } = await createApiKey(store, clock, { balanceMilli: 1_000_000 });
    const a = await submitter.submit(input(key.id));
    const b = await submitter.submitIdempotent(input(key.id), undefined);
    expect(b.replayed).toBe(false);
    expect(b.row.id).not.toBe(a.id);
    expect(await requestsOf(key.id)).toBe(2);
  });
});
