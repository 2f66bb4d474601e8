/**
 * Issue 36, point 7: a custom voice belongs to the key that made it. On a real core (engine,
 * the run's database, HTTP on 127.0.0.1) key B attacks key A's voice: reads, changes, deletes
 * and auditions it (404, as if it did not exist: A's voice is untouched), speaks with it on the
 * spec route, in SSML, through OpenAI's route and in an export (UNKNOWN_VOICE), and casts it in
 * its project (UNKNOWN_VOICE). The signed-in studio sees and changes every voice; what it makes
 * is the studio's, which every key lists and speaks with and no key changes.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignedInCore, type SignedInTestCore } from './helpers';

const BASE = '/api/v1/custom-voices';
const TEXT = 'Mister Nguyen reads the letter aloud.';

let t: SignedInTestCore;
let keyA: string;
let keyB: string;
/** Cookie and X-Studio-Session: a signed-in call. */
let studio: Record<string, string>;

beforeAll(async () => {
  t = await startSignedInCore();
  ({ headers: studio } = t.studio);
  keyA = await t.newKey();
  keyB = await t.newKey();
});
afterAll(async () => {
  await t?.close();
});

const voiceInput = (code: string, extra: Record<string, unknown> = {}) => ({
  code,
  name: `Giọng ${code}`,
  base: { kind: 'code', voice_code: 'en_female_emily_us' },
  lexicon: [{ match: 'Nguyen', kind: 'respell', replacement: 'Win' }],
  ...extra,
});
const codesOf = (res: { json: { result: { voices: { code: string }[] } } }) =>
  res.json.result.voices.map((v) => v.code);
const asStudio = { key: null, headers: {} as Record<string, string> };

