/**
 * Raw PCM output, as OpenAI's `response_format: "pcm"`: 16-bit little-endian mono at 24 kHz,
 * no header, resampled from the engine's rate.
 */

import { createResampler } from './resampler';
import { AUDIO_CONTENT_TYPES, PCM_RATE, type StreamEncoder } from './stream-encoder';
import { pcmToBytes } from './wav';

/**
 * A raw s16le stream at 24000 Hz from PCM at `sampleRate` Hz (passed through when equal).
 * Every byte returned is final; the resampler's last samples come with `finish`.
 */
export async function createPcmStreamEncoder(sampleRate: number): Promise<StreamEncoder> {
  const resampler = await createResampler(sampleRate, PCM_RATE);
  return {
    format: 'pcm',
    contentType: AUDIO_CONTENT_TYPES.pcm,
    outputRate: PCM_RATE,
    encode: async (pcm) => pcmToBytes(resampler.process(pcm)),
    finish: async () => pcmToBytes(resampler.flush()),
    close: async () => resampler.close(),
  };
}
