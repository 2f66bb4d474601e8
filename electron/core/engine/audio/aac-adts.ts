/**
 * AAC-LC in ADTS frames (OpenAI's `response_format: "aac"`): FFmpeg's AAC encoder compiled to
 * WebAssembly (`@mediabunny/aac-encoder`, which runs it in a worker thread of its own) and
 * mediabunny's ADTS muxer, at the input's sample rate. ADTS cannot state the encoder delay,
 * so a decoder plays 1024 samples of priming silence first and up to one frame of padding last.
 */

import { registerAacEncoder } from '@mediabunny/aac-encoder';
import { AdtsOutputFormat } from 'mediabunny';
import { MuxedStream, PcmTrack, pcmTrackEncoder } from './muxed-stream';
import { encoderError, type StreamEncoder } from './stream-encoder';

/** Bits per second: clear mono speech at the engine's rates. */
const BITRATE = 64000;
/** Sample rates AAC can carry. */
const AAC_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000];

/** An ADTS AAC stream from mono PCM at `sampleRate` Hz. */
export async function createAacStreamEncoder(sampleRate: number): Promise<StreamEncoder> {
  if (!AAC_RATES.includes(sampleRate)) throw encoderError('AAC', new Error(`no AAC at ${sampleRate} Hz`));
  registerAacEncoder();
  const stream = new MuxedStream('AAC', new AdtsOutputFormat());
  const track = new PcmTrack(stream, sampleRate, { codec: 'aac', bitrate: BITRATE });
  try {
    await stream.output.start();
  } catch (error) {
    throw encoderError('AAC', error);
  }
  return pcmTrackEncoder('aac', stream, track, sampleRate);
}
