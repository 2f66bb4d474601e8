/**
 * RIFF WAVE output (PCM, 16-bit, mono): a streaming file sink, a live stream encoder, an
 * in-memory encoder and a header parser for checks.
 */

import { AppError } from '../../../shared/errors';
import { StagedFile } from '../../platform/staged-file';
import type { AudioSink, AudioSinkResult } from './audio-sink';
import { AUDIO_CONTENT_TYPES, type StreamEncoder } from './stream-encoder';

/** Size of the canonical header written here: RIFF + "fmt " (16 bytes) + "data" chunk headers. */
export const WAV_HEADER_BYTES = 44;

/**
 * Largest data chunk a RIFF file can describe: its 32-bit RIFF size counts the 36 header
 * bytes after it too. At 22050 Hz mono 16-bit this is about 27 h 3 min of audio.
 */
const WAV_MAX_DATA_BYTES = 0xffffffff - (WAV_HEADER_BYTES - 8);

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Size written in a live stream's header, whose length is not known when it is sent: the
 * largest value, as OpenAI's endpoint sends it. ffmpeg then reads samples up to the end of
 * the stream without an error.
 */
const UNKNOWN_SIZE = 0xffffffff;

/**
 * The 44-byte header of a 16-bit mono PCM WAV file holding `dataBytes` bytes of samples;
 * 'unknown' for a live stream (RIFF and data sizes 0xFFFFFFFF).
 */
function wavHeader(sampleRate: number, dataBytes: number | 'unknown'): Uint8Array {
  const header = new Uint8Array(WAV_HEADER_BYTES);
  const view = new DataView(header.buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) header[offset + i] = text.charCodeAt(i);
  };
  const channels = 1;
  const bytesPerSample = 2;
  ascii(0, 'RIFF');
  view.setUint32(4, dataBytes === 'unknown' ? UNKNOWN_SIZE : WAV_HEADER_BYTES - 8 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // WAVE_FORMAT_PCM
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channels * bytesPerSample, true);
  view.setUint16(32, channels * bytesPerSample, true);
  view.setUint16(34, bytesPerSample * 8, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes === 'unknown' ? UNKNOWN_SIZE : dataBytes, true);
  return header;
}

/** Copies samples into `target` as little-endian 16-bit bytes. */
function putSamples(target: Uint8Array, pcm: Int16Array): void {
  if (LITTLE_ENDIAN) {
    target.set(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
    return;
  }
  const view = new DataView(target.buffer, target.byteOffset, target.byteLength);
  for (let i = 0; i < pcm.length; i++) view.setInt16(i * 2, pcm[i]!, true);
}

/** The samples as little-endian 16-bit bytes: a view on little-endian machines, else a copy. */
function sampleBytes(pcm: Int16Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const bytes = new Uint8Array(pcm.byteLength);
  putSamples(bytes, pcm);
  return bytes;
}

/**
 * Little-endian 16-bit bytes of the samples in a new array (raw `pcm` output and live WAV
 * both hand their bytes to the caller to keep).
 */
export function pcmToBytes(pcm: Int16Array): Uint8Array {
  const bytes = new Uint8Array(pcm.byteLength);
  putSamples(bytes, pcm);
  return bytes;
}

function checkSampleRate(sampleRate: number): void {
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) {
    throw new AppError('INTERNAL', `invalid sample rate: ${sampleRate}`);
  }
}

/**
 * A whole WAV file (16-bit mono PCM) in memory: 44-byte header + samples.
 * @param pcm samples at `sampleRate` Hz
 * @param sampleRate Hz, e.g. 22050
 */
export function encodeWav(pcm: Int16Array, sampleRate: number): Uint8Array {
  checkSampleRate(sampleRate);
  if (pcm.byteLength > WAV_MAX_DATA_BYTES) {
    throw new AppError('OUTPUT_FAILED', 'audio is too long for a WAV file (4 GiB limit)');
  }
  const out = new Uint8Array(WAV_HEADER_BYTES + pcm.byteLength);
  out.set(wavHeader(sampleRate, pcm.byteLength));
  putSamples(out.subarray(WAV_HEADER_BYTES), pcm);
  return out;
}

export interface WavSinkOptions {
  /**
   * Refuse to write more sample bytes than this (default and maximum: WAV_MAX_DATA_BYTES,
   * the RIFF limit). Tests lower it to exercise the limit.
   */
  maxDataBytes?: number;
}

