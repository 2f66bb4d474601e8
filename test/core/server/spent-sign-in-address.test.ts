/**
 * A spent sign-in address signs nobody in, from any browser (issue 38's note: a spent address
 * opened in a second browser context seemed to come up signed in). Over real HTTP, two cookie
 * jars stand for two browser profiles: the first spends the address as the studio page does; the
 * second opens the same address (the page, then the page's sign-in post) and must get the "used
 * sign-in address" refusal, no cookie, and no session. There is no grace window: a sign-in
 * address works once (sessions.ts). Two tries at the same moment: one session, one refusal.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDIO_SESSION_HEADER } from '../../../electron/shared/api';
import { signInBody, studioSession } from '../../fixtures/studio-session';
import { fetchUrl, startSignedInCore, type SignedInTestCore } from './helpers';
import type { HttpResult } from './http';

/** One browser profile's cookies for the server: what its answers set, sent back with each request. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  async send(
    url: string,
    method: string,
    options: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<HttpResult> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetchUrl(url, method, {
      ...options,
      headers: { ...options.headers, ...(cookie ? { cookie } : {}) },
    });
    const setCookie = res.headers['set-cookie'];
    for (const line of setCookie === undefined ? [] : [setCookie].flat()) {
      const [pair] = String(line).split(';');
      const [name, ...value] = pair!.split('=');
      if (/;\s*Max-Age=0/i.test(String(line))) this.cookies.delete(name!);
      else this.cookies.set(name!, value.join('='));
    }
    return res;
  }

  get size(): number {
    return this.cookies.size;
  }
}

/** What the studio page does with a sign-in address: load `/?token=…`, then post its token. */
async function openSignInAddress(jar: CookieJar, loginUrl: string): Promise<HttpResult> {
  const page = await jar.send(loginUrl, 'GET');
  expect(page.status, page.text).toBe(200);
  expect(page.headers['set-cookie'], 'opening the page spends nothing').toBeUndefined();
  return jar.send(new URL('/api/v1/session/sign-in', loginUrl).href, 'POST', {
    headers: { 'content-type': 'application/json' },
    body: signInBody(loginUrl),
  });
}

function expectUsedAddressRefusal(res: HttpResult): void {
  expect(res.status, res.text).toBe(401);
  expect(res.headers['set-cookie']).toBeUndefined();
  expect(res.json).toMatchObject({
    status: 0,
    error_code: 'UNAUTHORIZED',
    error_details: { reason: 'sign_in_address_refused', minutes: 10 },
  });
  expect(res.json.error_message).toMatch(/was already used/);
}

let t: SignedInTestCore;

beforeAll(async () => {
  // No slow-down of failed sign-ins: each refusal below is the route's own answer.
  t = await startSignedInCore({ authThrottle: { baseDelayMs: 0 } });
});
afterAll(async () => t?.close());

describe('a sign-in address that was already used', () => {
  it('signs in no second browser: refused with the used-address error, no cookie, no session', async () => {
    // The first browser is signed in with it (startSignedInCore spent it).
    const first = await fetchUrl(`${t.core.url}/api/v1/session`, 'GET', { headers: t.studio.headers });
    expect(first.status, first.text).toBe(200);

    const second = new CookieJar();
    expectUsedAddressRefusal(await openSignInAddress(second, t.spentLoginUrl));
    expect(second.size).toBe(0);
    // Whatever the second browser tries next, it is not signed in.
    const session = await second.send(`${t.core.url}/api/v1/session`, 'GET');
    expect(session.status, session.text).toBe(401);
    // Nor with the first browser's session value alone, without that browser's cookie.
    const valueOnly = await second.send(`${t.core.url}/api/v1/session`, 'GET', {
      headers: { [STUDIO_SESSION_HEADER]: t.studio.value },
    });
    expect(valueOnly.status, valueOnly.text).toBe(401);
    // The first browser stays signed in; its own second try is refused as well.
    expectUsedAddressRefusal(await openSignInAddress(new CookieJar(), t.spentLoginUrl));
    expect(
      (await fetchUrl(`${t.core.url}/api/v1/session`, 'GET', { headers: t.studio.headers })).status,
    ).toBe(200);
  });

  it('the address named after it signs in once more, in its own browser, and then is spent too', async () => {
    const next = t.core.loginUrl;
    expect(next).not.toBe(t.spentLoginUrl);
    const jar = new CookieJar();
    const res = await openSignInAddress(jar, next);
    const session = studioSession(res.status, res.headers['set-cookie'], res.json);
    const who = await jar.send(`${t.core.url}/api/v1/session`, 'GET', {
      headers: { [STUDIO_SESSION_HEADER]: session.value },
    });
    expect(who.status, who.text).toBe(200);
    expectUsedAddressRefusal(await openSignInAddress(new CookieJar(), next));
  });

  it('two browsers posting the same address at the same moment: one session, one refusal', async () => {
    const address = t.core.loginUrl;
    const tries = await Promise.all([0, 1].map(() => openSignInAddress(new CookieJar(), address)));
    const statuses = tries.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 401]);
    expectUsedAddressRefusal(tries.find((res) => res.status === 401)!);
  });
});
