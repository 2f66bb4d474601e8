/**
 * Revoking the studio's own key (issue 43, point 6): the session ends, and the next sign-in makes
 * a new studio key that takes over the revoked one's remaining balance as ONE `transfer` ledger
 * entry (the old key left at 0, no fresh balance on top), round after round. Revoking any other
 * key moves nothing. Real HTTP on 127.0.0.1, on the run's database (SQLite file, or PostgreSQL
 * with `npm run test:postgres`).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyInfo, LedgerEntry, SessionInfo, Usage } from '../../../electron/shared/api';
import { DEFAULT_BALANCE_MILLI, MILLI_PER_CREDIT } from '../../../electron/shared/pricing';
import { signInStudio, type StudioSession } from '../../fixtures/studio-session';
import { startSignedInCore, type SignedInTestCore } from './helpers';

describe("revoking the studio's key", () => {
  let t: SignedInTestCore;
  let studio: StudioSession;

  beforeAll(async () => {
    t = await startSignedInCore();
    studio = t.studio;
  });
  afterAll(async () => {
    await t?.close();
  });

  const asStudio = async <T>(method: 'GET' | 'POST', path: string, body?: unknown) => {
    const answer = await t.call(method, path, {
      headers: studio.headers,
      key: null,
      ...(body !== undefined ? { body } : {}),
    });
    return { status: answer.status, result: (answer.json as { result: T } | undefined)?.result as T };
  };
  const session = async () => (await asStudio<SessionInfo>('GET', '/api/v1/session')).result.key;
  const keys = async () => (await asStudio<{ items: ApiKeyInfo[] }>('GET', '/api/v1/keys')).result.items;
  const key = async (id: string) => (await keys()).find((k) => k.id === id)!;
  const ledger = async (filter: string): Promise<LedgerEntry[]> =>
    (await asStudio<Usage>('GET', `/api/v1/usage?key=${filter}&page_size=100`)).result.ledger;
  const transfers = async () => (await ledger('all')).filter((e) => e.kind === 'transfer');
  const revoke = async (id: string) => {
    expect((await asStudio('POST', `/api/v1/keys/${id}/revoke`)).status).toBe(200);
  };
  /** Signs in with the newest sign-in address (the revoked key's session ended with it). */
  const signInAgain = async () => {
    expect((await asStudio('GET', '/api/v1/session')).status).toBe(401);
    studio = await signInStudio(t.core.loginUrl);
  };

  it('moves the remaining balance to the next studio key as one transfer, round after round', async () => {
    // The test core's first key (made like a `serve --api-key` key) is the studio's before it has
    // one of its own; revoked, it moves nothing, and the studio makes its own with a fresh balance.
    const first = await session();
    expect(first.studio).toBe(false);
    await revoke(first.id);
    await signInAgain();
    const own = await session();
    expect(own.id).not.toBe(first.id);
    expect(own.studio).toBe(true);
    expect(own.balance).toBe(DEFAULT_BALANCE_MILLI / MILLI_PER_CREDIT);
    expect((await key(first.id)).balance).toBe(first.balance);
    expect((await ledger(own.id)).map((e) => e.kind)).toEqual(['grant']);
    expect(await transfers()).toEqual([]);

    // A balance of its own (not the default): 7 credits added.
    expect((await asStudio('POST', `/api/v1/keys/${own.id}/credits`, { credits: 7 })).status).toBe(200);
    let previous = await key(own.id);
    expect(previous.balance).toBe(DEFAULT_BALANCE_MILLI / MILLI_PER_CREDIT + 7);

    for (let round = 1; round <= 2; round++) {
      await revoke(previous.id);
      await signInAgain();
      const next = await session();
      expect(next.id).not.toBe(previous.id);
      expect(next.studio).toBe(true);
      expect(next.balance).toBe(previous.balance);
      expect((await key(previous.id)).balance).toBe(0);
      expect((await key(previous.id)).revoked_at).not.toBeNull();
      // Exactly one entry for the move, on the new key, naming the old one.
      const moved = await ledger(next.id);
      expect(moved).toHaveLength(1);
      expect(moved[0]).toMatchObject({
        kind: 'transfer',
        amount: previous.balance,
        balance_after: previous.balance,
        key_id: next.id,
        from_key_id: previous.id,
      });
      expect(await transfers()).toHaveLength(round);
      // The usage of every live key together: no credits made out of the revocation.
      expect((await asStudio<Usage>('GET', '/api/v1/usage?key=all')).result.balance).toBe(next.balance);
      previous = next;
    }
  });

  it('moves nothing when another key is revoked', async () => {
    const before = await session();
    const made = await asStudio<{ info: ApiKeyInfo }>('POST', '/api/v1/keys', { name: 'an app' });
    expect(made.status).toBe(200);
    const other = await key(made.result.info.id);
    expect(other.studio).toBe(false);
    const entries = (await ledger('all')).length;
    await revoke(other.id);
    // The studio stays signed in with its own key and balance; the other key keeps its credits.
    const after = await session();
    expect(after).toMatchObject({ id: before.id, balance: before.balance });
    expect((await key(other.id)).balance).toBe(other.balance);
    expect((await ledger('all')).length).toBe(entries);
  });
});
