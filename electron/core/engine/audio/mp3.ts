/**
 * MP3 output through LAME compiled to WebAssembly (`wasm-media-encoders`): CBR at the
 * API's bitrates, keeping the engine's sample rate (MPEG-2 Layer III at 22050 Hz), as a
 * streaming file sink, a live stream encoder and an in-memory encoder, all on one `Mp3Stream`.
 */

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createEncoder, type WasmMediaEncoder } from 'wasm-media-encoders';
import { AppError } from '../../../shared/errors';
import { BITRATES, type Mp3Bitrate } from '../../../shared/options';
import { StagedFile } from '../../platform/staged-file';
import type { AudioSink, AudioSinkResult } from './audio-sink';
import { AUDIO_CONTENT_TYPES, concatBytes, type StreamEncoder } from './stream-encoder';

export interface Mp3Options {
  /** Input and output sample rate, Hz; one of the MP3 rates (the engine's is 22050). */
  sampleRate: number;
  /** Constant bitrate, kbps. */
  bitrate: Mp3Bitrate;
}

/** Sample rates an MP3 stream can carry (MPEG-1, MPEG-2 and MPEG-2.5). */
const MP3_SAMPLE_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;
type Mp3SampleRate = (typeof MP3_SAMPLE_RATES)[number];

/**
 * Samples handed to LAME per call. LAME buffers internally, so this only trades the cost
 * of each call against the size of the float copy; 16 frames (9216 samples at 576 per
 * MPEG-2 frame) was as fast as larger blocks in bench/encode.bench.ts.
 */
const ENCODE_BLOCK = 576 * 16;

/**
 * The compiled WASM module, shared by every encoder of the process. Compiling takes tens
 * of milliseconds; each encoder then gets its own cheap instance (and its own memory), so
 * concurrent renders never share LAME state.
 */
let compiled: Promise<WebAssembly.Module> | undefined;

function loadModule(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    // The package's "./wasm/mp3.wasm" export names a missing file; "./wasm/mp3" is right.
    const file = createRequire(import.meta.url).resolve('wasm-media-encoders/wasm/mp3');
    return WebAssembly.compile(await readFile(file));
  })().catch((error: unknown) => {
    compiled = undefined;
    throw new AppError(
      'OUTPUT_FAILED',
      `could not load the MP3 encoder: ${(error as Error).message}`,
      undefined,
      { cause: error },
    );
  });
  return compiled;
}

function checkOptions(options: Mp3Options): asserts options is Mp3Options & { sampleRate: Mp3SampleRate } {
  const isMpeg1 = options.sampleRate >= 32000;
  if (!(BITRATES as readonly number[]).includes(options.bitrate) && !(isMpeg1 && options.bitrate === 192)) {
    throw new AppError('INVALID_FIELD', `bitrate must be one of ${BITRATES.join(', ')}`, {
      field: 'bitrate',
    });
  }
  if (!(MP3_SAMPLE_RATES as readonly number[]).includes(options.sampleRate)) {
    throw new AppError('INTERNAL', `MP3 cannot carry a sample rate of ${options.sampleRate} Hz`);
  }
}

/**
 * One LAME encoder: 16-bit mono PCM in, MP3 frames out through `emit`. The bytes passed to
 * `emit` live in WASM memory and are only valid during the call: copy them.
 */
class Mp3Stream {
  private readonly scratch = new Float32Array(ENCODE_BLOCK);

  private constructor(private readonly encoder: WasmMediaEncoder<'audio/mpeg'>) {}

  static async create(options: Mp3Options): Promise<Mp3Stream> {
    checkOptions(options);
    const encoder = await createEncoder('audio/mpeg', await loadModule());
    encoder.configure({
      channels: 1,
      sampleRate: options.sampleRate,
      bitrate: options.bitrate,
      // Without this LAME picks its own output rate for low bitrates (8 kHz at 8 kbps),
      // which would resample the voice and change the stream's sample rate.
      outputSampleRate: options.sampleRate,
    });
    return new Mp3Stream(encoder);
  }

  encode(pcm: Int16Array, emit: (bytes: Uint8Array) => void): void {
    const scratch = this.scratch;
    // LAME's float entry point scales 1.0 to 32767; dividing by the same keeps the levels
    // of the 16-bit input exactly (as native lame reading 16-bit PCM would).
    const scale = 1 / 32767;
    for (let offset = 0; offset < pcm.length; offset += ENCODE_BLOCK) {
      const n = Math.min(ENCODE_BLOCK, pcm.length - offset);
      for (let i = 0; i < n; i++) scratch[i] = pcm[offset + i]! * scale;
      const out = this.encoder.encode([n === ENCODE_BLOCK ? scratch : scratch.subarray(0, n)]);
      if (out.length > 0) emit(out);
    }
  }

