import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/core/platform/clock';
import { createApiKey, revokeApiKey } from '../../../electron/core/jobs/keys';
import {
  createSubmitter,
  newRequestId,
  type SubmitInput,
  type Submitter,
} from '../../../electron/core/jobs/submit';
import type { RequestRow, Store } from '../../../electron/core/store';
import { openReopenableTestStore, type ReopenableTestStore } from '../../fixtures/reopenable-store';
import { submitInput } from '../../fixtures/submit-input';
import { onPostgres } from '../../fixtures/test-store';

let t: ReopenableTestStore;
let store: Store;
let submitter: Submitter;
let accepted: RequestRow[];
/** The size of each batch the submitter committed (onAccepted is called once per batch). */
let batches: number[];

function input(keyId: string, characters = 10, voice = 'vi_female_thuytrang_mb'): SubmitInput {
  return submitInput(keyId, { text: 'x'.repeat(characters), voice_code: voice, audio_type: 'mp3' });
}

beforeEach(async () => {
  t = await openReopenableTestStore();
  store = t.store;
  accepted = [];
  batches = [];
  submitter = createSubmitter({
    store,
    clock: systemClock,
    maxQueuedPerKey: 50,
    onAccepted: (rows) => {
      accepted.push(...rows);
      batches.push(rows.length);
    },
  });
});
afterEach(async () => {
  await submitter.close();
  await t.close();
});

describe('request ids', () => {
  it('are 32 hex digits, the time in ms then 80 random bits, and sort by creation', () => {
    const at = Date.UTC(2026, 11, 1, 16, 40);
    const id = newRequestId(at);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(parseInt(id.slice(0, 12), 16)).toBe(at);
    // Random after the time: a million ids of one ms all differ (80 bits).
    const sameMs = new Set(Array.from({ length: 100_000 }, () => newRequestId(at).slice(12)));
    expect(sameMs.size).toBe(100_000);
    const later = [at + 1, at + 1000, at + 86_400_000, Date.UTC(2300, 0, 1)].map((ms) => newRequestId(ms));
    expect([...later].sort()).toEqual(later);
    expect(later.every((next) => next > id)).toBe(true);
  });
});

