import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { openStore, type Store } from '../../../electron/core/store';

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
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keys-test-'));
    store = openStore({ path: join(dir, 'studio.db') });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores only the sha256 of a new key, with the default balance and a grant in the ledger', () => {
    const { key, row } = createApiKey(store, systemClock, { name: 'app' });
    expect(key).toMatch(/^nsk_[A-Za-z0-9_-]{43}$/);
    expect(row.key_hash).toBe(hashKey(key));
    expect(row.balance_milli).toBe(DEFAULT_BALANCE_MILLI);
    expect(row.signing_secret).toMatch(/^whsec_/);
    store.close();
    // The key text is nowhere in the database file (nor its WAL).
    const bytes = Buffer.concat([readFileSync(join(dir, 'studio.db'))]).toString('latin1');
    expect(bytes.includes(key)).toBe(false);
    store = openStore({ path: join(dir, 'studio.db') });
    expect(store.ledger.list(row.id, 10, 0).rows).toMatchObject([
      { kind: 'grant', amount_milli: DEFAULT_BALANCE_MILLI },
    ]);
  });

  it('authenticates the key and stops at once when it is revoked', () => {
    const { key, row } = createApiKey(store, systemClock);
    expect(authenticate(store, key)?.id).toBe(row.id);
    expect(authenticate(store, `${key}x`)).toBeUndefined();
    revokeApiKey(store, systemClock, row.id);
    expect(authenticate(store, key)).toBeUndefined();
    expect(() => revokeApiKey(store, systemClock, 'nope')).toThrow(AppError);
  });

  it('ensureApiKey creates a given key once and keeps its balance afterwards', () => {
    const first = ensureApiKey(store, systemClock, 'my-test-key-123');
    expect(first.created).toBe(true);
    store.keys.addBalance(first.row.id, -5);
    const second = ensureApiKey(store, systemClock, 'my-test-key-123');
    expect(second.created).toBe(false);
    expect(second.row.balance_milli).toBe(DEFAULT_BALANCE_MILLI - 5);
    expect(() => ensureApiKey(store, systemClock, 'short')).toThrow(/8 to 256/);
  });
});
