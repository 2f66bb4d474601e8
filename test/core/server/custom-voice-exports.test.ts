/**
 * Audiobook exports (POST /api/v1/exports) with a custom voice as voice_code, on the real engine,
 * a real store and real HTTP: priced as its catalogue voice, rendered with its prosody, from the
 * definition it had when accepted (edits and deletes after that change nothing), and an unknown
 * or deleted code refused with 400 UNKNOWN_VOICE in the API's error shape.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestCore, type TestCore } from './helpers';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => {
  await t?.close();
});

const BASE_CODE = 'en_female_nova_default';
const BOOK = `# One

${'The lamp was lit at dusk, and the road below the hill was quiet again. '.repeat(6)}

# Two

${'Morning came over the river, and the mill began to turn once more. '.repeat(6)}
`;
const LONG = Array.from(
  { length: 6 },
  (_, i) =>
    `# Chapter ${i + 1}\n\n${'The river ran on past the mill and under the old stone bridge. '.repeat(40)}`,
).join('\n\n');

const voiceBody = (speed: number) => ({
  code: 'fast-nova',
  name: 'Nova, fast',
  base: { kind: 'code', voice_code: BASE_CODE },
  prosody: { speed },
});

async function waitFinished(id: string, key: string) {
  return eventually(async () => {
    const res = await t.call('GET', `/api/v1/exports/${id}`, { key });
    const status = res.json.result.status as string;
    return status === 'SUCCESS' || status === 'FAILURE' ? res.json.result : undefined;
  }, 120_000);
}

describe('exports with a custom voice', () => {
  it('render from the definition accepted, at its speed, priced as its catalogue voice', async () => {
    // The voice is the key's own: the key that exports it made it.
    const key = await t.newKey();
    expect((await t.call('POST', '/api/v1/custom-voices', { key, body: voiceBody(1.5) })).status).toBe(201);

    // A long export first: exports run one at a time, so the custom one waits in the queue
    // while its voice is edited and then deleted.
    const blocker = await t.call('POST', '/api/v1/exports', {
      key,
      body: { input_text: LONG, voice_code: BASE_CODE, format: 'mp3' },
    });
    expect(blocker.status, blocker.text).toBe(200);
    const custom = await t.call('POST', '/api/v1/exports', {
      key,
      body: { input_text: BOOK, voice_code: 'fast-nova', format: 'mp3' },
    });
    expect(custom.status, custom.text).toBe(200);
    expect(custom.json.result).toMatchObject({ status: 'new', voice_code: 'fast-nova' });

    const edited = await t.call('PUT', '/api/v1/custom-voices/fast-nova', { key, body: voiceBody(0.5) });
    expect(edited.status, edited.text).toBe(200);
    expect((await t.call('DELETE', '/api/v1/custom-voices/fast-nova', { key })).status).toBe(204);
    const still = await t.call('GET', `/api/v1/exports/${custom.json.result.export_id}`, { key });
    expect(still.json.result.status).toBe('new');
    await t.call('POST', `/api/v1/exports/${blocker.json.result.export_id}/cancel`, { key });

    const plain = await t.call('POST', '/api/v1/exports', {
      key,
      body: { input_text: BOOK, voice_code: BASE_CODE, format: 'mp3' },
    });
    expect(plain.status, plain.text).toBe(200);
    expect(custom.json.result.cost).toBe(plain.json.result.cost);
    expect(custom.json.result.cost).toBeGreaterThan(0);

    const fast = await waitFinished(custom.json.result.export_id, key);
    const base = await waitFinished(plain.json.result.export_id, key);
    expect(fast.status, fast.error_message).toBe('SUCCESS');
    expect(base.status, base.error_message).toBe('SUCCESS');
    const ratio = base.duration_ms / fast.duration_ms;
    // Speed 1.5 as accepted (the edit to 0.5 would make it twice as long as the base instead).
    expect(ratio).toBeGreaterThan(1.3);
    expect(ratio).toBeLessThan(1.7);
    expect(fast.chapters.map((c: { title: string }) => c.title)).toEqual(['One', 'Two']);
  }, 180_000);

  it('refuses a deleted or unknown custom code with 400 UNKNOWN_VOICE and charges nothing', async () => {
    const key = await t.newKey();
    const before = (await t.call('GET', '/api/v1/usage', { key })).json.result.balance_milli;
    expect(
      (await t.call('POST', '/api/v1/custom-voices', { body: { ...voiceBody(1), code: 'gone-voice' } }))
        .status,
    ).toBe(201);
    expect((await t.call('DELETE', '/api/v1/custom-voices/gone-voice')).status).toBe(204);
    for (const code of ['gone-voice', 'never-was']) {
      const res = await t.call('POST', '/api/v1/exports', {
        key,
        body: { input_text: BOOK, voice_code: code },
      });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ status: 0, error_code: 'UNKNOWN_VOICE' });
      expect(res.json.error_message).toContain(code);
    }
    expect((await t.call('GET', '/api/v1/usage', { key })).json.result.balance_milli).toBe(before);
  });
});
