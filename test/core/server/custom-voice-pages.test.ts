/**
 * Issue 36, point 1 ("no answer is unbounded"): GET /api/v1/custom-voices answered every voice
 * the caller reaches at once; each key may hold 500, each with 200 lexicon entries, and the
 * signed-in studio reaches every key's, so its answer grew with the number of keys. Four keys
 * with 150 voices each and 20 of the studio's (rows written through the store, copies of voices
 * made over HTTP): every answer is a page of at most 50, and the cursor reaches every voice the
 * caller reaches, and only those, with `?project=` too.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOM_VOICE_LIST } from '../../../electron/shared/custom-voices';
import type { CallOptions } from './http';
import { startSignedInCore, type SignedInTestCore } from './helpers';

const BASE = '/api/v1/custom-voices';
const PER_KEY = 150;
const HOUSE = 20;

let t: SignedInTestCore;
let studio: CallOptions;
const keys: string[] = [];
/** Each key's voice codes, and the studio's under 'house'. */
const codes = new Map<string, string[]>();

beforeAll(async () => {
  t = await startSignedInCore();
  studio = { key: null, headers: t.studio.headers };
  const lexicon = Array.from({ length: 20 }, (_, i) => ({
    match: `word${i}`,
    kind: 'respell',
    replacement: `wurd ${i}`,
  }));
  const made = async (code: string, caller: CallOptions) => {
    const res = await t.call('POST', BASE, {
      ...caller,
      body: {
        code,
        name: `Giọng ${code}`,
        base: { kind: 'code', voice_code: 'en_female_emily_us' },
        lexicon,
      },
    });
    expect(res.status, res.text).toBe(201);
    return (await t.core.store.customVoices.get(code))!;
  };
  const copies = async (owner: string, template: Awaited<ReturnType<typeof made>>, count: number) => {
    const list = [template.code];
    for (let i = 1; i < count; i++) {
      const code = `${template.code.slice(0, -2)}${String(i).padStart(3, '0')}`;
      expect(await t.core.store.customVoices.insert({ ...template, code })).toBe(true);
      list.push(code);
    }
    codes.set(owner, list);
  };
  for (const n of [1, 2, 3, 4]) {
    const key = await t.newKey();
    keys.push(key);
    await copies(key, await made(`key${n}-v00`, { key }), PER_KEY);
  }
  await copies('house', await made('house-v00', studio), HOUSE);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

interface VoicePage {
  voices: Array<{ code: string; lexicon: unknown[] }>;
  next_cursor: string | null;
  total: number;
}

/** Every page of the list for `caller` (`query` added), each checked to be bounded. */
async function walk(
  caller: CallOptions,
  query = '',
): Promise<{ codes: string[]; pages: number; total: number }> {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  let total = -1;
  do {
    const params = new URLSearchParams(query);
    params.set('limit', String(CUSTOM_VOICE_LIST.page));
    if (cursor !== null) params.set('cursor', cursor);
    const res = await t.call('GET', `${BASE}?${params.toString()}`, caller);
    expect(res.status, res.text).toBe(200);
    const page = res.json.result as VoicePage;
    expect(page.voices.length).toBeLessThanOrEqual(CUSTOM_VOICE_LIST.page);
    seen.push(...page.voices.map((v) => v.code));
    total = page.total;
    cursor = page.next_cursor;
    pages++;
  } while (cursor !== null && pages < 100);
  return { codes: seen, pages, total };
}

const sorted = (list: string[]) => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('custom voices a page at a time (issue 36, point 1)', () => {
  it("the studio's list of 620 voices: 20 by default, 50 at most, and the pages reach every one once", async () => {
    const first = await t.call('GET', BASE, studio);
    expect(first.status, first.text).toBe(200);
    const page = first.json.result as VoicePage;
    expect(page.voices).toHaveLength(CUSTOM_VOICE_LIST.pageDefault);
    expect(page.total).toBe(4 * PER_KEY + HOUSE);
    expect(page.voices[0]!.lexicon).toHaveLength(20);

    const all = await walk(studio);
    expect(all.codes).toEqual(sorted([...codes.values()].flat()));
    expect(all.pages).toBe(Math.ceil((4 * PER_KEY + HOUSE) / CUSTOM_VOICE_LIST.page));
    expect(all.total).toBe(4 * PER_KEY + HOUSE);
  });

  it("a key's pages reach its own voices and the studio's, never another key's", async () => {
    const mine = await walk({ key: keys[1]! });
    expect(mine.codes).toEqual(sorted([...codes.get(keys[1]!)!, ...codes.get('house')!]));
    expect(mine.total).toBe(PER_KEY + HOUSE);
  });

  it('?project=<id> pages what the project may cast', async () => {
    const made = await t.call('POST', '/api/v1/projects', { key: keys[2]!, body: { title: 'Paged' } });
    expect(made.status, made.text).toBe(201);
    const id = made.json.result.project.id as string;
    const cast = await walk({ key: keys[2]! }, `project=${id}`);
    expect(cast.codes).toEqual(sorted([...codes.get(keys[2]!)!, ...codes.get('house')!]));
    expect(cast.total).toBe(PER_KEY + HOUSE);
  });

  it('refuses a limit out of 1–50 and a cursor this list did not give with INVALID_FIELD', async () => {
    const bad = [
      '?limit=0',
      '?limit=51',
      '?limit=x',
      '?cursor=abc',
      `?cursor=${Buffer.from('["before",3]').toString('base64url')}`,
      `?cursor=${Buffer.from('["after","Not A Code"]').toString('base64url')}`,
      `?cursor=${'A'.repeat(300)}`,
    ];
    for (const query of bad) {
      const res = await t.call('GET', `${BASE}${query}`, studio);
      expect(res.status, query).toBe(400);
      expect(res.json, query).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
      expect(res.json.error_message, query).toMatch(new RegExp(`^${query.slice(1).split('=')[0]}`));
    }
  });
});
