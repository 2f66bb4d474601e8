/**
 * /api/v1/voice-packs through the app (no engine): the listing and who may read it, validation
 * and the session-only rules of install, cancel, remove, assignments and import, an import of
 * a .zip body and a background install from a local mirror with its progress events.
 */

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { VoicePackEvent } from '../../../electron/shared/voice-packs';
import { VOICES } from '../../../electron/shared/voices';
import { createVoiceLibrary } from '../../../electron/core/voices';
import { checkOnnxHeader } from '../../fixtures/onnx-header';
import { syntheticPiperPack, TEST_HTTP, VoiceMirror, zipOf } from '../../fixtures/voice-mirror';
import { eventually } from './helpers';
import type { HttpResult } from './http';
import { buildTestApp, type TestApp } from './inject';

const vais = syntheticPiperPack('vi_VN-vais1000-medium');
const lessac = syntheticPiperPack('en_US-lessac-medium');
let mirror: VoiceMirror;
let t: TestApp;
/** Cookie and X-Studio-Session: a signed-in call. */
let signedIn: Record<string, string>;

beforeAll(async () => {
  mirror = await VoiceMirror.start();
  mirror.serve(vais);
  mirror.serve(lessac);
});
afterAll(async () => mirror?.close());

beforeEach(async () => {
  t = await buildTestApp({
    voices: (dataDir) =>
      createVoiceLibrary({
        dataDir,
        validateModel: checkOnnxHeader,
        catalogue: [vais.entry, lessac.entry],
        mirror: mirror.url,
        http: TEST_HTTP,
        reserveBytes: 0,
      }),
  });
  ({ headers: signedIn } = await t.signIn());
});
afterEach(async () => t?.close());

const studio = (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) =>
  t.call(method, path, { key: null, headers: signedIn, ...(body !== undefined ? { body } : {}) });

function expectError(res: HttpResult, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.json).toMatchObject({ status: 0, error_code: code });
}

describe('GET /api/v1/voice-packs', () => {
  it('lists the catalogue and, per voice code, what speaks it now and with its default pack', async () => {
    for (const res of [
      await t.call('GET', '/api/v1/voice-packs'),
      await studio('GET', '/api/v1/voice-packs'),
    ]) {
      expect(res.status, res.text).toBe(200);
      const { packs, voices } = res.json.result;
      expect(packs).toEqual([
        expect.objectContaining({
          id: 'vi_VN-vais1000-medium',
          state: 'available',
          in_catalogue: true,
          size: vais.entry.size,
          quality: 'medium',
          languages: ['vi'],
          licence: 'CC-BY-4.0',
          sample_rate: 22050,
          installed_at: null,
        }),
        expect.objectContaining({ id: 'en_US-lessac-medium', state: 'available' }),
      ]);
      expect(voices).toHaveLength(VOICES.length);
      const byCode = new Map(voices.map((v: { voice_code: string }) => [v.voice_code, v]));
      expect(byCode.get('vi_female_kieunhi_mn')).toEqual({
        voice_code: 'vi_female_kieunhi_mn',
        engine: 'espeak',
        default_pack: 'vi_VN-vais1000-medium',
        engine_with_default: 'piper:vi_VN-vais1000-medium#0',
      });
      // Alice's list names Kokoro first; this catalogue has only her Piper voice.
      expect(byCode.get('en_female_alice_default')).toMatchObject({
        default_pack: 'en_US-lessac-medium',
        engine_with_default: 'piper:en_US-lessac-medium#0',
      });
      expect(byCode.get('kr_female_seo-yeon_default')).toMatchObject({
        engine: 'espeak',
        default_pack: null,
        engine_with_default: null,
      });
    }
  });

  it('answers 401 without a key or session', async () => {
    expectError(await t.call('GET', '/api/v1/voice-packs', { key: null }), 401, 'UNAUTHORIZED');
  });
});

