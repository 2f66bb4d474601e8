import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CustomVoiceRow } from '../../../electron/core/store';
import { openTestStore, type TestStore } from '../../fixtures/test-store';

const row = (
  code: string,
  at: string,
  definition = '{"voice_code":"vi_female_thuytrang_mb"}',
): CustomVoiceRow => ({
  code,
  name: `Voice ${code} — Giọng đọc`,
  definition,
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
    expect(await repo.count()).toBe(2);
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
      created_at: '2026-01-02T00:00:00.000Z',
      updated_at: '2026-02-01T00:00:00.000Z',
    });
    expect(await repo.replace({ code: 'nobody', name: 'x', definition: '{}', updated_at: 'x' })).toBe(false);

    expect(await repo.delete('narrator')).toBe(true);
    expect(await repo.delete('narrator')).toBe(false);
    expect((await repo.list()).map((r) => r.code)).toEqual(['aunt-lan']);
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
