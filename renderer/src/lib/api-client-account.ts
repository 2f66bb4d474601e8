/** The studio's session (sign-in, sign-out), the API keys and their usage, the server's settings and sentence cache. */

import type { ApiKeyInfo, StudioSignIn } from '../../../electron/shared/api';
import type { ApiClient, ApiTransport } from './api-client';

export function accountMethods(
  transport: ApiTransport,
): Pick<
  ApiClient,
  | 'signIn'
  | 'onSignedOut'
  | 'signOut'
  | 'session'
  | 'usage'
  | 'keys'
  | 'createKey'
  | 'revokeKey'
  | 'rotateSigningSecret'
  | 'addCredits'
  | 'serverSettings'
  | 'updateServerSettings'
  | 'sentenceCache'
  | 'clearSentenceCache'
> {
  const { call, query, keepSession, onSignedOut } = transport;
  return {
    async signIn(token) {
      const signedIn = await call<StudioSignIn>(
        'POST',
        '/api/v1/session/sign-in',
        { token },
        undefined,
        false,
      );
      keepSession(signedIn.session);
      return signedIn;
    },
    onSignedOut,
    async signOut() {
      try {
        await call('DELETE', '/api/v1/session', undefined, undefined, false);
      } finally {
        keepSession(null);
      }
    },
    session: () => call('GET', '/api/v1/session'),
    usage: (page = 1, pageSize = 20, key) =>
      call('GET', `/api/v1/usage${query({ page, page_size: pageSize, key })}`),
    keys: async () => (await call<{ items: ApiKeyInfo[] }>('GET', '/api/v1/keys')).items,
    createKey: (name) => call('POST', '/api/v1/keys', name ? { name } : {}),
    revokeKey: (id) => call('POST', `/api/v1/keys/${encodeURIComponent(id)}/revoke`, {}),
    rotateSigningSecret: (id) => call('POST', `/api/v1/keys/${encodeURIComponent(id)}/rotate-secret`, {}),
    addCredits: (id, credits) => call('POST', `/api/v1/keys/${encodeURIComponent(id)}/credits`, { credits }),
    serverSettings: () => call('GET', '/api/v1/settings'),
    updateServerSettings: (body) => call('PUT', '/api/v1/settings', body),
    sentenceCache: () => call('GET', '/api/v1/cache'),
    clearSentenceCache: () => call('DELETE', '/api/v1/cache'),
  };
}
