/** A real core on 127.0.0.1 and a signed-in session cookie, for renderer tests of the client and store. */

import { startTestCore, type TestCore } from '../core/server/helpers';

export interface SignedIn {
  t: TestCore;
  /** `ns_session_<port>=…`, to send as a Cookie header. */
  cookie: string;
}

export async function startSignedIn(options: Parameters<typeof startTestCore>[0] = {}): Promise<SignedIn> {
  const t = await startTestCore(options);
  const response = await fetch(t.core.loginUrl, { redirect: 'manual' });
  const setCookie = response.headers.get('set-cookie');
  if (response.status !== 303 || !setCookie) throw new Error(`sign-in failed: HTTP ${response.status}`);
  return { t, cookie: setCookie.split(';')[0]! };
}

/** A Map-backed Storage stand-in. */
export function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
  };
}
