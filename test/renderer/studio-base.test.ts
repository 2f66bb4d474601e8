/**
 * Where the studio sends its API calls, audio and event stream: the folder its page was loaded
 * from (`studioBase(document.baseURI)`), so that the same build works at the server's root and
 * under a reverse proxy's sub-path. The addresses the client builds follow that base (its calls
 * through a real nginx: test/e2e/sub-path.e2e.ts).
 */

import { describe, expect, it } from 'vitest';
import { createApiClient, studioBase, studioUrl } from '../../renderer/src/lib/api-client';

describe('studioBase', () => {
  it('is empty at the root of a server, whatever the query and hash', () => {
    expect(studioBase('http://127.0.0.1:8787/')).toBe('');
    expect(studioBase('http://127.0.0.1:8787/?token=abc#/voices')).toBe('');
    expect(studioBase('https://tts.example.com/')).toBe('');
  });

  it('is the sub-path under a reverse proxy, without its trailing slash', () => {
    expect(studioBase('http://host/tts/')).toBe('/tts');
    expect(studioBase('http://host/tts/?token=abc')).toBe('/tts');
    expect(studioBase('https://host:8443/apps/narration/#/projects/p1')).toBe('/apps/narration');
    // A page file in the folder (index.html) has the folder as its base.
    expect(studioBase('http://host/tts/index.html')).toBe('/tts');
  });

  it('with the origin, is the address shown for sign-in and as the API base', () => {
    expect(studioUrl('http://host/tts/?token=abc#/voices')).toBe('http://host/tts');
    expect(studioUrl('http://127.0.0.1:8787/')).toBe('http://127.0.0.1:8787');
  });

  it("is the base of the client's addresses for audio elements", () => {
    const client = createApiClient({ baseUrl: studioBase('http://host/tts/?token=abc') });
    expect(client.baseUrl).toBe('/tts');
    expect(client.auditionUrl('en_female_emily_us', { text: 'Hi.' })).toMatch(
      /^\/tts\/api\/v1\/voices\/en_female_emily_us\/audition\?/,
    );
    const atRoot = createApiClient({ baseUrl: studioBase('http://127.0.0.1:8787/') });
    expect(atRoot.auditionUrl('en_female_emily_us')).toMatch(
      /^\/api\/v1\/voices\/en_female_emily_us\/audition/,
    );
  });
});