describe("a key and another key's custom voice", () => {
  it("cannot read, change, delete or audition it: 404 as if it did not exist, and A's voice is untouched", async () => {
    const made = await t.call('POST', BASE, { key: keyA, body: voiceInput('aunt-lan-a') });
    expect(made.status, made.text).toBe(201);
    const before = (await t.call('GET', `${BASE}/aunt-lan-a`, { key: keyA })).json.result;

    expect(codesOf(await t.call('GET', BASE, { key: keyB }))).not.toContain('aunt-lan-a');
    const attempts = [
      await t.call('GET', `${BASE}/aunt-lan-a`, { key: keyB }),
      await t.call('PUT', `${BASE}/aunt-lan-a`, {
        key: keyB,
        body: voiceInput('aunt-lan-a', {
          lexicon: [{ match: 'Nguyen', kind: 'respell', replacement: 'Bad' }],
        }),
      }),
      await t.call('DELETE', `${BASE}/aunt-lan-a`, { key: keyB }),
      await t.call('POST', `${BASE}/aunt-lan-a/audition`, { key: keyB, body: {} }),
    ];
    for (const res of attempts) {
      expect(res.status, res.text).toBe(404);
      expect(res.json).toMatchObject({ status: 0, error_code: 'CUSTOM_VOICE_NOT_FOUND' });
      // The refusal of B's attempt reads exactly as for a code nobody has.
      expect(res.json.error_message).toBe('No custom voice "aunt-lan-a" (GET /api/v1/custom-voices).');
    }
    expect((await t.call('GET', `${BASE}/aunt-lan-a`, { key: keyA })).json.result).toEqual(before);
    expect(before.owner_key_id).toEqual(expect.any(String));
    // A still changes and lists its own.
    expect(codesOf(await t.call('GET', BASE, { key: keyA }))).toContain('aunt-lan-a');
    const changed = await t.call('PUT', `${BASE}/aunt-lan-a`, {
      key: keyA,
      body: voiceInput('aunt-lan-a', { prosody: { speed: 0.9 } }),
    });
    expect(changed.status, changed.text).toBe(200);
  });

  it('cannot speak with it: the spec route, SSML, OpenAI and an export answer UNKNOWN_VOICE', async () => {
    expect((await t.call('POST', BASE, { key: keyA, body: voiceInput('uncle-ba-a') })).status).toBe(201);
    // A speaks with it.
    const own = await t.call('POST', '/api/v1/tts', {
      key: keyA,
      body: { input_text: TEXT, voice_code: 'uncle-ba-a' },
    });
    expect(own.status, own.text).toBe(200);

    const unknown = (res: { status: number; text: string; json: Record<string, unknown> }) => {
      expect(res.status, res.text).toBe(400);
      expect(res.json).toMatchObject({ status: 0, error_code: 'UNKNOWN_VOICE' });
    };
    unknown(
      await t.call('POST', '/api/v1/tts', {
        key: keyB,
        body: { input_text: TEXT, voice_code: 'uncle-ba-a' },
      }),
    );
    const ssml = await t.call('POST', '/api/v1/tts', {
      key: keyB,
      body: {
        input_text: `<speak>Hello. <voice name="uncle-ba-a">${TEXT}</voice></speak>`,
        voice_code: 'en_female_emily_us',
      },
    });
    // The SSML parser's refusal of a voice nobody has.
    expect(ssml.status, ssml.text).toBe(400);
    expect(ssml.json).toMatchObject({ error_code: 'SSML_INVALID' });
    expect(ssml.json.error_message).toContain('unknown voice "uncle-ba-a"');
    unknown(
      await t.call('POST', '/api/v1/exports', {
        key: keyB,
        body: { input_text: TEXT, voice_code: 'uncle-ba-a', format: 'mp3' },
      }),
    );
    const openai = await t.call('POST', '/v1/audio/speech', {
      key: keyB,
      body: { model: 'tts-1', voice: 'uncle-ba-a', input: TEXT },
    });
    expect(openai.status, openai.text).toBe(400);
    expect(openai.json.error).toMatchObject({ code: 'UNKNOWN_VOICE', type: 'invalid_request_error' });
    // OpenAI's voice list shows B its own and the studio's voices only; without a key, the studio's.
    const listed = async (key: string | null) =>
      ((await t.call('GET', '/v1/audio/voices', { key })).json.voices as { id: string }[]).map((v) => v.id);
    expect(await listed(keyA)).toContain('uncle-ba-a');
    expect(await listed(keyB)).not.toContain('uncle-ba-a');
    expect(await listed(null)).not.toContain('uncle-ba-a');
  });

  it('cannot cast it in its project: UNKNOWN_VOICE, as for a code nobody has', async () => {
    expect((await t.call('POST', BASE, { key: keyA, body: voiceInput('cousin-mai-a') })).status).toBe(201);
    const ownProject = await t.call('POST', '/api/v1/projects', {
      key: keyA,
      body: { title: 'A book', voice_code: 'cousin-mai-a' },
    });
    expect(ownProject.status, ownProject.text).toBe(201);

    const asNarrator = await t.call('POST', '/api/v1/projects', {
      key: keyB,
      body: { title: 'B book', voice_code: 'cousin-mai-a' },
    });
    expect(asNarrator.status, asNarrator.text).toBe(400);
    expect(asNarrator.json.error_code).toBe('UNKNOWN_VOICE');
    const project = await t.call('POST', '/api/v1/projects', { key: keyB, body: { title: 'B book' } });
    expect(project.status, project.text).toBe(201);
    const id = project.json.result.project.id as string;
    const character = await t.call('POST', `/api/v1/projects/${id}/characters`, {
      key: keyB,
      body: { name: 'Mai', voice_code: 'cousin-mai-a' },
    });
    expect(character.status, character.text).toBe(400);
    expect(character.json.error_code).toBe('UNKNOWN_VOICE');
  });
});

