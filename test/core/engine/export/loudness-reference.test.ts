/**
 * The loudness meter against figures it gave before its loop was split into parts (K-weighting,
 * gating, noise floor, true peak), stored in test/fixtures/loudness-reference.json: every figure
 * of every kind of measurement must stay the same to the last bit, on speech-like audio with
 * silences and full-scale peaks at three sample rates, fed in random chunks, and on inputs shorter
 * than a gating block or silent. (Regenerate the file only for an intended change of a figure.)
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createLoudnessMeter,
  type LoudnessMeasurement,
  type LoudnessMeterOptions,
} from '../../../../electron/core/engine/export/loudness';
import { random } from '../../../fixtures/random';
import { speechLike } from '../../../fixtures/speech-like';

interface ReferenceCase {
  name: string;
  options: LoudnessMeterOptions;
  result: LoudnessMeasurement;
}

/**
 * `pcm` at half its level with a little noise (±2) added: its full-scale clicks then leave room for
 * a true peak above the sample peak, and its pauses a noise floor above digital silence.
 */
function quieter(pcm: Int16Array, seed: number): Int16Array {
  const rand = random(seed);
  return pcm.map((v) => Math.round(v / 2 + (rand() - 0.5) * 4));
}

/** The inputs, by case name prefix: what the stored figures were measured on. */
function referenceInputs(): { name: string; pcm: Int16Array; rate: number; seed: number }[] {
  return [
    { name: 'speech 22050', pcm: speechLike(12, 22050, 7), rate: 22050, seed: 1 },
    { name: 'speech 44100', pcm: speechLike(6, 44100, 8), rate: 44100, seed: 2 },
    { name: 'speech 48000', pcm: speechLike(6, 48000, 9), rate: 48000, seed: 3 },
    { name: 'quiet speech 44100', pcm: quieter(speechLike(6, 44100, 11), 12), rate: 44100, seed: 6 },
    // A quarter of the rate at ±45°: every sample at 0.7 of the tone's peak, which lies between them.
    {
      name: 'tone 48000',
      pcm: Int16Array.from({ length: 96000 }, (_, i) =>
        Math.round(20000 * Math.sin((Math.PI * i) / 2 + Math.PI / 4)),
      ),
      rate: 48000,
      seed: 7,
    },
    { name: 'short 22050', pcm: speechLike(0.3, 22050, 10), rate: 22050, seed: 4 },
    { name: 'silence 22050', pcm: new Int16Array(22050), rate: 22050, seed: 5 },
  ];
}

const REFERENCE_OPTIONS: [string, LoudnessMeterOptions][] = [
  ['whole', {}],
  ['no true peak', { truePeak: false }],
  ['lufs only', { only: 'lufs' }],
  ['rms only', { only: 'rms' }],
];

/** `pcm` measured with `options`, fed in chunks of random sizes (0 to 5000 samples). */
function measureInChunks(
  pcm: Int16Array,
  rate: number,
  options: LoudnessMeterOptions,
  seed: number,
): LoudnessMeasurement {
  const meter = createLoudnessMeter(rate, options);
  const rand = random(seed);
  for (let i = 0; i < pcm.length;) {
    const size = Math.floor(rand() * 5001);
    meter.add(pcm.subarray(i, i + size));
    i += size;
  }
  return meter.result();
}

const reference = JSON.parse(
  readFileSync(new URL('../../../fixtures/loudness-reference.json', import.meta.url), 'utf8'),
) as { cases: ReferenceCase[] };

describe('loudness meter: the same figures as its stored reference, bit for bit', () => {
  const inputs = referenceInputs();
  it('has a stored figure for every input and kind of measurement', () => {
    expect(reference.cases.map((c) => c.name)).toEqual(
      inputs.flatMap((input) => REFERENCE_OPTIONS.map(([kind]) => `${input.name}, ${kind}`)),
    );
  });

  it.each(reference.cases.map((c) => [c.name, c] as const))('%s', (_, stored) => {
    const input = inputs.find((i) => stored.name.startsWith(`${i.name},`))!;
    expect(measureInChunks(input.pcm, input.rate, stored.options, input.seed)).toEqual(stored.result);
  });
});
