/**
 * The project render and export routes through the app (real store, render queue never started):
 * a render answered 201 and charged as the API charges, listed, paused, resumed and cancelled with
 * its refund; validation in the error shape; another key's project is not found; no audio before
 * a render; an unknown export is 404.
 */

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashKey } from '../../../electron/core/jobs/keys';
import { costMilli } from '../../../electron/shared/pricing';
import { findVoice } from '../../../electron/shared/voices';
import { buildTestApp, type TestApp } from './inject';
import { BOOK } from '../../fixtures/test-project';

let t: TestApp;
let projectId: string;
let keyId: string;
const chapterId = 'c'.repeat(32);

beforeEach(async () => {
  t = await buildTestApp();
  keyId = (await t.store.keys.findByHash(hashKey(t.key)))!.id;
  const created = await t.call('POST', '/api/v1/projects', {
    body: { title: 'The Lighthouse', voice_code: 'en_male_onyx_default' },
  });
  expect(created.status, created.text).toBe(201);
  projectId = created.json.result.project.id as string;
  await t.store.projects.putChapters([
    {
      id: chapterId,
      project_id: projectId,
      position: 0,
      title: 'Opening',
      kind: 'body',
      included: 1,
      exported_text: null,
    },
  ]);
  await t.store.projects.putSegments(
    BOOK[0]!.segments.map((s, i) => ({
      id: `${'s'.repeat(31)}${i}`,
      project_id: projectId,
      chapter_id: chapterId,
      position: i,
      text: s.text,
      emphasis: null,
      speaker: null,
      quotes: null,
      suggested_speaker: null,
      state: 'not_rendered' as const,
      audio_key: null,
      duration_ms: null,
      error: null,
      flag_note: null,
      checks: null,
      rendered_at: null,
    })),
  );
});
afterEach(() => t.close());

const balance = async () => (await t.store.keys.findById(keyId))!.balance_milli;

describe('project render routes', () => {
  it('queues a render charged as the API charges, lists, pauses, resumes and cancels it with its refund', async () => {
    const before = await balance();
    const price = BOOK[0]!.segments.reduce(
      (n, s) => n + costMilli(Array.from(s.text).length, findVoice('en_male_onyx_default')!, 'std-v1.6'),
      0,
    );
    const res = await t.call('POST', `/api/v1/projects/${projectId}/renders`, { body: {} });
    expect(res.status, res.text).toBe(201);
    const render = res.json.result;
    expect(render).toMatchObject({ status: 'queued', segments_total: 3, progress: 0, cost: price / 1000 });
    expect(before - (await balance())).toBe(price);
    const list = await t.call('GET', `/api/v1/projects/${projectId}/renders`);
    expect(list.json.result.items.map((r: { id: string }) => r.id)).toEqual([render.id]);
    const detail = await t.call('GET', `/api/v1/projects/${projectId}/chapters/${chapterId}/segments`);
    expect(detail.json.result.items.map((s: { state: string }) => s.state)).toEqual([
      'queued',
      'queued',
      'queued',
    ]);
    expect(
      (await t.call('POST', `/api/v1/projects/${projectId}/renders/${render.id}/pause`)).json.result.status,
    ).toBe('paused');
    expect(
      (await t.call('POST', `/api/v1/projects/${projectId}/renders/${render.id}/resume`)).json.result.status,
    ).toBe('queued');
    const cancelled = await t.call('POST', `/api/v1/projects/${projectId}/renders/${render.id}/cancel`);
    expect(cancelled.json.result).toMatchObject({ status: 'cancelled', cost: 0 });
    expect(await balance()).toBe(before);
    const after = await t.call('GET', `/api/v1/projects/${projectId}/chapters/${chapterId}/segments`);
    expect(after.json.result.items.map((s: { state: string }) => s.state)).toEqual([
      'not_rendered',
      'not_rendered',
      'not_rendered',
    ]);
    const again = await t.call('POST', `/api/v1/projects/${projectId}/renders/${render.id}/resume`);
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ status: 0, error_code: 'PROJECT_CONFLICT' });
  });

  it('refuses bad bodies, other keys and missing things in the error shape', async () => {
    const bad = await t.call('POST', `/api/v1/projects/${projectId}/renders`, {
      body: { chapter_ids: 'all' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
    const unknown = await t.call('POST', `/api/v1/projects/${projectId}/renders`, {
      body: { chapter_ids: ['nope'] },
    });
    expect(unknown.json).toMatchObject({ error_code: 'INVALID_FIELD' });
    const other = await t.newKey();
    const foreign = await t.call('POST', `/api/v1/projects/${projectId}/renders`, { key: other, body: {} });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toMatchObject({ error_code: 'PROJECT_NOT_FOUND' });
    const audio = await t.call('GET', `/api/v1/projects/${projectId}/segments/${'s'.repeat(31)}0/audio`);
    expect(audio.status).toBe(404);
    const voice = await t.call(
      'POST',
      `/api/v1/projects/${projectId}/segments/${'s'.repeat(31)}0/regenerate`,
      { body: { voice_code: 'xx_nobody' } },
    );
    expect(voice.json).toMatchObject({ error_code: 'UNKNOWN_VOICE' });
    const exp = await t.call('GET', `/api/v1/projects/${projectId}/exports/${'e'.repeat(32)}`);
    expect(exp.status).toBe(404);
    const format = await t.call('POST', `/api/v1/projects/${projectId}/exports`, { body: { format: 'wav' } });
    expect(format.json).toMatchObject({ error_code: 'INVALID_FIELD' });
  });
});
