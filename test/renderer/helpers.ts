/** A real core on 127.0.0.1 and a signed-in studio session, for renderer tests of the client and store. */

import { createApiClient, SESSION_STORAGE_KEY, type ApiClient } from '../../renderer/src/lib/api-client';
import { signInStudio, type StudioSession } from '../fixtures/studio-session';
import { startTestCore, type TestCore } from '../core/server/helpers';

export interface SignedIn extends StudioSession {
  t: TestCore;
  /**
   * A client signed in as the studio page is: the session cookie (a header here: Node keeps no
   * cookies) and the session's value in its storage.
   */
  client(): ApiClient;
}

export async function startSignedIn(options: Parameters<typeof startTestCore>[0] = {}): Promise<SignedIn> {
  const t = await startTestCore(options);
  const session = await signInStudio(t.core.loginUrl);
  return {
    t,
    ...session,
    client: () =>
      createApiClient({
        baseUrl: t.core.url,
        headers: { cookie: session.cookie },
        sessionStorage: memoryStorage({ [SESSION_STORAGE_KEY]: session.value }),
      }),
  };
}

/** A Map-backed Storage stand-in. */
export function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
}