/**
 * Streams 16-bit mono PCM to a WAV file at `path`. Writes a header placeholder first and
 * patches the RIFF and data sizes at `finish()`; memory use is a few fixed blocks however
 * long the audio. Writing past the RIFF 4 GiB limit (about 27 h at 22050 Hz) rejects with
 * AppError OUTPUT_FAILED rather than producing a file with wrong sizes; use MP3 for longer.
 *
 * @param path final file path; `<path>.partial` is used until `finish()`
 * @param sampleRate Hz, e.g. 22050
 * @returns a sink the caller must `finish()` or `abort()`
 */
export async function createWavSink(
  path: string,
  sampleRate: number,
  options: WavSinkOptions = {},
): Promise<AudioSink> {
  checkSampleRate(sampleRate);
  const maxDataBytes = Math.min(options.maxDataBytes ?? WAV_MAX_DATA_BYTES, WAV_MAX_DATA_BYTES);
  const file = await StagedFile.create(path);
  let samples = 0;
  try {
    file.append(wavHeader(sampleRate, 0));
  } catch (error) {
    await file.discard();
    throw error;
  }

  return {
    async write(pcm) {
      file.assertWritable();
      if ((samples + pcm.length) * 2 > maxDataBytes) {
        throw new AppError(
          'OUTPUT_FAILED',
          `audio is too long for a WAV file (limit ${maxDataBytes} bytes of samples); use MP3`,
          {
            path,
            limitBytes: maxDataBytes,
          },
        );
      }
      samples += pcm.length;
      file.append(sampleBytes(pcm));
      await file.drain();
    },
    async finish(): Promise<AudioSinkResult> {
      const bytes = await file.commit(() => file.patch(wavHeader(sampleRate, samples * 2), 0));
      return { bytes, samples, durationMs: (samples / sampleRate) * 1000 };
    },
    abort: () => file.discard(),
  };
}

/**
 * A live WAV stream: the header (sizes unknown, 0xFFFFFFFF) with the first call, then the
 * samples as they come. For files use `createWavSink`, which writes the real sizes at the end.
 * @param sampleRate Hz, kept in the output
 */
export function createWavStreamEncoder(sampleRate: number): StreamEncoder {
  checkSampleRate(sampleRate);
  let header: Uint8Array | undefined = wavHeader(sampleRate, 'unknown');
  const take = (pcm: Int16Array): Uint8Array => {
    if (!header) return pcmToBytes(pcm);
    const out = new Uint8Array(header.length + pcm.byteLength);
    out.set(header);
    putSamples(out.subarray(header.length), pcm);
    header = undefined;
    return out;
  };
  return {
    format: 'wav',
    contentType: AUDIO_CONTENT_TYPES.wav,
    outputRate: sampleRate,
    encode: async (pcm) => take(pcm),
    finish: async () => take(new Int16Array(0)),
    close: async () => undefined,
  };
}

/** Format and size of a WAV file, from its header. */
export interface WavHeaderInfo {
  /** Hz. */
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** WAVE format tag: 1 for PCM, 3 for IEEE float, 0xFFFE for extensible. */
  format: number;
  /** Size of the data chunk as declared in the header, bytes. */
  dataBytes: number;
  /** Offset of the first sample byte in the file. */
  dataOffset: number;
  /** Duration implied by `dataBytes`, ms. */
  durationMs: number;
}

/**
 * Reads a RIFF WAVE header: walks the chunks up to "data" (skipping LIST and others), so
 * only the file's first bytes are needed. Throws AppError OUTPUT_FAILED if `buf` is not a
 * WAV file or its format chunk is malformed.
 */
export function parseWavHeader(buf: Uint8Array): WavHeaderInfo {
  const fail = (why: string): never => {
    throw new AppError('OUTPUT_FAILED', `not a valid WAV file: ${why}`);
  };
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const tag = (offset: number) => String.fromCharCode(...buf.subarray(offset, offset + 4));
  if (buf.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') fail('no RIFF/WAVE signature');
  let offset = 12;
  let fmt: Omit<WavHeaderInfo, 'dataBytes' | 'dataOffset' | 'durationMs'> | undefined;
  while (offset + 8 <= buf.length) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > buf.length) fail('short fmt chunk');
      fmt = {
        format: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
      if (fmt.channels === 0 || fmt.sampleRate === 0 || fmt.bitsPerSample === 0)
        fail('zero field in fmt chunk');
    } else if (id === 'data') {
      if (!fmt) return fail('data chunk before fmt chunk');
      const bytesPerSecond = fmt.sampleRate * fmt.channels * Math.ceil(fmt.bitsPerSample / 8);
      return { ...fmt, dataBytes: size, dataOffset: body, durationMs: (size / bytesPerSecond) * 1000 };
    }
    // Chunks are padded to an even size.
    offset = body + size + (size & 1);
  }
  return fail('no data chunk');
}
