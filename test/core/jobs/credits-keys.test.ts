import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../electron/shared/errors';
import { findVoice } from '../../../electron/shared/voices';
import { systemClock } from '../../../electron/core/platform/clock';
import { costMilli, DEFAULT_BALANCE_MILLI } from '../../../electron/shared/pricing';
import {
  authenticate,
  createApiKey,
  ensureApiKey,
  hashKey,
  revokeApiKey,
} from '../../../electron/core/jobs/keys';
import type { Store } from '../../../electron/core/store';
import { openReopenableTestStore, type ReopenableTestStore } from '../../fixtures/reopenable-store';
import { onPostgres } from '../../fixtures/test-store';

describe('costMilli', () => {
  const premium = findVoice('vi_female_thuytrang_mb')!;
  const cheap = findVoice('en_male_echo_default')!;

  it('charges characters × price / 1000 credits, exactly, in milli-credits', () => {
    expect(costMilli(1000, premium, 'std-v1.6')).toBe(1_000_000); // 1000 credits
    expect(costMilli(1, premium, 'std-v1.6')).toBe(1000); // 1 credit
    expect(costMilli(7, cheap, 'std-v1.6')).toBe(700); // 0.7 credits
    expect(costMilli(0, premium, 'std-v1')).toBe(0);
  });

  it('halves the price for std-v1.5-turbo on standard voices only', () => {
    expect(premium.standard).toBe(true);
    expect(cheap.standard).toBe(false);
    expect(costMilli(3, premium, 'std-v1.5-turbo')).toBe(1500);
    expect(costMilli(3, cheap, 'std-v1.5-turbo')).toBe(300);
    expect(costMilli(3, premium, 'std-v1.5')).toBe(3000);
  });
});

describe('API keys', () => {
  let t: ReopenableTestStore;
  let store: Store;
  beforeEach(async () => {
    t = await openReopenableTestStore();
    store = t.store;
  });
  afterEach(async () => {
    await t.close();
  });

  it('stores only the sha256 of a new key, with the default balance and a grant in the ledger', async () => {
    const { key, row } = await createApiKey(store, systemClock, { name: 'app' });
    expect(key).toMatch(/^nsk_[A-Za-z0-9_-]{43}$/);
    expect(row.key_hash).toBe(hashKey(key));
    expect(row.balance_milli).toBe(DEFAULT_BALANCE_MILLI);
    expect(row.signing_secret).toMatch(/^whsec_/);
    await store.close();
    // The key text is nowhere in the database (SQLite: the file and its WAL; PostgreSQL: any row),
    // while its hash is.
    const contents = await t.contents();
    expect(contents.includes(row.key_hash)).toBe(true);
    expect(contents.includes(key)).toBe(false);
    store = await t.reopen();
    expect((await store.ledger.list(row.id, 10, 0)).rows).toMatchObject([
      { kind: 'grant', amount_milli: DEFAULT_BALANCE_MILLI },
    ]);
  });

  it('refuses keys shorter than 32 characters and keeps 4 characters of a key at most', async () => {
    // The attack: a short key (31 characters) is refused where keys are made…
    const short = 'k'.repeat(31);
    await expect(createApiKey(store, systemClock, { key: short })).rejects.toThrow(/32 to 256/);
    await expect(ensureApiKey(store, systemClock, short)).rejects.toThrow(/32 to 256/);
    // …and one an older release stored no longer authenticates.
    await store.keys.insert({
      id: 'key_short',
      name: 'old --api-key',
      key_hash: hashKey('eight-ch'),
      key_prefix: 'eigh',
      prefix_hash: null,
      signing_secret: 'whsec_x',
      balance_milli: 1000,
      queued: 0,
      created_at: '2025-01-01T00:00:00.000Z',
      revoked_at: null,
    });
    expect(await authenticate(store, 'eight-ch')).toBeUndefined();
    const chosen = await createApiKey(store, systemClock, { key: 'k'.repeat(32) });
    expect((await authenticate(store, 'k'.repeat(32)))?.id).toBe(chosen.row.id);
    // Generated keys are 47 characters; 4 of any key are kept to tell keys apart.
    const generated = await createApiKey(store, systemClock);
    expect(generated.key).toHaveLength(47);
    expect(generated.row.key_prefix).toBe(generated.key.slice(0, 4));
    expect(chosen.row.key_prefix).toBe('kkkk');
    for (const row of await store.keys.list()) expect(row.key_prefix.length).toBeLessThanOrEqual(4);
    // Generated keys share their prefix (nsk_): revoking by it needs one key alone to have it.
    await createApiKey(store, systemClock);
    await expect(revokeApiKey(store, systemClock, 'nsk_')).rejects.toThrow(/2 API keys begin with "nsk_"/);
    expect((await revokeApiKey(store, systemClock, 'kkkk')).id).toBe(chosen.row.id);
  });

  it('authenticates the key and stops at once when it is revoked', async () => {
    const { key, row } = await createApiKey(store, systemClock);
    expect((await authenticate(store, key))?.id).toBe(row.id);
    expect(await authenticate(store, `${key}x`)).toBeUndefined();
    await revokeApiKey(store, systemClock, row.id);
    expect(await authenticate(store, key)).toBeUndefined();
    await expect(revokeApiKey(store, systemClock, 'nope')).rejects.toThrow(AppError);
  });

  it('ensureApiKey creates a given key once and keeps its balance afterwards', async () => {
    const first = await ensureApiKey(store, systemClock, 'my-test-key-0123456789abcdef-long');
    expect(first.created).toBe(true);
    await store.keys.addBalance(first.row.id, -5);
    const second = await ensureApiKey(store, systemClock, 'my-test-key-0123456789abcdef-long');
    expect(second.created).toBe(false);
    expect(second.row.balance_milli).toBe(DEFAULT_BALANCE_MILLI - 5);
    await expect(ensureApiKey(store, systemClock, 'short')).rejects.toThrow(/32 to 256/);
  });

  it('ensureApiKey from several instances at once creates the key once', async () => {
    // Instances starting together with the same --api-key (on SQLite: concurrent calls of one).
    const stores = onPostgres ? [store, await t.openAnother(), await t.openAnother()] : [store, store, store];
    const results = await Promise.all(
      stores.map((s) => ensureApiKey(s, systemClock, 'shared-serve-key-0123456789abcdef')),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.row.id)).size).toBe(1);
    expect(
      (await store.keys.list()).filter((k) => k.key_hash === hashKey('shared-serve-key-0123456789abcdef')),
    ).toHaveLength(1);
    expect((await store.ledger.list(results[0]!.row.id, 10, 0)).total).toBe(1);
  });
});