describe('submitter', () => {
  it('charges and inserts concurrent submits exactly, each with a ledger entry, durable before it resolves', async () => {
    const { row: key } = await createApiKey(store, systemClock, { balanceMilli: 1_000_000 });
    const rows = await Promise.all(
      Array.from({ length: 40 }, (_, i) => submitter.submit(input(key.id, i + 1))),
    );
    expect(new Set(rows.map((r) => r.id)).size).toBe(40);
    for (const r of rows) expect(r.id).toMatch(/^[0-9a-f]{32}$/);
    expect(accepted).toHaveLength(40);
    const total = rows.reduce((sum, r) => sum + r.cost_milli, 0);
    expect(total).toBe(((40 * 41) / 2) * 1000);
    // Reopen: everything acknowledged is on disk.
    await submitter.close();
    store = await t.reopen();
    expect(await store.keys.findById(key.id)).toMatchObject({ balance_milli: 1_000_000 - total, queued: 40 });
    const ledger = await store.ledger.list(key.id, 100, 0);
    expect(ledger.rows.filter((e) => e.kind === 'charge')).toHaveLength(40);
    expect(await store.requests.get(rows[7]!.id)).toMatchObject({
      status: 'new',
      characters: 8,
      cost_milli: 8000,
    });
    // Every charge is in the ledger with the balance it left, in order.
    const charges = ledger.rows.filter((e) => e.kind === 'charge').reverse();
    let balance = 1_000_000;
    for (const entry of charges) {
      balance += entry.amount_milli;
      expect(entry.balance_after_milli).toBe(balance);
    }
  });

  it('refuses with INSUFFICIENT_CREDITS when short, charging nothing, while others in the same batch go through', async () => {
    const { row: key } = await createApiKey(store, systemClock, { balanceMilli: 15_000 });
    const results = await Promise.allSettled([
      submitter.submit(input(key.id, 10)), // 10 000
      submitter.submit(input(key.id, 10)), // would need 10 000, only 5 000 left
      submitter.submit(input(key.id, 50, 'en_male_echo_default')), // 5 000
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect((await store.keys.findById(key.id))?.balance_milli).toBe(0);
    expect((await store.ledger.list(key.id, 10, 0)).rows.map((r) => r.kind)).toEqual([
      'charge',
      'charge',
      'grant',
    ]);
  });

  it('refuses with TOO_MANY_REQUESTS past the per-key queue limit, and with UNAUTHORIZED once revoked', async () => {
    const { row: key } = await createApiKey(store, systemClock);
    const results = await Promise.allSettled(
      Array.from({ length: 55 }, () => submitter.submit(input(key.id))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(50);
    expect(
      results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code),
    ).toEqual(Array(5).fill('TOO_MANY_REQUESTS'));
    const { row: other } = await createApiKey(store, systemClock);
    await revokeApiKey(store, systemClock, other.id);
    await expect(submitter.submit(input(other.id))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('two submitters (two instances on PostgreSQL) charging one key never overdraw it or lose a charge', async () => {
    const { row: key } = await createApiKey(store, systemClock, { balanceMilli: 25_000 });
    // On PostgreSQL a second instance with its own connections; SQLite has one process.
    const otherStore = onPostgres ? await t.openAnother() : store;
    const other = createSubmitter({
      store: otherStore,
      clock: systemClock,
      maxQueuedPerKey: 50,
      onAccepted: () => {},
    });
    try {
      // 1 character of a premium voice: 1 credit each; 40 tries for 25 credits.
      const results = await Promise.allSettled(
        Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? submitter : other).submit(input(key.id, 1))),
      );
      const fulfilled = results.filter((r) => r.status === 'fulfilled');
      expect(fulfilled).toHaveLength(25);
      for (const r of results)
        if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
      expect(await store.keys.findById(key.id)).toMatchObject({ balance_milli: 0, queued: 25 });
      const ledger = await store.ledger.list(key.id, 100, 0);
      expect(ledger.rows.filter((e) => e.kind === 'charge')).toHaveLength(25);
      expect(ledger.rows.map((e) => e.balance_after_milli).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 26 }, (_, i) => i * 1000),
      );
    } finally {
      await other.close();
    }
  });

  it('holds a batch for the submits of clients still connecting, one turn of the event loop at a time', async () => {
    const { row: key } = await createApiKey(store, systemClock, { balanceMilli: 1_000_000 });
    /** One submit per turn of the event loop for 10 turns, each after a client connected or not. */
    const submitPerTurn = async (connecting: boolean) => {
      const submits: Promise<RequestRow>[] = [];
      for (let turn = 0; turn < 10; turn++) {
        if (connecting) submitter.noteConnection();
        submits.push(submitter.submit(input(key.id)));
        await new Promise((resolve) => setImmediate(resolve));
      }
      return Promise.all(submits);
    };
    // As a server accepts them (one connection per turn), each client's submit comes a turn later.
    await submitPerTurn(true);
    expect(batches).toEqual([10]);
    // With no client connecting, a batch goes in the turn of its first submit.
    batches = [];
    await submitPerTurn(false);
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(10);
  });

  it('holds a batch for connecting clients at most a moment: a connection every turn does not stop it', async () => {
    const { row: key } = await createApiKey(store, systemClock, { balanceMilli: 1_000_000 });
    let done = false;
    const first = submitter.submit(input(key.id)).finally(() => (done = true));
    const started = Date.now();
    // Clients connect every turn for up to 5 s; the submit is answered long before.
    while (!done && Date.now() - started < 5000) {
      submitter.noteConnection();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(done).toBe(true);
    await first;
    expect(batches).toEqual([1]);
  });

  it('rejects with SHUTTING_DOWN after close', async () => {
    const { row: key } = await createApiKey(store, systemClock);
    await submitter.close();
    await expect(submitter.submit(input(key.id))).rejects.toMatchObject({ code: 'SHUTTING_DOWN' });
  });
});
