/**
 * The streaming encoder contract for every AudioFormat (OpenAI's `response_format` values):
 * mono 16-bit PCM in, the bytes of a playable stream out, strictly in order, so a client that
 * receives the concatenation of everything returned sees a valid file at any point after the
 * first bytes. Files are written through the same encoders (encoder-sink.ts).
 *
 * | format | container, codec              | output rate                        |
 * | ------ | ----------------------------- | ---------------------------------- |
 * | mp3    | MPEG Layer III frames (LAME)  | input                              |
 * | wav    | RIFF, PCM s16le, sizes unknown| input                              |
 * | opus   | Ogg Opus (libopus)            | 16000/24000 kept, others → 24000    |
 * | aac    | ADTS, AAC-LC (FFmpeg's)       | input                              |
 * | flac   | FLAC, total samples unknown   | input                              |
 * | pcm    | raw s16le mono                | 24000                              |
 *
 * Each encoder module is imported when its format is first asked for, so the WASM and native
 * code of formats never used is never loaded.
 */

import { AppError } from '../../../shared/errors';
import {
  AUDIO_CONTENT_TYPES,
  DEFAULT_BITRATE,
  type AudioFormat,
  type Mp3Bitrate,
} from '../../../shared/options';

export interface StreamEncoderOptions {
  /** Sample rate of the PCM passed to `encode`, Hz (the backend's: 16000, 22050 or 24000). */
  sampleRate: number;
  /** Constant bitrate for mp3, kbps; default DEFAULT_BITRATE. Other formats ignore it. */
  bitrate?: Mp3Bitrate;
}

/**
 * One encoded stream. The caller ends it with `finish()` or, when abandoning it, `close()`.
 * Calls must not overlap: await each before the next.
 */
export interface StreamEncoder {
  readonly format: AudioFormat;
  /** MIME type for a Content-Type header, e.g. "audio/ogg; codecs=opus". */
  readonly contentType: string;
  /** Sample rate of the encoded stream, Hz (may differ from the input's: see the table above). */
  readonly outputRate: number;
  /**
   * Encodes the next samples (any length, even 0) and resolves with the bytes completed so
   * far, possibly empty: codecs that work in frames hold back a partial frame. The bytes are
   * the caller's to keep. The input array may be reused once this resolves.
   * Rejects with AppError OUTPUT_FAILED if the codec fails.
   */
  encode(pcm: Int16Array): Promise<Uint8Array>;
  /**
   * Encodes what is held back and resolves with the last bytes of the stream. The encoder is
   * done afterwards and its resources (WASM memory, worker threads) are released.
   */
  finish(): Promise<Uint8Array>;
  /** Releases the encoder's resources without finishing. Safe to call after `finish` or twice. */
  close(): Promise<void>;
  /**
   * For a seekable file, once `finish` has resolved: bytes to write over the start of the
   * stream so the file states its exact length (FLAC's STREAMINFO). Streams leave them out.
   */
  finalHeader?(): { position: number; bytes: Uint8Array } | undefined;
}

/** MIME types of the formats (the table of shared/options.ts). */
export { AUDIO_CONTENT_TYPES };

/** Sample rate of OpenAI's raw `pcm` format. */
export const PCM_RATE = 24000;

/**
 * A new encoder for `format`, reading PCM at `options.sampleRate`.
 * Rejects with AppError OUTPUT_FAILED if the codec cannot be loaded, INVALID_FIELD for a bad
 * bitrate, INTERNAL for a sample rate the format cannot carry.
 */
export async function createStreamEncoder(
  format: AudioFormat,
  options: StreamEncoderOptions,
): Promise<StreamEncoder> {
  const { sampleRate } = options;
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) {
    throw new AppError('INTERNAL', `invalid sample rate: ${sampleRate}`);
  }
  switch (format) {
    case 'mp3':
      return (await import('./mp3')).createMp3StreamEncoder({
        sampleRate,
        bitrate: options.bitrate ?? DEFAULT_BITRATE,
      });
    case 'wav':
      return (await import('./wav')).createWavStreamEncoder(sampleRate);
    case 'pcm':
      return (await import('./pcm')).createPcmStreamEncoder(sampleRate);
    case 'opus':
      return (await import('./opus-ogg')).createOpusStreamEncoder(sampleRate);
    case 'aac':
      return (await import('./aac-adts')).createAacStreamEncoder(sampleRate);
    case 'flac':
      return (await import('./flac')).createFlacStreamEncoder(sampleRate);
  }
}

/** Concatenates byte chunks (one copy; a single chunk is returned as is). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** OUTPUT_FAILED naming the format, keeping an AppError as is. */
export function encoderError(format: string, error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError('OUTPUT_FAILED', `${format} encoding failed: ${(error as Error).message}`, undefined, {
    cause: error,
  });
}
