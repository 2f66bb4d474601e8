/**
 * Guessing credentials costs time, for the guesser alone: past its free failures, every
 * credential a client presents that does not begin like one in use (its unknown bucket) waits
 * before it is checked, and only a few of those wait at once; a key in use, or the sign-in
 * token, from the same client is checked at once. The waits run on a scheduler the test
 * releases, so nothing here measures wall time: the tests count which answers exist before and
 * after a release.
 */

import { setImmediate as tick, setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { hashKey, keyPrefixHash, revokeApiKey } from '../../../electron/core/jobs/keys';
import { systemClock } from '../../../electron/core/platform/clock';
import { createAuthThrottle } from '../../../electron/core/server/auth-throttle';
import { olderVersionKey } from '../../fixtures/older-version-key';
import type { HttpResult } from './http';
import { buildTestApp } from './inject';
import { manualTimers } from './manual-timers';

const LOGIN_TOKEN = 'b'.repeat(48);

/**
 * Lets pending work run until `done` holds: turns of the event loop, then short sleeps (the
 * throttle may ask the database, which answers over a socket on PostgreSQL); fails after 10 s.
 */
async function until(done: () => boolean): Promise<void> {
  const started = Date.now();
  for (let i = 0; !done() && Date.now() - started < 10_000; i++) await (i < 2000 ? tick() : sleep(1));
  expect(done()).toBe(true);
}

/** A call whose answer, once there, is in `answer`. */
function tracked(call: Promise<HttpResult>) {
  const state: { answer?: HttpResult; promise: Promise<HttpResult> } = { promise: call };
  void call.then((answer) => (state.answer = answer));
  return state;
}

describe('the throttle', () => {
  it('checks the free failures at once, then makes every check wait, doubling up to the cap', async () => {
    const timers = manualTimers();
    const throttle = createAuthThrottle({ schedule: timers.schedule });
    let checks = 0;
    const wrong = () => throttle.guard('127.0.0.1', () => void checks++);
    for (let i = 0; i < 5; i++) await wrong();
    expect(checks).toBe(5);
    expect(timers.parked).toEqual([]);

    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      const next = wrong();
      await until(() => timers.parked.length === 1);
      waits.push(timers.parked[0]!.ms);
      // Not checked before its wait is over.
      expect(checks).toBe(5 + i);
      timers.releaseAll();
      await next;
      expect(checks).toBe(6 + i);
    }
    expect(waits).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);

    // A right key from the same client waits just as long before it is checked.
    let answered = false;
    const right = throttle
      .guard('127.0.0.1', () => 'key')
      .then((value) => {
        answered = true;
        return value;
      });
    await until(() => timers.parked.length === 1);
    expect(timers.parked[0]!.ms).toBe(5000);
    expect(answered).toBe(false);
    timers.releaseAll();
    expect(await right).toBe('key');
    // A success is not counted and resets nothing (11 failures are enough to reach the cap).
    expect(throttle.failures('127.0.0.1')).toBe(11);
    throttle.close();
  });

  it('buckets by the presented prefix: a guesser varying it is slowed, a key in use never waits', async () => {
    const timers = manualTimers();
    const throttle = createAuthThrottle({ schedule: timers.schedule, freeFailures: 2 });
    const valid = `nsk_${'v'.repeat(43)}`;
    // The app's key passed once: its prefix is known from now on.
    expect(await throttle.guard('127.0.0.1', () => 'key', valid)).toBe('key');
    // A guesser on the same address, a different prefix every try (all begin with nsk_).
    const guess = (i: number) => `nsk_${String(i).padStart(12, 'g')}${'x'.repeat(31)}`;
    for (let i = 0; i < 2; i++) await throttle.guard('127.0.0.1', () => undefined, guess(i));
    const waiting = Array.from({ length: 4 }, (_, i) =>
      throttle.guard('127.0.0.2', () => undefined, guess(10 + i)),
    );
    await until(() => timers.parked.length === 4);
    // Its fifth is refused unchecked: the varied prefixes all count in one bucket.
    await expect(throttle.guard('::1', () => 'x', guess(20))).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    });
    expect(throttle.failures('127.0.0.1', guess(99))).toBe(2);
    // Meanwhile the key in use, from the same (loopback) client, is checked at once, every time.
    for (let i = 0; i < 10; i++) expect(await throttle.guard('127.0.0.3', () => 'key', valid)).toBe('key');
    expect(timers.parked).toHaveLength(4);
    expect(throttle.failures('127.0.0.1', valid)).toBe(0);
    // A wrong key that begins like the right one counts in the right one's bucket, not the guesser's.
    const sameStart = `${valid.slice(0, 16)}${'w'.repeat(31)}`;
    await throttle.guard('127.0.0.1', () => undefined, sameStart);
    expect(throttle.failures('127.0.0.1', valid)).toBe(1);
    // Another machine's guesses are its own.
    expect(throttle.failures('10.0.0.7', guess(1))).toBe(0);
    // A credential remembered (the sign-in token) has its own bucket before it ever passed.
    const token = 'b'.repeat(48);
    throttle.remember(token);
    expect(await throttle.guard('127.0.0.1', () => 'session', token)).toBe('session');
    timers.releaseAll();
    await Promise.all(waiting);
    throttle.close();
  });

  it('lets a busy app check many keys at once, but not a crowd of guesses before its count is high', async () => {
    const timers = manualTimers();
    const throttle = createAuthThrottle({ maxChecking: 3, schedule: timers.schedule });
    // Checks that end when the test says (a lookup still under way).
    const gates: (() => void)[] = [];
    const slowCheck = (result: string | undefined) => () =>
      new Promise<string | undefined>((resolve) => gates.push(() => resolve(result)));
    // One failure first: a mistyped key does not slow a busy app's checks…
    await throttle.guard('127.0.0.1', () => undefined);
    const busy = Array.from({ length: 3 }, () => throttle.guard('127.0.0.1', slowCheck('key')));
    await until(() => gates.length === 3);
    expect(timers.parked).toEqual([]);
    // …but a fourth under way at the same moment (a crowd of guesses) waits its turn.
    const crowd = throttle.guard('127.0.0.1', slowCheck(undefined));
    await until(() => timers.parked.length === 1);
    expect(timers.parked[0]!.ms).toBe(250);
    for (const open of gates.splice(0)) open();
    timers.releaseAll();
    await until(() => gates.length === 1);
    gates.pop()!();
    expect(await Promise.all([...busy, crowd])).toEqual(['key', 'key', 'key', undefined]);
    expect(throttle.failures('127.0.0.1')).toBe(2);
    throttle.close();
  });

  it('lets 4 checks of a client wait at once; beyond that 429 at once, the credential unchecked', async () => {
    const timers = manualTimers();
    const throttle = createAuthThrottle({ freeFailures: 0, schedule: timers.schedule });
    let checks = 0;
    const waiting = Array.from({ length: 4 }, () => throttle.guard('127.0.0.1', () => void checks++));
    await until(() => timers.parked.length === 4);
    const refused = await throttle.guard('127.0.0.1', () => 'right key').catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'TOO_MANY_REQUESTS', details: { retry_after_s: 1 } });
    expect(checks).toBe(0);
    // Every loopback address is the same client (any local program can send from 127.0.0.2).
    for (const other of ['127.0.0.2', '127.1.2.3', '::1', '::ffff:127.0.0.9'])
      await expect(throttle.guard(other, () => 'x')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    // Another machine is another client: its check waits its own turn rather than being refused.
    const elsewhere = throttle.guard('10.0.0.2', () => 'x');
    await until(() => timers.parked.length === 5);
    timers.releaseAll();
    await Promise.all(waiting);
    expect(await elsewhere).toBe('x');
    expect(checks).toBe(4);
    expect(throttle.pending).toBe(0);
    throttle.close();
  });

  it('bounds the waiting checks over all clients', async () => {
    const timers = manualTimers();
    const throttle = createAuthThrottle({ freeFailures: 0, maxPending: 3, schedule: timers.schedule });
    const waiting = ['10.0.0.1', '10.0.0.2', '10.0.0.3'].map((a) => throttle.guard(a, () => undefined));
    await until(() => timers.parked.length === 3);
    await expect(throttle.guard('10.0.0.4', () => 'x')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    // Close lets every waiting check go at once (server shutdown), and waits no more.
    throttle.close();
    await Promise.all(waiting);
    await expect(throttle.guard('10.0.0.4', () => 'x')).resolves.toBe('x');
  });

  it('asks the store for a prefix it does not hold: one query at a time, those asked meanwhile in one batch', async () => {
    const timers = manualTimers();
    const valid = `nsk_${'v'.repeat(43)}`;
    const live = new Set([keyPrefixHash(valid)]);
    const asked: string[][] = [];
    const answers: (() => void)[] = [];
    let failing = false;
    const throttle = createAuthThrottle({ freeFailures: 2, schedule: timers.schedule }, (hashes) => {
      asked.push([...hashes]);
      return new Promise((resolve, reject) =>
        answers.push(() =>
          failing ? reject(new Error('database down')) : resolve(hashes.filter((h) => live.has(h))),
        ),
      );
    });
    const guess = (i: number) => `nsk_${String(i).padStart(8, 'g')}${'x'.repeat(35)}`;
    const checkOf = (credential: string) => () => (credential === valid ? 'key' : undefined);
    const first = throttle.guard('127.0.0.1', checkOf(valid), valid);
    const rest = [...Array.from({ length: 8 }, (_, i) => guess(i)), valid].map((c) =>
      throttle.guard('127.0.0.1', checkOf(c), c).catch((error: unknown) => error),
    );
    await until(() => answers.length === 1);
    expect(asked).toEqual([[keyPrefixHash(valid)]]);
    answers.shift()!();
    expect(await first).toBe('key');
    // The 9 asked while the first query ran: one query.
    await until(() => answers.length === 1);
    expect(asked[1]).toHaveLength(9);
    answers.shift()!();
    // The key has a bucket of its own: checked at once. The guesses share the client's unknown
    // one, where a check under way counts as a failure: though all 8 arrived at once, its 2 free
    // failures were checked, 4 wait and 2 were refused unchecked.
    expect(await rest[8]).toBe('key');
    await until(() => timers.parked.length === 4);
    expect(throttle.failures('127.0.0.1', guess(99))).toBe(2);
    expect(throttle.failures('127.0.0.1', valid)).toBe(0);
    // Held from then on: not asked again.
    expect(await throttle.guard('127.0.0.1', checkOf(valid), valid)).toBe('key');
    expect(asked).toHaveLength(2);
    // A store that cannot answer makes a prefix unknown (the check that follows meets it too).
    failing = true;
    const other = `nsk_${'o'.repeat(43)}`;
    const unanswered = throttle.guard('10.0.0.9', () => undefined, other);
    await until(() => answers.length === 1);
    answers.shift()!();
    expect(await unanswered).toBeUndefined();
    expect(throttle.failures('10.0.0.9')).toBe(1);
    timers.releaseAll();
    const outcomes = await Promise.all(rest);
    expect(
      outcomes.filter((o) => (o as { code?: string } | undefined)?.code === 'TOO_MANY_REQUESTS'),
    ).toHaveLength(2);
    throttle.close();
  });

  it('keeps its count on the injected clock and bounds what it remembers', async () => {
    let now = 1_000_000;
    const timers = manualTimers();
    const throttle = createAuthThrottle({
      clock: { now: () => now },
      schedule: timers.schedule,
      freeFailures: 2,
      baseDelayMs: 1,
      maxDelayMs: 8,
      windowMs: 10_000,
      maxAddresses: 2,
    });
    const fail = async (address: string) => {
      const done = throttle.guard(address, () => undefined);
      await until(() => timers.parked.length > 0 || throttle.pending === 0);
      timers.releaseAll();
      await done;
    };
    for (let i = 0; i < 20; i++) await fail('10.0.0.1');
    // 2 free + doublings 1→8 ms (3) + 1: older failures cannot change the wait, so are not kept.
    expect(throttle.failures('10.0.0.1')).toBe(6);
    now += 9_999;
    expect(throttle.failures('10.0.0.1')).toBe(6);
    now += 2;
    // A mistyped key is back to full speed once its failures leave the window.
    expect(throttle.failures('10.0.0.1')).toBe(0);
    await fail('10.0.0.1');
    await fail('10.0.0.2');
    await fail('10.0.0.3');
    expect(throttle.failures('10.0.0.1')).toBe(0);
    expect(throttle.failures('10.0.0.3')).toBe(1);
    throttle.close();
  });
});

