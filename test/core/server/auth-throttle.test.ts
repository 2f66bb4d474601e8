/**
 * Repeated failed authentication is slowed down (without slowing valid keys): bearer keys and
 * studio sign-in tokens, per caller address, through the app (`app.inject`, no engine).
 */

import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { createAuthThrottle, type AuthThrottleOptions } from '../../../electron/core/server/auth-throttle';
import { buildTestApp } from './inject';

const LOGIN_TOKEN = 'b'.repeat(48);
const NO_SUCH_ID = '0'.repeat(32);

describe('repeated failed authentication is slowed down', () => {
  const wrong = { authorization: `Bearer nsk_${'x'.repeat(43)}` };
  /** Milliseconds from sending to the whole answer. */
  async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
    const started = performance.now();
    const value = await work();
    return { value, ms: performance.now() - started };
  }
  /** An app with the slow-down configured for the test. */
  const throttled = (authThrottle: AuthThrottleOptions) =>
    buildTestApp({ loginToken: LOGIN_TOKEN, authThrottle });

  it('answers the first failures at once, then later and later up to the cap; a valid key is never held back', async () => {
    const s = await throttled({ freeFailures: 3, baseDelayMs: 300, maxDelayMs: 1200, windowMs: 60_000 });
    try {
      const fail = () => timed(() => s.call('GET', '/api/v1/usage', { key: null, headers: wrong }));
      const times: number[] = [];
      for (let i = 0; i < 7; i++) {
        const { value, ms } = await fail();
        expect(value.status).toBe(401);
        expect(value.json).toMatchObject({ status: 0, error_code: 'UNAUTHORIZED' });
        times.push(ms);
      }
      // Failures 4–7 wait 300, 600, 1200 and (capped) 1200 ms; timers never fire early.
      expect(times[3]).toBeGreaterThanOrEqual(270);
      expect(times[4]).toBeGreaterThanOrEqual(540);
      expect(times[5]).toBeGreaterThanOrEqual(1080);
      expect(times[6]).toBeGreaterThanOrEqual(1080);
      // The cap holds (generous bound: far below the next doubling's 2400 ms).
      expect(times[6]).toBeLessThan(2300);

      // Failing now costs 1200 ms, yet a valid key from the same address is answered at once, even
      // while failed answers are waiting.
      let failedAnswers = 0;
      const waiting = Array.from({ length: 3 }, () =>
        fail().then((r) => {
          failedAnswers++;
          return r;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      const valid = await timed(() => s.call('GET', '/api/v1/usage'));
      expect(valid.value.status).toBe(200);
      expect(valid.ms).toBeLessThan(600);
      expect(failedAnswers).toBe(0);
      for (const r of await Promise.all(waiting)) {
        expect(r.value.status).toBe(401);
        expect(r.ms).toBeGreaterThanOrEqual(1080);
      }
      // A missing key is not a guess: refused at once, not counted.
      const missing = await timed(() => s.call('GET', '/api/v1/usage', { key: null }));
      expect(missing.value.status).toBe(401);
      expect(missing.ms).toBeLessThan(600);

      // Failures are counted per address: 127.0.0.2 (also this machine) still has its free failures.
      const elsewhere = await timed(() =>
        s
          .call('GET', '/api/v1/usage', { key: null, headers: wrong, remoteAddress: '127.0.0.2' })
          .then((res) => res.status),
      );
      expect(elsewhere.value).toBe(401);
      expect(elsewhere.ms).toBeLessThan(600);
    } finally {
      await s.close();
    }
  });

  it('counts wrong studio sign-in tokens too, and never delays the right one', async () => {
    const s = await throttled({ freeFailures: 2, baseDelayMs: 800, maxDelayMs: 800 });
    try {
      const signIn = (token: string) =>
        timed(() => s.call('POST', '/api/v1/session/sign-in', { key: null, body: { token } }));
      for (let i = 0; i < 2; i++) expect((await signIn('nope')).value.status).toBe(401);
      const slowed = await signIn('nope');
      expect(slowed.value.status).toBe(401);
      expect(slowed.value.json).toMatchObject({ status: 0, error_code: 'UNAUTHORIZED' });
      expect(slowed.ms).toBeGreaterThanOrEqual(720);
      const right = await signIn(LOGIN_TOKEN);
      expect(right.value.status).toBe(200);
      expect(right.ms).toBeLessThan(400);
      // The sign-in failures and bearer-key failures share the address's count.
      const key = await timed(() => s.call('GET', '/api/v1/usage', { key: null, headers: wrong }));
      expect(key.value.status).toBe(401);
      expect(key.ms).toBeGreaterThanOrEqual(720);
    } finally {
      await s.close();
    }
  });

  it('answers 429 with Retry-After at once when too many failed answers are waiting; valid keys still pass', async () => {
    const s = await throttled({ freeFailures: 0, baseDelayMs: 1500, maxDelayMs: 1500, maxPending: 3 });
    try {
      const answeredAt: number[] = [];
      const started = performance.now();
      const parked = Array.from({ length: 3 }, () =>
        s.call('GET', '/api/v1/usage', { key: null, headers: wrong }).then((r) => {
          answeredAt.push(performance.now() - started);
          return r;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));

      const overflow = await Promise.all([
        s.call('GET', '/api/v1/tts', { key: null, headers: wrong }),
        s.call('POST', '/api/v1/tts', {
          key: null,
          headers: wrong,
          body: { input_text: 'x', voice_code: 'x' },
        }),
        s.call('GET', `/api/v1/tts/${NO_SUCH_ID}/callback-result`, { key: null, headers: wrong }),
      ]);
      for (const res of overflow) {
        expect(res.status, res.text).toBe(429);
        expect(res.json).toMatchObject({ status: 0, error_code: 'TOO_MANY_REQUESTS' });
        expect(res.headers['retry-after']).toBe('2');
      }
      const openai = await s.call('POST', '/v1/audio/speech', {
        key: null,
        headers: wrong,
        body: { input: 'x', voice: 'nova' },
      });
      expect(openai.status).toBe(429);
      expect(openai.json.error).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
      expect(openai.headers['retry-after']).toBe('2');
      const signIn = await s.call('POST', '/api/v1/session/sign-in', { key: null, body: { token: 'nope' } });
      expect(signIn.status).toBe(429);
      expect(signIn.json).toMatchObject({ status: 0, error_code: 'TOO_MANY_REQUESTS' });
      expect(signIn.headers['retry-after']).toBe('2');
      const valid = await s.call('GET', '/api/v1/usage');
      expect(valid.status).toBe(200);
      // All of the above were answered before any of the waiting failures.
      expect(answeredAt).toEqual([]);

      for (const res of await Promise.all(parked)) expect(res.status).toBe(401);
      for (const at of answeredAt) expect(at).toBeGreaterThanOrEqual(1350);
      // With nothing waiting any more, a failure is delayed again rather than refused with 429.
      const next = await timed(() => s.call('GET', '/api/v1/usage', { key: null, headers: wrong }));
      expect(next.value.status).toBe(401);
      expect(next.ms).toBeGreaterThanOrEqual(1350);
    } finally {
      await s.close();
    }
  });

  it('forgets failures once they leave the window, so a mistyped key recovers', async () => {
    const s = await throttled({ freeFailures: 1, baseDelayMs: 800, maxDelayMs: 800, windowMs: 1500 });
    try {
      const fail = () => timed(() => s.call('GET', '/api/v1/usage', { key: null, headers: wrong }));
      expect((await fail()).value.status).toBe(401);
      expect((await fail()).ms).toBeGreaterThanOrEqual(720);
      await new Promise((resolve) => setTimeout(resolve, 1600));
      const recovered = await fail();
      expect(recovered.value.status).toBe(401);
      expect(recovered.ms).toBeLessThan(400);
      // The count starts again from there (the throttle is still on).
      expect((await fail()).ms).toBeGreaterThanOrEqual(720);
    } finally {
      await s.close();
    }
  });

  it('does not hold up shutdown: waiting failed answers go out at once on close', async () => {
    const s = await throttled({ freeFailures: 0, baseDelayMs: 5000, maxDelayMs: 5000 });
    const waiting = timed(() => s.call('GET', '/api/v1/usage', { key: null, headers: wrong }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closing = await timed(() => s.close());
    expect(closing.ms).toBeLessThan(3000);
    expect((await waiting).value.status).toBe(401);
  });

  it('keeps its count on the injected clock and bounds what it remembers', async () => {
    let now = 1_000_000;
    const throttle = createAuthThrottle({
      clock: { now: () => now },
      freeFailures: 2,
      baseDelayMs: 1,
      maxDelayMs: 8,
      windowMs: 10_000,
      maxAddresses: 2,
    });
    try {
      for (let i = 0; i < 20; i++) await throttle.failed('a');
      // 2 free + doublings 1→8 ms (3) + 1: older failures cannot change the delay, so are not kept.
      expect(throttle.failures('a')).toBe(6);
      now += 9_999;
      expect(throttle.failures('a')).toBe(6);
      now += 2;
      expect(throttle.failures('a')).toBe(0);
      await throttle.failed('a');
      await throttle.failed('b');
      await throttle.failed('c');
      expect(throttle.failures('a')).toBe(0);
      expect(throttle.failures('c')).toBe(1);
    } finally {
      throttle.close();
    }
  });
});