describe('session-only voice-pack routes', () => {
  it('refuse bearer keys with 401', async () => {
    expectError(
      await t.call('POST', '/api/v1/voice-packs/install', { body: { id: vais.entry.id } }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await t.call('POST', `/api/v1/voice-packs/${vais.entry.id}/cancel`, { body: {} }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await t.call('POST', `/api/v1/voice-packs/${vais.entry.id}/remove`, { body: {} }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await t.call('PUT', '/api/v1/voice-packs/assignments/vi_female_kieunhi_mn', { body: { pack: null } }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await t.call('POST', '/api/v1/voice-packs/import', {
        raw: Buffer.from('PK'),
        headers: { 'content-type': 'application/zip' },
      }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('validate install and assignment bodies', async () => {
    expectError(await studio('POST', '/api/v1/voice-packs/install', {}), 400, 'INVALID_FIELD');
    expectError(await studio('POST', '/api/v1/voice-packs/install', { id: '../etc' }), 400, 'INVALID_FIELD');
    expectError(
      await studio('POST', '/api/v1/voice-packs/install', { id: vais.entry.id, x: 1 }),
      400,
      'INVALID_FIELD',
    );
    expectError(
      await studio('POST', '/api/v1/voice-packs/install', { id: 'nope-medium' }),
      404,
      'VOICE_PACK_NOT_FOUND',
    );
    const assign = (code: string, body: unknown) =>
      studio('PUT', `/api/v1/voice-packs/assignments/${code}`, body);
    expectError(await assign('xx_nobody', { pack: null }), 400, 'UNKNOWN_VOICE');
    expectError(await assign('vi_female_kieunhi_mn', {}), 400, 'INVALID_FIELD');
    expectError(
      await assign('vi_female_kieunhi_mn', { pack: 'x', model_id: 'std-v1' }),
      400,
      'INVALID_FIELD',
    );
    expectError(await assign('vi_female_kieunhi_mn', { pack: 'missing-pack' }), 404, 'VOICE_PACK_NOT_FOUND');
    // The pack does not speak the code's language.
    expectError(await assign('vi_female_kieunhi_mn', { pack: lessac.entry.id }), 400, 'INVALID_FIELD');
    expectError(
      await assign('vi_female_kieunhi_mn', { pack: vais.entry.id, speaker: 'nobody' }),
      400,
      'INVALID_FIELD',
    );
    const set = await assign('vi_female_kieunhi_mn', { pack: vais.entry.id, model_id: 'std-v1.5' });
    expect(set.status, set.text).toBe(200);
    // Not installed yet: eSpeak speaks it.
    expect(set.json.result).toEqual({ voice_code: 'vi_female_kieunhi_mn', engine: 'espeak' });
    expect((await assign('vi_female_kieunhi_mn', { pack: null, model_id: 'std-v1.5' })).status).toBe(200);
    expectError(
      await studio('POST', '/api/v1/voice-packs/not-installed/remove', {}),
      404,
      'VOICE_PACK_NOT_FOUND',
    );
  });

  it('imports a .zip body, lists it as installed, and removes it', async () => {
    const zip = zipOf([...vais.files.entries()]);
    const importZip = (type: string, raw: Buffer) =>
      t.call('POST', '/api/v1/voice-packs/import', {
        key: null,
        raw,
        headers: { ...signedIn, 'content-type': type },
      });
    expectError(await importZip('text/plain', zip), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(
      await importZip('application/zip', Buffer.from('not a zip at all')),
      422,
      'VOICE_PACK_INVALID',
    );
    const res = await importZip('application/zip', zip);
    expect(res.status, res.text).toBe(200);
    expect(res.json.result).toMatchObject({ id: vais.entry.id, state: 'installed', in_catalogue: true });
    const list = (await studio('GET', '/api/v1/voice-packs')).json.result;
    expect(list.packs[0]).toMatchObject({ id: vais.entry.id, state: 'installed' });
    expect(
      list.voices.find((v: { voice_code: string }) => v.voice_code === 'vi_female_kieunhi_mn'),
    ).toMatchObject({
      engine: 'piper:vi_VN-vais1000-medium#0',
    });
    // The temporary archive is gone.
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(`${t.dir}/voices`).filter((n) => n.startsWith('.import-'))).toEqual([]);
    const removed = await studio('POST', `/api/v1/voice-packs/${vais.entry.id}/remove`, {});
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json.result).toMatchObject({ id: vais.entry.id, state: 'available' });
  });

  it('installs in the background, one install per pack, with progress events; cancel stops one', async () => {
    const events: VoicePackEvent[] = [];
    t.jobs.events.on('voice-pack', (e) => events.push(e));
    const first = await studio('POST', '/api/v1/voice-packs/install', { id: lessac.entry.id });
    expect(first.status, first.text).toBe(200);
    expect(first.json.result).toMatchObject({ id: lessac.entry.id, state: 'installing' });
    await eventually(() => events.find((e) => e.id === lessac.entry.id && e.state !== 'installing'));
    expect(events.at(-1)).toEqual({ id: lessac.entry.id, state: 'installed' });
    expect(events[0]).toMatchObject({ state: 'installing', progress: { bytes: 0 } });
    const again = await studio('POST', '/api/v1/voice-packs/install', { id: lessac.entry.id });
    expect(again.json.result).toMatchObject({ state: 'installed' });

    // A held download: the second request answers the same install; cancel ends it.
    mirror.fault(`piper/${vais.entry.id}/${vais.entry.id}.onnx`, { kind: 'hold' });
    try {
      const started = await studio('POST', '/api/v1/voice-packs/install', { id: vais.entry.id });
      expect(started.json.result).toMatchObject({ state: 'installing' });
      await mirror.whenHeld();
      const second = await studio('POST', '/api/v1/voice-packs/install', { id: vais.entry.id });
      expect(second.json.result).toMatchObject({ state: 'installing' });
      expect(
        events.filter((e) => e.id === vais.entry.id && e.progress?.bytes === 0 && e.state === 'installing')
          .length,
      ).toBeGreaterThan(0);
      const cancelled = await studio('POST', `/api/v1/voice-packs/${vais.entry.id}/cancel`, {});
      expect(cancelled.status, cancelled.text).toBe(200);
      mirror.release();
      await eventually(() => events.find((e) => e.id === vais.entry.id && e.state === 'cancelled'));
      const list = (await studio('GET', '/api/v1/voice-packs')).json.result;
      expect(list.packs.find((p: { id: string }) => p.id === vais.entry.id)).toMatchObject({
        state: 'available',
      });
    } finally {
      mirror.fault(`piper/${vais.entry.id}/${vais.entry.id}.onnx`, null);
      mirror.release();
    }
  });
});