describe('guessing keys over HTTP costs time', () => {
  const wrong = (i: number) => ({ authorization: `Bearer nsk_${String(i).padStart(43, 'x')}` });

  it('past the free guesses, a flood gets 4 waiting checks and 429s that say nothing', async () => {
    const timers = manualTimers();
    const s = await buildTestApp({ loginToken: LOGIN_TOKEN, authThrottle: { schedule: timers.schedule } });
    try {
      // The free guesses, answered at once…
      for (let i = 0; i < 5; i++)
        expect((await s.call('GET', '/api/v1/usage', { key: null, headers: wrong(100 + i) })).status).toBe(
          401,
        );
      // …then the attack: 40 different guesses at once, as fast as the client can send them.
      const guesses = Array.from({ length: 40 }, (_, i) =>
        tracked(s.call('GET', '/api/v1/usage', { key: null, headers: wrong(i) })),
      );
      await until(() => guesses.filter((g) => g.answer).length === 36);
      const answered = guesses.flatMap((g) => (g.answer ? [g.answer] : []));
      // None was checked: 4 wait for theirs, 36 were refused unchecked.
      const refused = answered.filter((a) => a.status === 429);
      expect(refused).toHaveLength(36);
      expect(refused[0]!.json).toMatchObject({ status: 0, error_code: 'TOO_MANY_REQUESTS' });
      expect(refused[0]!.headers['retry-after']).toBe('1');
      expect(timers.parked.map((p) => p.ms)).toEqual([250, 250, 250, 250]);

      // A key made while the guesser fails, never checked before, is known from its first
      // request (the store holds its prefix's hash): answered at once, nothing more waiting.
      const fresh = await s.newKey();
      expect((await s.call('GET', '/api/v1/usage', { key: fresh })).status).toBe(200);
      expect(timers.parked).toHaveLength(4);

      // A key an older version made (no prefix hash stored) is not told apart from a guess before
      // its first success: refused unchecked like one while the waiting checks fill the
      // client's unknown turns…
      const old = await olderVersionKey(s.store);
      expect((await s.call('GET', '/api/v1/usage', { key: old.key })).status).toBe(429);
      // …and once there is room, it waits its turn like a wrong one, then passes.
      timers.releaseAll();
      for (const g of guesses) expect((await g.promise).status).not.toBe(200);
      const right = tracked(s.call('GET', '/api/v1/usage', { key: old.key }));
      const guess = tracked(s.call('GET', '/api/v1/usage', { key: null, headers: wrong(99) }));
      await until(() => timers.parked.length === 2);
      expect(timers.parked.map((p) => p.ms)).toEqual([4000, 4000]);
      expect(right.answer).toBeUndefined();
      expect(guess.answer).toBeUndefined();
      timers.releaseAll();
      expect((await right.promise).status).toBe(200);
      expect((await guess.promise).status).toBe(401);
      // That success stored its prefix's hash: it waited once, ever.
      expect((await s.store.keys.findById(old.id))?.prefix_hash).toBe(keyPrefixHash(old.key));
      // From then on it has its own turn: answered at once while the guesses wait and are refused.
      const more = Array.from({ length: 8 }, (_, i) =>
        tracked(s.call('GET', '/api/v1/usage', { key: null, headers: wrong(200 + i) })),
      );
      await until(() => more.filter((g) => g.answer).length === 4);
      expect((await s.call('GET', '/api/v1/usage', { key: old.key })).status).toBe(200);
      expect((await s.call('GET', '/api/v1/usage', { key: fresh })).status).toBe(200);
      timers.releaseAll();
      await Promise.all(more.map((g) => g.promise));

      // OpenAI's route answers the refusal in its own shape.
      const flood = Array.from({ length: 5 }, () =>
        tracked(
          s.call('POST', '/v1/audio/speech', {
            key: null,
            headers: wrong(7),
            body: { input: 'x', voice: 'nova' },
          }),
        ),
      );
      await until(() => flood.filter((g) => g.answer).length === 1);
      const openai = flood.find((g) => g.answer)!.answer!;
      expect(openai.status).toBe(429);
      expect(openai.json.error).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
      timers.releaseAll();
      await Promise.all(flood.map((g) => g.promise));

      // A missing key is not a guess: refused at once, not counted, never waiting.
      const before = timers.parked.length;
      expect((await s.call('GET', '/api/v1/usage', { key: null })).status).toBe(401);
      expect(timers.parked.length).toBe(before);
    } finally {
      await s.close();
    }
  });

  it('stops knowing a revoked key: revoked in the studio at once, revoked elsewhere after its first failure', async () => {
    const timers = manualTimers();
    const s = await buildTestApp({
      loginToken: LOGIN_TOKEN,
      authThrottle: { freeFailures: 2, schedule: timers.schedule },
    });
    try {
      const session = await s.signIn();
      const idOf = async (key: string) => (await s.store.keys.findByHash(hashKey(key)))!.id;
      const inStudio = await s.newKey();
      const elsewhere = await s.newKey();
      for (const key of [inStudio, elsewhere])
        expect((await s.call('GET', '/api/v1/usage', { key })).status).toBe(200);
      // A guesser fills the client's unknown bucket: 2 free failures, then 4 checks waiting.
      for (let i = 0; i < 2; i++)
        expect((await s.call('GET', '/api/v1/usage', { key: null, headers: wrong(i) })).status).toBe(401);
      const waiting = Array.from({ length: 4 }, (_, i) =>
        tracked(s.call('GET', '/api/v1/usage', { key: null, headers: wrong(10 + i) })),
      );
      await until(() => timers.parked.length === 4);
      // Revoked in the studio: its next request counts with the guesses (refused unchecked).
      const revoke = await s.call('POST', `/api/v1/keys/${await idOf(inStudio)}/revoke`, {
        key: null,
        headers: session.headers,
      });
      expect(revoke.status, revoke.text).toBe(200);
      expect((await s.call('GET', '/api/v1/usage', { key: inStudio })).status).toBe(429);
      // Revoked elsewhere (the command line, another instance on a shared database): its first
      // failure here is in its own bucket, and from then on it counts with the guesses.
      await revokeApiKey(s.store, systemClock, await idOf(elsewhere));
      expect((await s.call('GET', '/api/v1/usage', { key: elsewhere })).status).toBe(401);
      expect((await s.call('GET', '/api/v1/usage', { key: elsewhere })).status).toBe(429);
      expect(timers.parked).toHaveLength(4);
      timers.releaseAll();
      for (const g of waiting) expect((await g.promise).status).toBe(401);
    } finally {
      await s.close();
    }
  });

  it('counts wrong studio sign-in tokens with the guessed keys; the right token never waits', async () => {
    const timers = manualTimers();
    const s = await buildTestApp({
      loginToken: LOGIN_TOKEN,
      authThrottle: { freeFailures: 2, schedule: timers.schedule },
    });
    try {
      const signIn = (token: string) =>
        tracked(s.call('POST', '/api/v1/session/sign-in', { key: null, body: { token } }));
      for (let i = 0; i < 2; i++) expect((await signIn('nope').promise).status).toBe(401);
      // Sign-in failures and key failures share the client's unknown bucket…
      const key = tracked(s.call('GET', '/api/v1/usage', { key: null, headers: wrong(1) }));
      await until(() => timers.parked.length === 1);
      expect(timers.parked[0]!.ms).toBe(250);
      const wrongToken = signIn('c'.repeat(48));
      await until(() => timers.parked.length === 2);
      // …while the token of the sign-in address is known: checked at once.
      expect((await signIn(LOGIN_TOKEN).promise).status).toBe(200);
      expect(timers.parked).toHaveLength(2);
      timers.releaseAll();
      expect((await key.promise).status).toBe(401);
      expect((await wrongToken.promise).status).toBe(401);
    } finally {
      await s.close();
    }
  });

  it('keyless reads of the public OpenAI lists are never counted, and answer at once while throttled', async () => {
    const timers = manualTimers();
    const s = await buildTestApp({ authThrottle: { freeFailures: 2, schedule: timers.schedule } });
    const lists = ['/v1/models', '/v1/models/tts-1', '/v1/audio/models', '/v1/audio/voices'];
    try {
      // Open WebUI asks without a key, as often as its settings page is opened.
      for (let i = 0; i < 10; i++)
        for (const path of lists) expect((await s.call('GET', path, { key: null })).status).toBe(200);
      // None counted: the client's free failures are all still there.
      for (let i = 0; i < 2; i++)
        expect((await s.call('GET', '/api/v1/usage', { key: null, headers: wrong(i) })).status).toBe(401);
      expect(timers.parked).toEqual([]);
      // Past them, a guess at a list waits its turn like any guess…
      const guess = tracked(s.call('GET', '/v1/models', { key: null, headers: wrong(3) }));
      await until(() => timers.parked.length === 1);
      // …while the keyless reads still answer at once, and add no wait.
      for (const path of lists) expect((await s.call('GET', path, { key: null })).status).toBe(200);
      expect(timers.parked).toHaveLength(1);
      timers.releaseAll();
      expect((await guess.promise).status).toBe(401);
    } finally {
      await s.close();
    }
  });

  it('does not hold up shutdown: waiting checks go on at once on close', async () => {
    const timers = manualTimers();
    const s = await buildTestApp({ authThrottle: { freeFailures: 0, schedule: timers.schedule } });
    const waiting = tracked(s.call('GET', '/api/v1/usage', { key: null, headers: wrong(1) }));
    await until(() => timers.parked.length === 1);
    await s.close();
    expect((await waiting.promise).status).toBe(401);
  });
});
