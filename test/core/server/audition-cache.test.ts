/**
 * Auditions and the sentence cache, on the full core (its engine thread, a real cache folder)
 * over real HTTP: every answer's X-Sentence-Cache says how much of it the cache answered (`miss`
 * the first time, `hit` when the same sentence comes again, `partial` for a text that adds a
 * sentence); a request with `X-Sentence-Cache: bypass` is synthesised without reading the cache
 * (its counters do not move) and sounds the same; another value is refused in the API's shape.
 */

import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSignedInCore, type SignedInTestCore } from './helpers';

const PATH = '/api/v1/voices/en_female_emily_us/audition';
const FIRST = 'The keeper climbed the stairs at dusk.';
const LONGER = `${FIRST} The storm came from the north that night.`;

let t: SignedInTestCore;
/** Cookie and X-Studio-Session: a signed-in call (the workbench's GET). */
let studio: Record<string, string>;

beforeAll(async () => {
  t = await startSignedInCore({ sentenceCacheMb: 64 });
  ({ headers: studio } = t.studio);
});
afterAll(async () => {
  await t?.close();
});

/** A GET audition as the workbench fetches it: its status, X-Sentence-Cache and whole body. */
async function audition(text: string, headers: Record<string, string> = {}) {
  const response = await request(`${t.core.url}${PATH}?text=${encodeURIComponent(text)}`, {
    headers: { ...studio, ...headers },
  });
  const body = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, cache: response.headers['x-sentence-cache'], body };
}

async function cacheStats(): Promise<{ entries: number; hits: number; misses: number }> {
  return (await t.call('GET', '/api/v1/cache', { key: null, headers: studio })).json.result;
}

/** Waits until `count` entries are stored (they are written while the answer goes out). */
async function stored(count: number): Promise<void> {
  await vi.waitFor(async () => expect((await cacheStats()).entries).toBe(count), {
    timeout: 5_000,
    interval: 50,
  });
}

describe('auditions and the sentence cache', () => {
  it('says miss, then hit for the same sentence; bypass synthesises it again without the cache', async () => {
    const first = await audition(FIRST);
    expect(first.status).toBe(200);
    expect(first.cache).toBe('miss');
    await stored(1);

    const again = await audition(FIRST);
    expect(again.status).toBe(200);
    expect(again.cache).toBe('hit');
    // What the cache answers is the audio synthesised the first time.
    expect(again.body.equals(first.body)).toBe(true);

    const before = await cacheStats();
    const measured = await audition(FIRST, { 'X-Sentence-Cache': 'bypass' });
    expect(measured.status).toBe(200);
    expect(measured.cache).toBe('bypass');
    // Synthesised by the engine: the cache was neither read nor counted, and nothing was added.
    expect(await cacheStats()).toEqual(before);
    expect(measured.body.equals(first.body)).toBe(true);
  });

  it('says partial for a text of which only some sentences are cached', async () => {
    const longer = await audition(LONGER);
    expect(longer.status).toBe(200);
    expect(longer.cache).toBe('partial');
  });

  it('honours the header on the POST audition of a key too', async () => {
    const response = await request(`${t.core.url}${PATH}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${t.key}`,
        'content-type': 'application/json',
        'x-sentence-cache': 'BYPASS',
      },
      body: JSON.stringify({ text: FIRST }),
    });
    await response.body.arrayBuffer();
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-sentence-cache']).toBe('bypass');
  });

  it('refuses another value of the header in the API error shape', async () => {
    const refused = await audition(FIRST, { 'X-Sentence-Cache': 'no' });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body.toString())).toMatchObject({
      status: 0,
      error_code: 'INVALID_FIELD',
      error_details: { field: 'X-Sentence-Cache' },
    });
  });
});
