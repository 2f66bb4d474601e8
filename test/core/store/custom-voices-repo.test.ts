import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../../electron/core/jobs/keys';
import { systemClock } from '../../../electron/core/platform/clock';
import type { CustomVoiceRow } from '../../../electron/core/store';
import { openTestStore, type TestStore } from '../../fixtures/test-store';

const row = (
  code: string,
  at: string,
  definition = '{"voice_code":"vi_female_thuytrang_mb"}',
  owner_key_id: string | null = null,
): CustomVoiceRow => ({
  code,
  name: `Voice ${code} — Giọng đọc`,
  definition,
  owner_key_id,
  created_at: at,
  updated_at: at,
});

describe('custom voices repository (both databases)', () => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore();
  });
  afterEach(async () => {
    await t.close();
  });

  it('inserts, lists by code, gets, replaces and deletes; a taken code is refused', async () => {
    const repo = t.store.customVoices;
    expect(await repo.list()).toEqual([]);
    expect(await repo.insert(row('narrator', '2026-01-02T00:00:00.000Z'))).toBe(true);
    expect(await repo.insert(row('aunt-lan', '2026-01-01T00:00:00.000Z'))).toBe(true);
    expect(await repo.insert(row('narrator', '2026-01-03T00:00:00.000Z', '{"x":1}'))).toBe(false);
    expect((await repo.list()).map((r) => r.code)).toEqual(['aunt-lan', 'narrator']);
    expect(await repo.count(null)).toBe(2);
    expect(await repo.get('narrator')).toEqual(row('narrator', '2026-01-02T00:00:00.000Z'));
    expect(await repo.get('nobody')).toBeUndefined();

    expect(
      await repo.replace({
        code: 'narrator',
        name: 'Renamed',
        definition: '{"y":2}',
        updated_at: '2026-02-01T00:00:00.000Z',
      }),
    ).toBe(true);
    expect(await repo.get('narrator')).toEqual({
      code: 'narrator',
      name: 'Renamed',
      definition: '{"y":2}',
      owner_key_id: null,
      created_at: '2026-01-02T00:00:00.000Z',
      updated_at: '2026-02-01T00:00:00.000Z',
    });
    expect(await repo.replace({ code: 'nobody', name: 'x', definition: '{}', updated_at: 'x' })).toBe(false);

    expect(await repo.delete('narrator')).toBe(true);
    expect(await repo.delete('narrator')).toBe(false);
    expect((await repo.list()).map((r) => r.code)).toEqual(['aunt-lan']);
  });

  it("keeps owners apart: a key lists its own voices and the studio's, counts are per owner", async () => {
    const repo = t.store.customVoices;
    const [a, b] = [
      (await createApiKey(t.store, systemClock)).row.id,
      (await createApiKey(t.store, systemClock)).row.id,
    ];
    const at = '2026-01-01T00:00:00.000Z';
    expect(await repo.insert(row('house', at))).toBe(true);
    expect(await repo.insert(row('a-voice', at, undefined, a))).toBe(true);
    expect(await repo.insert(row('b-voice', at, undefined, b))).toBe(true);
    // One namespace of codes: another owner's code is taken.
    expect(await repo.insert(row('a-voice', at, undefined, b))).toBe(false);
    expect((await repo.list()).map((r) => r.code)).toEqual(['a-voice', 'b-voice', 'house']);
    expect((await repo.list(a)).map((r) => r.code)).toEqual(['a-voice', 'house']);
    expect((await repo.list(b)).map((r) => r.code)).toEqual(['b-voice', 'house']);
    expect((await repo.list(null)).map((r) => r.code)).toEqual(['house']);
    expect([await repo.count(null), await repo.count(a), await repo.count(b)]).toEqual([1, 1, 1]);
    expect((await repo.get('a-voice'))?.owner_key_id).toBe(a);
    // A replace keeps the owner.
    await repo.replace({ code: 'a-voice', name: 'x', definition: '{}', updated_at: at });
    expect((await repo.get('a-voice'))?.owner_key_id).toBe(a);
  });

  it('works inside a transaction, rolled back when it rejects', async () => {
    await expect(
      t.store.transaction(async (tx) => {
        await tx.customVoices.insert(row('inside', '2026-01-01T00:00:00.000Z'));
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await t.store.customVoices.get('inside')).toBeUndefined();
  });
});
