/**
 * SSML `<voice name>` naming a custom voice, on a real core (engine, database, HTTP on
 * 127.0.0.1): the part it speaks takes its prosody (measured against the same document with
 * `<prosody rate>`), and the document is checked at submit (a deleted name is SSML_INVALID).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speechSpanMs, wavSamples } from '../../fixtures/audio-analysis';
import { fetchUrl, startTestCore, type TestCore } from './helpers';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => {
  await t?.close();
});

const BASE_CODE = 'en_male_onyx_default';
const FIRST = 'The lighthouse keeper climbed the stairs at dusk, and the sea rolled in long grey lines.';
const SECOND = 'Far below, the harbour lamps came on one by one, and the boats turned slowly home.';
const doc = (second: string) => `<speak><p>${FIRST}</p><p>${second}</p></speak>`;

async function spanOf(inputText: string): Promise<{ ms: number; requestId: string }> {
  const res = await t.call('POST', '/api/v1/tts', {
    body: { input_text: inputText, voice_code: BASE_CODE, audio_type: 'wav', response_type: 'direct' },
  });
  expect(res.status, res.text).toBe(200);
  const { pcm, sampleRate } = wavSamples((await fetchUrl(res.json.result.audio_link, 'GET')).body);
  return { ms: speechSpanMs(pcm, sampleRate), requestId: res.json.result.request_id };
}

describe('SSML <voice name> with a custom voice', () => {
  it('speaks its part with its prosody; a deleted one is refused at submit', async () => {
    const created = await t.call('POST', '/api/v1/custom-voices', {
      body: {
        code: 'quick-onyx',
        name: 'Onyx, quick',
        base: { kind: 'code', voice_code: BASE_CODE },
        prosody: { speed: 2 },
      },
    });
    expect(created.status, created.text).toBe(201);

    const plain = await spanOf(doc(SECOND));
    const custom = await spanOf(doc(`<voice name="quick-onyx">${SECOND}</voice>`));
    const prosody = await spanOf(doc(`<prosody rate="200%">${SECOND}</prosody>`));
    console.log(
      `SSML: plain ${plain.ms} ms, custom part at speed 2 ${custom.ms} ms, <prosody rate="200%"> ${prosody.ms} ms`,
    );
    // The second half spoken twice as fast: about a quarter shorter overall.
    expect(custom.ms).toBeLessThan(plain.ms * 0.85);
    expect(Math.abs(custom.ms / prosody.ms - 1)).toBeLessThan(0.08);

    const detail = (await t.call('GET', `/api/v1/tts/${custom.requestId}`)).json.result;
    expect(detail).toMatchObject({ status: 'SUCCESS', voice_code: BASE_CODE });
    // Its definition was kept with the request, as accepted.
    const row = await t.core.store.requests.get(custom.requestId);
    expect(JSON.parse(row!.custom_voice!)).toMatchObject({
      voice: null,
      ssml_voices: { 'quick-onyx': { code: 'quick-onyx', voice_code: BASE_CODE, prosody: { speed: 2 } } },
    });

    // Deleted now: a new document naming it is refused at submit, in the API's error shape.
    expect((await t.call('DELETE', '/api/v1/custom-voices/quick-onyx')).status).toBe(204);
    const refused = await t.call('POST', '/api/v1/tts', {
      body: { input_text: doc(`<voice name="quick-onyx">${SECOND}</voice>`), voice_code: BASE_CODE },
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ status: 0, error_code: 'SSML_INVALID' });
    expect(refused.json.error_message).toContain('quick-onyx');
  }, 120_000);

  it('reads its part with its own lexicon', async () => {
    const created = await t.call('POST', '/api/v1/custom-voices', {
      body: {
        code: 'wordy-onyx',
        name: 'Onyx, wordy',
        base: { kind: 'code', voice_code: BASE_CODE },
        lexicon: [
          { match: 'harbour', kind: 'respell', replacement: 'harbour and the old stone harbour wall' },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const plain = await spanOf(doc(SECOND));
    const wordy = await spanOf(doc(`<voice name="wordy-onyx">${SECOND}</voice>`));
    console.log(`SSML lexicon: plain ${plain.ms} ms, custom part with its respelling ${wordy.ms} ms`);
    expect(wordy.ms).toBeGreaterThan(plain.ms + 800);
  }, 120_000);
});
