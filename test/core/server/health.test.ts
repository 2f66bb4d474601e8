/**
 * GET /api/v1/health: without a key only ok (no host name, pid or request ids); with a key or
 * the studio's session the instance and the queue; the Host check still applies. Through the
 * app (no engine).
 */

import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_BACKEND } from '../../fixtures/test-store';
import { buildTestApp, type TestApp } from './inject';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('GET /api/v1/health', () => {
  it('answers a stranger (no key) only that it is ok: no host name, process or request ids', async () => {
    const res = await t.call('GET', '/api/v1/health', { key: null });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 1, result: { ok: true } });
    for (const leak of [hostname(), String(process.pid), t.jobs.instanceId])
      expect(res.text).not.toContain(leak);
  });

  it("answers the studio's session in full", async () => {
    const session = await t.signIn();
    const res = await t.call('GET', '/api/v1/health', { key: null, headers: session.headers });
    expect(res.status).toBe(200);
    expect(res.json.result.instance).toMatchObject({ id: t.jobs.instanceId, pid: process.pid });
  });

  it('refuses a wrong key rather than answering as to a stranger', async () => {
    const res = await t.call('GET', '/api/v1/health', { key: 'nsk_wrong-key-0123456789abcdef0123456789' });
    expect(res.status).toBe(401);
  });

  it('answers a key with the instance and the queue totals', async () => {
    const res = await t.call('GET', '/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/json/);
    expect(res.json).toMatchObject({ status: 1, result: { ok: true, queued: 0, running: 0, paused: false } });
    expect(res.json.result.uptime_s).toBeGreaterThanOrEqual(0);
    // Which instance answered, on which database, and what it renders now (nothing).
    expect(res.json.result.instance).toEqual({
      id: t.jobs.instanceId,
      host: hostname(),
      pid: process.pid,
      database: TEST_BACKEND,
      rendering: [],
    });
  });

  it('counts requests waiting or running, of every key', async () => {
    t.jobs.runner.pause();
    const other = await t.newKey();
    for (const key of [t.key, other, other]) {
      const res = await t.call('POST', '/api/v1/tts', {
        key,
        body: { input_text: 'Counted while paused.', voice_code: 'en_female_emily_us' },
      });
      expect(res.status).toBe(200);
    }
    const res = await t.call('GET', '/api/v1/health', { key: other });
    expect(res.json.result).toMatchObject({ queued: 3, paused: true });
    t.jobs.runner.resume();
  });

  it('refuses a foreign Host like every other route', async () => {
    const res = await t.call('GET', '/api/v1/health', { key: null, headers: { host: 'evil.example' } });
    expect(res.status).toBe(403);
    expect(res.json.status).toBe(0);
  });
});
