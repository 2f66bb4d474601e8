/**
 * Custom voices over neural bases, on a real core with synthetic real-format models: a Kokoro
 * blend and a Kokoro voice of an installed export, a Piper pack's speaker, and a pack that is
 * not installed (its voice_code speaks, and the request says so).
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wavSamples } from '../../fixtures/audio-analysis';
import { speakingPiperPack } from '../../fixtures/neural-pack';
import { buildKokoroModel } from '../../fixtures/onnx/build-models';
import { kokoroVocab, KOKORO_STYLE_FLOATS, KOKORO_VOICE_ROWS } from '../../fixtures/onnx/kokoro-data';
import { framePeaksHz } from '../../fixtures/onnx/tone';
import { fetchUrl, startTestCore, type TestCore } from './helpers';

const TEXT = 'The lighthouse keeper climbed the stairs at dusk.';
/** First style value per voice: the synthetic model's tone is 100 Hz higher per unit. */
const FIRST: Record<string, number> = { af_bella: 0.9, af_sky: -0.6 };

let t: TestCore;
let kokoroPack: string;
let piperPack: string;

beforeAll(async () => {
  t = await startTestCore();
  const folder = join(t.dir, 'kokoro-export');
  mkdirSync(join(folder, 'onnx'), { recursive: true });
  mkdirSync(join(folder, 'voices'), { recursive: true });
  writeFileSync(join(folder, 'onnx', 'model_quantized.onnx'), buildKokoroModel());
  writeFileSync(join(folder, 'tokenizer.json'), JSON.stringify({ model: { vocab: kokoroVocab() } }));
  for (const [name, first] of Object.entries(FIRST)) {
    const data = Float32Array.from({ length: KOKORO_VOICE_ROWS * KOKORO_STYLE_FLOATS }, (_, i) =>
      i % KOKORO_STYLE_FLOATS === 0 ? first : Math.sin(i * first) * 0.01,
    );
    writeFileSync(join(folder, 'voices', `${name}.bin`), new Uint8Array(data.buffer));
  }
  kokoroPack = (await t.core.voices.install(folder)).manifest.id;
  const piper = speakingPiperPack('en_US-custom-medium');
  const piperFolder = join(t.dir, 'piper');
  mkdirSync(piperFolder);
  for (const [path, bytes] of piper.files) writeFileSync(join(piperFolder, path), bytes);
  piperPack = (await t.core.voices.install(join(piperFolder, 'en_US-custom-medium.onnx'))).manifest.id;
});
afterAll(async () => {
  await t?.close();
});

async function create(code: string, base: unknown, voiceCode?: string) {
  const res = await t.call('POST', '/api/v1/custom-voices', {
    body: { code, name: code, base, ...(voiceCode ? { voice_code: voiceCode } : {}) },
  });
  expect(res.status, res.text).toBe(201);
  return res.json.result;
}

async function speak(voice: string) {
  const res = await t.call('POST', '/api/v1/tts', {
    body: { input_text: TEXT, voice_code: voice, audio_type: 'wav', response_type: 'direct' },
  });
  expect(res.status, res.text).toBe(200);
  const detail = (await t.call('GET', `/api/v1/tts/${res.json.result.request_id}`)).json.result;
  return { detail, ...wavSamples((await fetchUrl(res.json.result.audio_link, 'GET')).body) };
}

/** Median over matching frames of how much higher `a`'s tone is than `b`'s. */
function toneRiseHz(a: Int16Array, b: Int16Array, sampleRate: number): number {
  const pa = framePeaksHz(a, sampleRate);
  const pb = framePeaksHz(b, sampleRate);
  const rises = pa.flatMap((hz, i) => (hz > 0 && (pb[i] ?? 0) > 0 ? [hz - pb[i]!] : []));
  rises.sort((x, y) => x - y);
  expect(rises.length).toBeGreaterThan(10);
  return rises[Math.floor(rises.length / 2)]!;
}

describe('custom voices over neural bases', () => {
  it('a Kokoro blend speaks as the blend; a Kokoro voice of the pack as that voice', async () => {
    await create(
      'bella-sky',
      {
        kind: 'kokoro_blend',
        parts: [
          { voice: 'af_bella', weight: 2 },
          { voice: 'af_sky', weight: 1 },
        ],
      },
      'en_female_emily_us',
    );
    await create('just-sky', { kind: 'pack', pack_id: kokoroPack, speaker: 'af_sky' }, 'en_female_emily_us');
    const blend = await speak('bella-sky');
    const sky = await speak('just-sky');
    expect(blend.detail.engine).toBe(`kokoro:${kokoroPack}#af_bella(2)+af_sky(1)`);
    expect(sky.detail.engine).toMatch(new RegExp(`^kokoro:${kokoroPack}#af_sky`));
    expect(blend.sampleRate).toBe(24000);
    const mean = (2 / 3) * FIRST.af_bella! + (1 / 3) * FIRST.af_sky!;
    const rise = toneRiseHz(blend.pcm, sky.pcm, 24000);
    console.log(
      `blend over af_sky: +${rise.toFixed(0)} Hz (expected ${(100 * (mean - FIRST.af_sky!)).toFixed(0)})`,
    );
    expect(rise).toBeCloseTo(100 * (mean - FIRST.af_sky!), -1);
    expect(blend.detail.warnings ?? []).toEqual([]);
  });

  it("a Piper pack's speaker speaks as that pack", async () => {
    await create('piper-one', { kind: 'pack', pack_id: piperPack }, 'en_female_emily_us');
    const spoken = await speak('piper-one');
    expect(spoken.detail.engine).toMatch(new RegExp(`^piper:${piperPack}`));
    expect(spoken.sampleRate).toBe(22050);
  });

  it('a pack of the catalogue not installed: its voice_code speaks, and the request says so', async () => {
    await create('not-here', { kind: 'pack', pack_id: 'vi_VN-vais1000-medium' }, 'vi_female_kieunhi_mn');
    const spoken = await speak('not-here');
    expect(spoken.detail).toMatchObject({
      voice_code: 'not-here',
      spoken_voice_code: 'vi_female_kieunhi_mn',
      engine: 'espeak',
    });
    expect(spoken.detail.warnings).toEqual([
      'Custom voice not-here: its pack vi_VN-vais1000-medium is not installed; vi_female_kieunhi_mn spoke instead.',
    ]);
  });

  it('refuses a speaker the pack does not have', async () => {
    const res = await t.call('POST', '/api/v1/custom-voices', {
      body: {
        code: 'no-speaker',
        name: 'x',
        base: { kind: 'pack', pack_id: kokoroPack, speaker: 'am_echo' },
        voice_code: 'en_female_emily_us',
      },
    });
    expect(res.status).toBe(400);
    expect(res.json.error_message).toContain('has no Kokoro voice "am_echo"');
  });
});