describe('the signed-in studio', () => {
  it("sees and changes every key's voice; its own voices are the studio's: every key speaks with them, none changes them", async () => {
    expect((await t.call('POST', BASE, { key: keyA, body: voiceInput('grandma-a') })).status).toBe(201);
    const all = await t.call('GET', BASE, { ...asStudio, headers: studio });
    expect(codesOf(all)).toContain('grandma-a');
    const changed = await t.call('PUT', `${BASE}/grandma-a`, {
      ...asStudio,
      headers: studio,
      body: voiceInput('grandma-a', { name: 'Changed by the studio' }),
    });
    expect(changed.status, changed.text).toBe(200);
    // The owner stays A.
    expect((await t.call('GET', `${BASE}/grandma-a`, { key: keyA })).json.result.name).toBe(
      'Changed by the studio',
    );

    const house = await t.call('POST', BASE, {
      ...asStudio,
      headers: studio,
      body: voiceInput('house-voice'),
    });
    expect(house.status, house.text).toBe(201);
    for (const key of [keyA, keyB]) {
      expect(codesOf(await t.call('GET', BASE, { key }))).toContain('house-voice');
      const spoken = await t.call('POST', '/api/v1/tts', {
        key,
        body: { input_text: TEXT, voice_code: 'house-voice' },
      });
      expect(spoken.status, spoken.text).toBe(200);
      const put = await t.call('PUT', `${BASE}/house-voice`, {
        key,
        body: voiceInput('house-voice', {
          lexicon: [{ match: 'Nguyen', kind: 'respell', replacement: 'Bad' }],
        }),
      });
      expect(put.status, put.text).toBe(403);
      expect(put.json).toMatchObject({ status: 0, error_code: 'CUSTOM_VOICE_READ_ONLY' });
      const del = await t.call('DELETE', `${BASE}/house-voice`, { key });
      expect(del.status, del.text).toBe(403);
    }
    expect(house.json.result.owner_key_id).toBeNull();
    expect((await t.call('GET', `${BASE}/house-voice`, { key: keyB })).json.result.lexicon).toEqual([
      expect.objectContaining({ replacement: 'Win' }),
    ]);
    expect((await t.call('DELETE', `${BASE}/grandma-a`, { ...asStudio, headers: studio })).status).toBe(204);
    expect((await t.call('DELETE', `${BASE}/house-voice`, { ...asStudio, headers: studio })).status).toBe(
      204,
    );
  });
});

describe("a project's voice choices (GET /api/v1/custom-voices?project=<id>)", () => {
  it("offer the studio's project only the studio's voices, a key's project its own and the studio's; each one offered casts, the others do not", async () => {
    expect((await t.call('POST', BASE, { key: keyA, body: voiceInput('uncle-a') })).status).toBe(201);
    expect((await t.call('POST', BASE, { key: keyB, body: voiceInput('uncle-b') })).status).toBe(201);
    const house = await t.call('POST', BASE, {
      ...asStudio,
      headers: studio,
      body: voiceInput('house-uncle'),
    });
    expect(house.status, house.text).toBe(201);

    const made = await t.call('POST', '/api/v1/projects', {
      ...asStudio,
      headers: studio,
      body: { title: 'The studio’s book' },
    });
    expect(made.status, made.text).toBe(201);
    const studioProject = made.json.result.project.id as string;
    // The studio sees every voice, A's and B's included…
    const everything = codesOf(await t.call('GET', BASE, { ...asStudio, headers: studio }));
    expect(everything).toEqual(expect.arrayContaining(['uncle-a', 'uncle-b', 'house-uncle']));
    // …but its project is offered only what it may cast.
    const offered = await t.call('GET', `${BASE}?project=${studioProject}`, { ...asStudio, headers: studio });
    expect(offered.status, offered.text).toBe(200);
    expect(codesOf(offered)).toContain('house-uncle');
    expect(codesOf(offered)).not.toContain('uncle-a');
    expect(codesOf(offered)).not.toContain('uncle-b');
    for (const code of everything) {
      const cast = await t.call('POST', `/api/v1/projects/${studioProject}/characters`, {
        ...asStudio,
        headers: studio,
        body: { name: `Cast ${code}`, voice_code: code },
      });
      expect(cast.status, `${code}: ${cast.text}`).toBe(codesOf(offered).includes(code) ? 201 : 400);
    }

    const own = await t.call('POST', '/api/v1/projects', { key: keyA, body: { title: 'A’s book' } });
    const ownId = own.json.result.project.id as string;
    const forA = codesOf(await t.call('GET', `${BASE}?project=${ownId}`, { key: keyA }));
    expect(forA).toEqual(expect.arrayContaining(['uncle-a', 'house-uncle']));
    expect(forA).not.toContain('uncle-b');
    // Another key's project (the studio's to key B, A's to the studio) is not found.
    for (const [id, caller] of [
      [studioProject, { key: keyB }],
      [ownId, { ...asStudio, headers: studio }],
    ] as const) {
      const theirs = await t.call('GET', `${BASE}?project=${id}`, caller);
      expect(theirs.status, theirs.text).toBe(404);
      expect(theirs.json.error_code).toBe('PROJECT_NOT_FOUND');
    }
    const bad = await t.call('GET', `${BASE}?project=${'x'.repeat(101)}`, { key: keyA });
    expect(bad.status).toBe(400);
    expect(bad.json.error_code).toBe('INVALID_FIELD');
  });
});
