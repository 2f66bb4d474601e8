/**
 * A file sink for the formats that have no file writer of their own (opus, aac, flac, pcm; and
 * MP3 behind an ID3 tag, for book export): the format's StreamEncoder writing through a
 * `StagedFile`. Where the encoder can state the
 * exact length once done (FLAC's STREAMINFO), that header is written over the start at the end.
 */

import type { AudioFormat } from '../../../shared/options';
import { StagedFile } from '../../platform/staged-file';
import type { AudioSink, AudioSinkResult } from './audio-sink';
import { createStreamEncoder, type StreamEncoderOptions } from './stream-encoder';

/**
 * Streams mono 16-bit PCM at `options.sampleRate` Hz to `path` in `format`.
 * The reported duration is the input PCM's; the file may be resampled (pcm: 24 kHz; opus from
 * 22050 Hz: 24 kHz). Rejects with AppError OUTPUT_FAILED if the encoder cannot be loaded (no
 * file is left behind) or the file cannot be written.
 *
 * @param path final file path; `<path>.partial` is used until `finish()`
 * @param prefix bytes to write before the stream (an MP3's ID3 tag: engine/export/mp3-chapters.ts)
 * @returns a sink the caller must `finish()` or `abort()`
 */
export async function createEncoderSink(
  path: string,
  format: AudioFormat,
  options: StreamEncoderOptions,
  prefix?: Uint8Array,
): Promise<AudioSink> {
  // The encoder first, so a load failure leaves no file behind.
  const encoder = await createStreamEncoder(format, options);
  let file: StagedFile;
  try {
    file = await StagedFile.create(path);
    if (prefix) file.append(prefix);
  } catch (error) {
    await encoder.close();
    throw error;
  }
  let samples = 0;
  // Calls are applied in call order even when the caller does not await each one.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(step: () => Promise<T>): Promise<T> => {
    const next = queue.then(step);
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    write(pcm) {
      const copy = pcm.slice();
      return serial(async () => {
        file.assertWritable();
        file.append(await encoder.encode(copy));
        samples += copy.length;
        await file.drain();
      });
    },
    finish() {
      return serial(async (): Promise<AudioSinkResult> => {
        file.assertWritable();
        file.append(await encoder.finish());
        const header = encoder.finalHeader?.();
        const bytes = await file.commit(header ? () => file.patch(header.bytes, header.position) : undefined);
        return { bytes, samples, durationMs: (samples / options.sampleRate) * 1000 };
      });
    },
    async abort() {
      await queue;
      await Promise.allSettled([encoder.close(), file.discard()]);
    },
  };
}
