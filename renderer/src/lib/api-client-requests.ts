/** Speech requests: submit, follow, cancel, their callbacks and chapters; a text's reading. */

import type { ApiClient, ApiTransport } from './api-client';

export function requestMethods(
  transport: ApiTransport,
): Pick<
  ApiClient,
  | 'submit'
  | 'request'
  | 'listRequests'
  | 'cancel'
  | 'callbackAttempts'
  | 'retryCallback'
  | 'reading'
  | 'requestChapters'
> {
  const { call, query } = transport;
  return {
    submit: (request) => call('POST', '/api/v1/tts', request),
    request: (id) => call('GET', `/api/v1/tts/${encodeURIComponent(id)}`),
    listRequests(query = {}) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
      const qs = params.toString();
      return call('GET', `/api/v1/tts${qs ? `?${qs}` : ''}`);
    },
    cancel: (id) => call('POST', `/api/v1/tts/${encodeURIComponent(id)}/cancel`, {}),
    callbackAttempts: (id, limit) =>
      call('GET', `/api/v1/tts/${encodeURIComponent(id)}/callback-attempts${query({ limit })}`),
    retryCallback: (id) => call('POST', `/api/v1/tts/${encodeURIComponent(id)}/callback-retry`, {}),
    reading: (body) => call('POST', '/api/v1/reading', body),
    requestChapters: (id) => call('GET', `/api/v1/tts/${encodeURIComponent(id)}/chapters`),
  };
}
