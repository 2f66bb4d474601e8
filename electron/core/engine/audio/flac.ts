/**
 * FLAC output (OpenAI's `response_format: "flac"`): libFLAC compiled to WebAssembly
 * (`@mediabunny/flac-encoder`, in a worker thread of its own) and mediabunny's FLAC muxer in
 * append-only mode, lossless 16-bit at the input's sample rate. A live stream's STREAMINFO says
 * "total samples unknown" (0) and has no MD5; a file gets both at the end (`finalHeader`).
 */

import { createHash } from 'node:crypto';
import { registerFlacEncoder } from '@mediabunny/flac-encoder';
import { FlacOutputFormat } from 'mediabunny';
import { MuxedStream, PcmTrack, pcmTrackEncoder } from './muxed-stream';
import { encoderError, type StreamEncoder } from './stream-encoder';

/** Sample rates libFLAC's streamable subset and the encoder accept. */
const FLAC_RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000];
/** "fLaC", the metadata block header, then STREAMINFO's 34 bytes. */
const STREAMINFO_END = 4 + 4 + 34;
/** Offset of the byte holding the top 4 bits of the 36-bit total samples (low nibble). */
const TOTAL_SAMPLES_OFFSET = 21;
/** Offset of the MD5 of the unencoded audio. */
const MD5_OFFSET = 26;

/** A FLAC stream from mono 16-bit PCM at `sampleRate` Hz. */
export async function createFlacStreamEncoder(sampleRate: number): Promise<StreamEncoder> {
  if (!FLAC_RATES.includes(sampleRate)) throw encoderError('FLAC', new Error(`no FLAC at ${sampleRate} Hz`));
  registerFlacEncoder();
  const stream = new MuxedStream('FLAC', new FlacOutputFormat({ appendOnly: true }));
  const track = new PcmTrack(stream, sampleRate, { codec: 'flac' });
  try {
    await stream.output.start();
  } catch (error) {
    throw encoderError('FLAC', error);
  }
  const inner = pcmTrackEncoder('flac', stream, track, sampleRate);

  // What the final header needs: the stream's first bytes, the sample count and the MD5 of
  // the samples as little-endian 16-bit bytes (RFC 9639 §8.2).
  const md5 = createHash('md5');
  let samples = 0;
  let start = new Uint8Array(0);
  let digest: Uint8Array | undefined;
  const keepStart = (bytes: Uint8Array) => {
    if (start.length < STREAMINFO_END && bytes.length > 0) {
      const joined = new Uint8Array(Math.min(STREAMINFO_END, start.length + bytes.length));
      joined.set(start);
      joined.set(bytes.subarray(0, joined.length - start.length), start.length);
      start = joined;
    }
    return bytes;
  };

  return {
    ...inner,
    async encode(pcm) {
      md5.update(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
      samples += pcm.length;
      return keepStart(await inner.encode(pcm));
    },
    async finish() {
      const rest = keepStart(await inner.finish());
      digest = md5.digest();
      return rest;
    },
    finalHeader() {
      if (!digest || start.length < STREAMINFO_END || samples >= 2 ** 36) return undefined;
      const header = start.slice(0, STREAMINFO_END);
      header[TOTAL_SAMPLES_OFFSET] = (header[TOTAL_SAMPLES_OFFSET]! & 0xf0) | Math.floor(samples / 2 ** 32);
      new DataView(header.buffer).setUint32(TOTAL_SAMPLES_OFFSET + 1, samples % 2 ** 32, false);
      header.set(digest, MD5_OFFSET);
      return { position: 0, bytes: header };
    },
  };
}