  /** Encodes what LAME still buffers (the last frames, padded). The stream is done after. */
  finish(emit: (bytes: Uint8Array) => void): void {
    const out = this.encoder.finalize();
    if (out.length > 0) emit(out);
  }
}

function encoderFailed(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError('OUTPUT_FAILED', `MP3 encoding failed: ${(error as Error).message}`, undefined, {
    cause: error,
  });
}

/**
 * Streams 16-bit mono PCM to an MP3 file at `path`: CBR at `options.bitrate` kbps, at
 * `options.sampleRate` (22050 Hz gives MPEG-2 Layer III frames of 576 samples). No ID3
 * or Xing/LAME tag is written; every frame is audio. The stream is 2 to 3 frames (52–78 ms
 * at 22050 Hz) longer than the PCM: LAME's encoder delay at the start, padding to a whole
 * frame at the end. The reported `durationMs` is the PCM's.
 *
 * Memory is bounded: PCM is encoded as it arrives and frames go to disk in fixed blocks;
 * the sink's own encoder instance holds a fixed 16 MiB of WASM memory until `finish()` or
 * `abort()`. Rejects with AppError INVALID_FIELD for a bitrate outside BITRATES.
 *
 * @param path final file path; `<path>.partial` is used until `finish()`
 * @returns a sink the caller must `finish()` or `abort()`; it owns one encoder instance
 */
export async function createMp3Sink(path: string, options: Mp3Options): Promise<AudioSink> {
  // Create the encoder first so a load failure leaves no file behind.
  let stream: Mp3Stream | undefined = await Mp3Stream.create(options);
  const file = await StagedFile.create(path);
  const emit = (bytes: Uint8Array) => file.append(bytes);
  let samples = 0;
  // Each encoder holds a 16 MiB WASM memory: let it go as soon as the sink is done, even if
  // the caller keeps the sink object.
  const take = (): Mp3Stream => {
    file.assertWritable();
    if (!stream) throw new AppError('OUTPUT_FAILED', `audio output ${path} is closed`, { path });
    return stream;
  };

  return {
    async write(pcm) {
      const encoder = take();
      try {
        encoder.encode(pcm, emit);
      } catch (error) {
        throw encoderFailed(error);
      }
      samples += pcm.length;
      await file.drain();
    },
    async finish(): Promise<AudioSinkResult> {
      const encoder = take();
      stream = undefined;
      try {
        encoder.finish(emit);
      } catch (error) {
        throw encoderFailed(error);
      }
      const bytes = await file.commit();
      return { bytes, samples, durationMs: (samples / options.sampleRate) * 1000 };
    },
    async abort() {
      stream = undefined;
      await file.discard();
    },
  };
}

/**
 * A live MP3 stream (same encoding as `createMp3Sink`): each call returns the frames LAME has
 * completed, copied out of WASM memory. Every frame is audio, so any prefix of the bytes plays.
 * Rejects with AppError INVALID_FIELD for a bitrate outside BITRATES.
 */
export async function createMp3StreamEncoder(options: Mp3Options): Promise<StreamEncoder> {
  let stream: Mp3Stream | undefined = await Mp3Stream.create(options);
  const run = (step: (encoder: Mp3Stream, emit: (bytes: Uint8Array) => void) => void): Uint8Array => {
    if (!stream) throw new AppError('OUTPUT_FAILED', 'the MP3 stream is already finished');
    const parts: Uint8Array[] = [];
    try {
      step(stream, (bytes) => parts.push(bytes.slice()));
    } catch (error) {
      throw encoderFailed(error);
    }
    return parts.length === 0 ? new Uint8Array(0) : concatBytes(parts);
  };
  return {
    format: 'mp3',
    contentType: AUDIO_CONTENT_TYPES.mp3,
    outputRate: options.sampleRate,
    encode: async (pcm) => run((encoder, emit) => encoder.encode(pcm, emit)),
    async finish() {
      const out = run((encoder, emit) => encoder.finish(emit));
      // Let the encoder's 16 MiB of WASM memory go even if the caller keeps this object.
      stream = undefined;
      return out;
    },
    async close() {
      stream = undefined;
    },
  };
}

/**
 * A whole MP3 file in memory (same encoding as `createMp3Sink`). For short audio such as
 * previews; long audio should stream through a sink.
 */
export async function encodeMp3(pcm: Int16Array, options: Mp3Options): Promise<Uint8Array> {
  const stream = await Mp3Stream.create(options);
  const parts: Uint8Array[] = [];
  let length = 0;
  const emit = (bytes: Uint8Array) => {
    parts.push(bytes.slice());
    length += bytes.length;
  };
  try {
    stream.encode(pcm, emit);
    stream.finish(emit);
  } catch (error) {
    throw encoderFailed(error);
  }
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
