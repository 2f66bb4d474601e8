/**
 * Wrong keys never hold up a valid one, also on the valid key's first request after a restart
 * (issue 36, point 3): the real server on the run's database (a SQLite file in the data folder,
 * or PostgreSQL), real HTTP on 127.0.0.1, a guesser that keeps failing from the same address
 * before and after the server restarts on the same data. The throttle's waits run on a
 * scheduler the test releases, so a check that entered the wait could not be answered: a 200
 * while the guesser's checks are still parked shows that the valid key never waited.
 */

import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiKey, ensureApiKey, keyPrefixHash, revokeApiKey } from '../../../electron/core/jobs/keys';
import { systemClock } from '../../../electron/core/platform/clock';
import { olderVersionKey } from '../../fixtures/older-version-key';
import { eventually, fetchUrl, startTestCore, testData, type TestCore, type TestData } from './helpers';
import type { HttpResult } from './http';
import { manualTimers } from './manual-timers';

let data: TestData | undefined;
let server: TestCore | undefined;
afterEach(async () => {
  await server?.close();
  await data?.drop();
  server = data = undefined;
});

/** The server on `data` with its throttle's waits held by `timers`. */
const start = (timers: ReturnType<typeof manualTimers>) =>
  startTestCore({ poolSize: 1, authThrottle: { schedule: timers.schedule } }, data);

const usage = (key: string): Promise<HttpResult> =>
  fetchUrl(`${server!.core.url}/api/v1/usage`, 'GET', { headers: { authorization: `Bearer ${key}` } });

/** A guesser on 127.0.0.1: a new wrong key each try, every answer kept. */
function guesser() {
  const calls: Promise<HttpResult>[] = [];
  const statuses: number[] = [];
  return {
    calls,
    statuses,
    /**
     * Guesses one at a time, each until it is answered or parked, until one is refused unchecked
     * (429): the client's unknown bucket is then full.
     */
    async saturate(timers: ReturnType<typeof manualTimers>) {
      for (let i = 0; i < 50; i++) {
        const parked = timers.parked.length;
        let status: number | undefined;
        const call = usage(`nsk_${randomBytes(32).toString('base64url')}`);
        calls.push(call);
        void call.then((answer) => statuses.push((status = answer.status)));
        await eventually(() => (status !== undefined || timers.parked.length > parked ? true : undefined));
        if (status === 429) return;
      }
      throw new Error('the guesser was never refused');
    },
  };
}

describe('a valid key after a restart, while a guesser fails from the same address', () => {
  it('is answered at once on its first request: never waits, never gets a 429', async () => {
    data = await testData();
    let timers = manualTimers();
    server = await start(timers);
    // Keys made before the restart and never used: generated, and chosen by hand (serve --api-key).
    const generated = (await createApiKey(server.core.store, systemClock)).key;
    const chosen = 'a-key-chosen-by-hand-0123456789abcdef';
    await ensureApiKey(server.core.store, systemClock, chosen);
    // A key an older version made (no prefix hash) that passes once before the restart.
    const old = await olderVersionKey(server.core.store);
    expect((await usage(old.key)).status).toBe(200);
    // A key revoked before the restart (as `keys revoke` does, not through this server).
    const { key: revoked, row: revokedRow } = await createApiKey(server.core.store, systemClock);
    await revokeApiKey(server.core.store, systemClock, revokedRow.id);

    const guesses = guesser();
    await guesses.saturate(timers);
    // 5 free failures, 4 checks waiting, then refused unchecked.
    expect(guesses.statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(timers.parked).toHaveLength(4);

    // Restart on the same data; the waiting guesses are let go on close.
    await server.close();
    server = undefined;
    timers = manualTimers();
    server = await start(timers);
    await guesses.saturate(timers);
    expect(guesses.statuses.filter((s) => s === 429)).toHaveLength(2);
    expect(timers.parked).toHaveLength(4);

    // Every valid key's first request since the restart: 200, nothing more parked.
    for (const key of [generated, chosen, old.key]) {
      const answer = await usage(key);
      expect(answer.status, answer.text).toBe(200);
      expect(timers.parked).toHaveLength(4);
    }
    // The guesser is still refused: the valid keys freed nothing for it.
    expect((await usage(`nsk_${randomBytes(32).toString('base64url')}`)).status).toBe(429);
    // A revoked key's prefix is not known: it counts with the guesses (refused unchecked).
    expect((await usage(revoked)).status).toBe(429);
    expect(timers.parked).toHaveLength(4);

    timers.releaseAll();
    for (const status of (await Promise.all(guesses.calls)).map((a) => a.status))
      expect(status).not.toBe(200);
  }, 60_000);

  it('stores the prefix hash of every key made, and of an older key at its first success', async () => {
    data = await testData();
    server = await start(manualTimers());
    const store = server.core.store;
    const made = await createApiKey(store, systemClock);
    expect(made.row.prefix_hash).toBe(keyPrefixHash(made.key));
    expect((await store.keys.findById(made.row.id))?.prefix_hash).toBe(keyPrefixHash(made.key));
    const old = await olderVersionKey(store);
    expect(await store.keys.livePrefixHashes([keyPrefixHash(old.key)])).toEqual([]);
    expect((await usage(old.key)).status).toBe(200);
    expect(await store.keys.livePrefixHashes([keyPrefixHash(old.key), keyPrefixHash(made.key)])).toEqual(
      expect.arrayContaining([keyPrefixHash(old.key), keyPrefixHash(made.key)]),
    );
    // `serve --api-key` with a key an older version made stores its hash at start.
    const older = await olderVersionKey(store);
    expect((await ensureApiKey(store, systemClock, older.key)).row.prefix_hash).toBe(
      keyPrefixHash(older.key),
    );
    // Revoked: no longer a live key's prefix.
    await revokeApiKey(store, systemClock, made.row.id);
    expect(await store.keys.livePrefixHashes([keyPrefixHash(made.key)])).toEqual([]);
  });
});
