/**
 * GET /api/v1/custom-voices answers 50 voices at most (issue 36, point 1): the studio still
 * offers every voice. Against a real core over HTTP with 620 custom voices (copies written
 * through the store of voices made over HTTP), the studio's slice (its custom-voices view and
 * every picker) and an open project's pickers (GET …?project=<id>) read all the pages.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOM_VOICE_LIST } from '../../electron/shared/custom-voices';
import { createProjectsApi } from '../../renderer/src/lib/projects-api';
import { createStudioStore } from '../../renderer/src/stores';
import { memoryStorage, startSignedIn, type SignedIn } from './helpers';

const COUNT = 620;
let s: SignedIn;
let keyVoice: string;
const made: string[] = [];

beforeAll(async () => {
  s = await startSignedIn();
  const client = s.client();
  const template = await client.createCustomVoice({
    code: 'co_lan',
    name: 'Cô Lan',
    base: { kind: 'code', voice_code: 'vi_female_thuytrang_mb' },
  });
  const row = (await s.t.core.store.customVoices.get(template.code))!;
  made.push(template.code);
  for (let i = 1; i < COUNT; i++) {
    const code = `co_lan_${String(i).padStart(3, '0')}`;
    expect(await s.t.core.store.customVoices.insert({ ...row, code, name: `Cô Lan ${i}` })).toBe(true);
    made.push(code);
  }
  // Another key's voice: the studio lists it, the studio's own projects may not cast it.
  const key = await s.t.newKey();
  const theirs = await s.t.call('POST', '/api/v1/custom-voices', {
    key,
    body: { code: 'their_voice', name: 'Theirs', base: { kind: 'code', voice_code: 'en_female_emily_us' } },
  });
  expect(theirs.status, theirs.text).toBe(201);
  keyVoice = 'their_voice';
}, 120_000);
afterAll(async () => {
  await s?.t.close();
});

describe("the studio's custom voices past one page", () => {
  it('the slice (the custom-voices view and the pickers) holds every one of 621 voices', async () => {
    expect(COUNT).toBeGreaterThan(CUSTOM_VOICE_LIST.page * 10);
    const store = createStudioStore({ client: s.client(), storage: memoryStorage() });
    await store.getState().loadCustomVoices();
    const state = store.getState();
    expect(state.customVoicesError).toBeNull();
    expect(state.customVoices.map((v) => v.code).sort()).toEqual([...made, keyVoice].sort());
  });

  it("an open project's pickers are offered every voice it may cast", async () => {
    const api = createProjectsApi(s.client());
    const detail = await api.create({ title: 'Six hundred voices' });
    const offered = (await api.customVoices(detail.project.id)).map((v) => v.code);
    expect(offered.sort()).toEqual([...made].sort());
  });
});
