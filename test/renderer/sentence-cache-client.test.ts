/**
 * The studio's typed client for the sentence cache, against the real server: the Settings page
 * reads its size and hit rate and clears it with the session; a bearer key may do neither.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, type ApiClient } from '../../renderer/src/lib/api-client';
import { startSignedIn, type SignedIn } from './helpers';

describe('api-client: the sentence cache', () => {
  let s: SignedIn;
  let session: ApiClient;
  let bearer: ApiClient;

  beforeAll(async () => {
    s = await startSignedIn({ sentenceCacheMb: 16 });
    session = s.client();
    bearer = createApiClient({ baseUrl: s.t.core.url, apiKey: s.t.key });
  });
  afterAll(async () => s?.t.close());

  it('reads the stats and clears with the session only (a key would learn what others spoke)', async () => {
    const record = await bearer.submit({
      input_text: 'One line. Two lines.',
      voice_code: 'en_female_nova_default',
    });
    let detail = await bearer.request(record.request_id);
    for (let i = 0; i < 400 && detail.status !== 'SUCCESS' && detail.status !== 'FAILURE'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      detail = await bearer.request(record.request_id);
    }
    expect(detail.status).toBe('SUCCESS');

    const stats = await session.sentenceCache();
    expect(stats).toMatchObject({ enabled: true, limit_bytes: 16 * 1024 * 1024, hits: 0, misses: 2 });
    for (const bearerCall of [() => bearer.sentenceCache(), () => bearer.clearSentenceCache()]) {
      const refused = await bearerCall().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    }

    expect(await session.clearSentenceCache()).toMatchObject({ entries: 0, bytes: 0, misses: 2 });
  });
});
