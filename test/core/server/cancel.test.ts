import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestCore, type TestCore } from './helpers';

describe('POST /api/v1/tts/<id>/cancel', () => {
  let t: TestCore;
  beforeAll(async () => {
    t = await startTestCore();
  });
  afterAll(async () => t?.close());

  const balance = async () => (await t.call('GET', '/api/v1/usage')).json.result.balance_milli as number;

  it('cancels a queued request: FAILURE with CANCELLED, credits refunded, never rendered', async () => {
    const before = await balance();
    t.core.jobs.runner.pause();
    try {
      const submit = await t.call('POST', '/api/v1/tts', {
        body: { input_text: 'Never spoken.', voice_code: 'en_female_emily_us' },
      });
      const id = submit.json.result.request_id as string;
      expect(await balance()).toBeLessThan(before);
      const res = await t.call('POST', `/api/v1/tts/${id}/cancel`, { body: {} });
      expect(res.status).toBe(200);
      expect(res.json.result).toMatchObject({ status: 'FAILURE', error_code: 'CANCELLED', audio_link: null });
      expect(await balance()).toBe(before);
      const ledger = (await t.call('GET', '/api/v1/usage')).json.result.ledger;
      expect(ledger[0]).toMatchObject({ kind: 'refund', request_id: id });
    } finally {
      t.core.jobs.runner.resume();
    }
  });

  it('cancels a running request promptly', async () => {
    const before = await balance();
    const text =
      'The lighthouse keeper climbed the stairs at dusk, and the sea rolled in long grey lines. '.repeat(400);
    const submit = await t.call('POST', '/api/v1/tts', {
      body: { input_text: text, voice_code: 'en_female_emily_us' },
    });
    const id = submit.json.result.request_id as string;
    await eventually(async () =>
      (await t.call('GET', `/api/v1/tts/${id}`)).json.result.status === 'processing' ? true : undefined,
    );
    const res = await t.call('POST', `/api/v1/tts/${id}/cancel`, { body: {} });
    expect(res.json.result).toMatchObject({ status: 'FAILURE', error_code: 'CANCELLED' });
    expect(await balance()).toBe(before);
    // The render stopped where it was: the runner let go of it and left no audio, whole or partial.
    await eventually(() => (t.core.jobs.runner.running === 0 ? true : undefined));
    expect(readdirSync(join(t.dir, 'audio')).filter((name) => name.startsWith(id))).toEqual([]);
  });

  it('cancels a request claimed a moment ago, before its render has started', async () => {
    // The row says processing as soon as the claim commits; the render starts a moment later.
    // Held open here: the claim has committed, and the runner has not started the render yet.
    const requests = t.core.store.requests;
    const claim = requests.claim.bind(requests);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let claimed!: () => void;
    const committed = new Promise<void>((resolve) => (claimed = resolve));
    requests.claim = async (...args) => {
      const row = await claim(...args);
      claimed();
      await held;
      return row;
    };
    try {
      const before = await balance();
      const submit = await t.call('POST', '/api/v1/tts', {
        body: { input_text: 'Claimed, then cancelled before a word.', voice_code: 'en_female_emily_us' },
      });
      const id = submit.json.result.request_id as string;
      await committed;
      expect((await t.call('GET', `/api/v1/tts/${id}`)).json.result.status).toBe('processing');
      expect(t.core.jobs.runner.isRunning(id)).toBe(false);
      const cancelled = t.call('POST', `/api/v1/tts/${id}/cancel`, { body: {} });
      setTimeout(release, 100);
      const res = await cancelled;
      expect(res.json.result).toMatchObject({ status: 'FAILURE', error_code: 'CANCELLED' });
      expect(await balance()).toBe(before);
    } finally {
      requests.claim = claim;
      release();
    }
  });

  it('leaves a finished request as it is, and other keys cannot cancel it', async () => {
    const submit = await t.call('POST', '/api/v1/tts', {
      body: { input_text: 'Short.', voice_code: 'en_female_nova_default' },
    });
    const id = submit.json.result.request_id as string;
    await t.core.jobs.whenFinished(id);
    const res = await t.call('POST', `/api/v1/tts/${id}/cancel`, { body: {} });
    expect(res.json.result.status).toBe('SUCCESS');
    const other = await t.call('POST', `/api/v1/tts/${id}/cancel`, { body: {}, key: await t.newKey() });
    expect(other.json.error_code).toBe('REQUEST_NOT_FOUND');
  });
});
