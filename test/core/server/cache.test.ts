/**
 * GET and DELETE /api/v1/cache over real HTTP on the full core: the counters follow real
 * renders (a text submitted again is answered from the cache), only the signed-in studio reads
 * and clears them (a key gets UNAUTHORIZED in the API's error shape: the counters would tell it
 * whether another key spoke a sentence), and a core started with a limit of 0 keeps no cache.
 * Auditions: every answer's X-Sentence-Cache says how much of it the cache answered (`miss` the
 * first time, `hit` when the same sentence comes again, `partial` for a text that adds a
 * sentence); a request with `X-Sentence-Cache: bypass` is synthesised without reading the cache
 * (its counters do not move) and sounds the same; another value is refused in the API's shape.
 */

import { readdirSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sentenceCacheDir } from '../../../electron/core/platform/paths';
import { startSignedInCore, type SignedInTestCore } from './helpers';

const TEXT = 'The keeper climbed the stairs. The storm came from the north. The bells rang twice.';

let t: SignedInTestCore;
/** Cookie and X-Studio-Session: a signed-in call. */
let studio: Record<string, string>;

beforeAll(async () => {
  t = await startSignedInCore({ sentenceCacheMb: 64 });
  ({ headers: studio } = t.studio);
});
afterAll(async () => {
  await t?.close();
});

async function renderDirect(): Promise<void> {
  const res = await t.call('POST', '/api/v1/tts', {
    body: { input_text: TEXT, voice_code: 'en_female_emily_us', response_type: 'direct' },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.json.result.status, res.text).toBe('SUCCESS');
}

/** The cache's counters once `count` entries are stored (the last may land just after the answer). */
async function storedEntries(count: number, headers?: Record<string, string>) {
  let result: Record<string, number> = {};
  await vi.waitFor(
    async () => {
      result = (await t.call('GET', '/api/v1/cache', { key: null, headers: headers ?? studio })).json.result;
      expect(result.entries).toBe(count);
    },
    { timeout: 5_000, interval: 50 },
  );
  return result;
}

const PATH = '/api/v1/voices/en_female_emily_us/audition';
const FIRST = 'The keeper climbed the stairs at dusk.';
const LONGER = `${FIRST} The storm came from the north that night.`;

/** A GET audition as the workbench fetches it: its status, X-Sentence-Cache and whole body. */
async function audition(text: string, headers: Record<string, string> = {}, core = t) {
  const response = await request(`${core.core.url}${PATH}?text=${encodeURIComponent(text)}`, {
    headers: { ...core.studio.headers, ...headers },
  });
  const body = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, cache: response.headers['x-sentence-cache'], body };
}

async function cacheStats(): Promise<{ entries: number; hits: number; misses: number }> {
  return (await t.call('GET', '/api/v1/cache', { key: null, headers: studio })).json.result;
}

const entriesOnDisk = () => readdirSync(sentenceCacheDir(t.dir)).filter((n) => n.endsWith('.snt')).length;

describe('/api/v1/cache', () => {
  it('counts misses on a first render and hits when the same text comes again', async () => {
    const empty = await t.call('GET', '/api/v1/cache', { key: null, headers: studio });
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({
      status: 1,
      result: { enabled: true, entries: 0, bytes: 0, limit_bytes: 64 * 1024 * 1024, hits: 0, misses: 0 },
    });

    await renderDirect();
    // Entries are stored while the answer goes out (cached-backend.ts: `void cache.put`).
    const first = await storedEntries(3);
    expect(first.misses).toBe(3);
    expect(first.hits).toBe(0);
    expect(first.bytes).toBeGreaterThan(0);

    await renderDirect();
    const second = (await t.call('GET', '/api/v1/cache', { key: null, headers: studio })).json.result;
    expect(second).toMatchObject({ hits: 3, misses: 3, entries: 3 });
    expect(entriesOnDisk()).toBe(3);
  });

  it('tells no key whether another key spoke a sentence', async () => {
    // The attack: another key reads the counters, speaks a guess, and reads them again: a hit
    // would say the first key's text held that sentence.
    const other = await t.newKey();
    const before = await t.call('GET', '/api/v1/cache', { key: other });
    expect(before.status).toBe(401);
    expect(before.json).toMatchObject({ status: 0, error_code: 'UNAUTHORIZED' });
    expect(before.text).not.toContain('hits');
    expect((await t.call('GET', '/api/v1/cache')).status).toBe(401);
  });

  it('is cleared by the studio only', async () => {
    const byKey = await t.call('DELETE', '/api/v1/cache');
    expect(byKey.status).toBe(401);
    expect(byKey.json).toMatchObject({ status: 0, error_code: 'UNAUTHORIZED' });
    expect(entriesOnDisk()).toBe(3);

    const unsigned = await t.call('GET', '/api/v1/cache', { key: null });
    expect(unsigned.status).toBe(401);

    const cleared = await t.call('DELETE', '/api/v1/cache', { key: null, headers: studio });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.json.result).toMatchObject({ enabled: true, entries: 0, bytes: 0 });
    expect(entriesOnDisk()).toBe(0);

    await renderDirect();
    expect(await storedEntries(3, studio)).toMatchObject({ misses: 6 });
  });
});

describe('auditions and the sentence cache', () => {
  it('says miss, then hit for the same sentence; bypass synthesises it again without the cache', async () => {
    const { entries } = await cacheStats();
    const first = await audition(FIRST);
    expect(first.status).toBe(200);
    expect(first.cache).toBe('miss');
    await storedEntries(entries + 1);

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

describe('a core without a sentence cache', () => {
  it('reports it disabled and writes no entries', async () => {
    const off = await startSignedInCore({ sentenceCacheMb: 0 });
    try {
      const res = await off.call('GET', '/api/v1/cache', { key: null, headers: off.studio.headers });
      expect(res.status, res.text).toBe(200);
      expect(res.json.result).toEqual({
        enabled: false,
        entries: 0,
        bytes: 0,
        limit_bytes: 0,
        hits: 0,
        misses: 0,
      });
      // An audition of it says that no sentence came from a cache.
      const spoken = await audition(FIRST, {}, off);
      expect(spoken.status).toBe(200);
      expect(spoken.cache).toBe('miss');
    } finally {
      await off.close();
    }
  });
});
