/**
 * Text with nothing to speak (punctuation, symbols, emoji, spaces, chapter lines) is refused at
 * submit over real HTTP: a 400 NOTHING_TO_SPEAK naming the field, no request stored, nothing
 * charged, nothing refunded. The engine's rule, applied before the money moves.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCore, type TestCore } from './helpers';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => t?.close());

describe('nothing to speak', () => {
  it.each([
    ['punctuation', '…!?'],
    ['dashes and spaces', '— —'],
    ['emoji and an ellipsis', '🙂 …'],
    ['symbols and lines', '*** \n\n ---\n\t¡¿'],
    ['a chapter line over punctuation', '[chapter: The Storm]\n…!'],
    ['SSML whose text is punctuation', '<speak><p>…!?</p><break time="300ms"/></speak>'],
  ])('%s: 400 NOTHING_TO_SPEAK, no request, no charge', async (_name, input_text) => {
    const key = await t.newKey(50_000);
    const usage = async () => (await t.call('GET', '/api/v1/usage', { key })).json.result;
    const before = await usage();
    const res = await t.call('POST', '/api/v1/tts', {
      body: { input_text, voice_code: 'en_female_emily_us' },
      key,
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: 0, error_code: 'NOTHING_TO_SPEAK' });
    expect(res.json.error_message).toMatch(/input_text has nothing to speak/);
    const after = await usage();
    expect(after.balance_milli).toBe(before.balance_milli);
    expect(after.ledger).toEqual(before.ledger);
    const list = await t.call('GET', '/api/v1/tts?page=1&page_size=10', { key });
    expect(list.status).toBe(200);
    expect(list.json.result.total).toBe(0);
  });

  it('the same from the OpenAI-compatible route', async () => {
    const res = await t.call('POST', '/v1/audio/speech', {
      body: { model: 'tts-1', input: '?!… —', voice: 'alloy' },
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/nothing to speak/);
  });

  it('one letter or one digit is enough, in any script', async () => {
    for (const input_text of ['A!', '7…', 'Ừ…', '— Vâng —']) {
      const res = await t.call('POST', '/api/v1/tts', {
        body: { input_text, voice_code: 'vi_female_kieunhi_mn' },
      });
      expect(res.status, input_text).toBe(200);
      await t.core.jobs.whenFinished(res.json.result.request_id as string);
      const detail = await t.call('GET', `/api/v1/tts/${res.json.result.request_id as string}`);
      expect(detail.json.result.status, input_text).toBe('SUCCESS');
    }
  });
});
