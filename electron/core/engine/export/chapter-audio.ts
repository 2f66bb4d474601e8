/**
 * A chapter's audio in the export's temporary files: WAVs read in blocks, and brought to the
 * output rate into a raw file (mono s16, little-endian, no header). Used by the export itself
 * (book-export.ts) and by its resampling workers (resampling-worker.ts), so both write the same.
 */

import { open } from 'node:fs/promises';
import { createResampler } from '../audio/resampler';
import { parseWavHeader } from '../audio/wav';

/** Samples read per block from the temporary files. */
export const BLOCK_SAMPLES = 65536;

type FileHandle = Awaited<ReturnType<typeof open>>;

/** Up to `length` bytes of `handle` from `position` (fewer at the end of the file). */
async function readBytes(handle: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(bytes, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return bytes.subarray(0, done);
}

/** Up to `count` samples of `handle` from byte `position`, in a new array. */
export async function readSamples(handle: FileHandle, position: number, count: number): Promise<Int16Array> {
  const bytes = await readBytes(handle, position, count * 2);
  // Samples are little-endian, as on every platform this app runs on.
  return new Int16Array(bytes.buffer, 0, bytes.length >> 1);
}

/** The format of a WAV file, from its header. */
export async function wavHeaderOf(handle: FileHandle) {
  return parseWavHeader(await readBytes(handle, 0, 4096));
}

/** What to bring to the output rate: WAVs (any rates) into one raw file. */
export interface ResampleJob {
  wavPaths: readonly string[];
  /** Samples of silence between two WAVs, at the output rate. */
  gapSamples: number;
  rawPath: string;
  /** The output rate, Hz. */
  rate: number;
}

/**
 * The speech of rendered WAVs (any rates), each resampled to `rate`, with `gapSamples` of silence
 * between two, written one after another to `rawPath`; resolves to the samples written.
 */
export async function wavsToRaw(
  { wavPaths, gapSamples, rawPath, rate }: ResampleJob,
  onFraction: (fraction: number) => void,
): Promise<number> {
  const output = await open(rawPath, 'w');
  let written = 0;
  const put = async (pcm: Int16Array) => {
    await output.write(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
    written += pcm.length;
  };
  try {
    for (const [n, wavPath] of wavPaths.entries()) {
      if (n > 0 && gapSamples > 0) await put(new Int16Array(gapSamples));
      const input = await open(wavPath, 'r');
      try {
        const header = await wavHeaderOf(input);
        const resampler = await createResampler(header.sampleRate, rate);
        try {
          const total = header.dataBytes >> 1;
          for (let at = 0; at < total; at += BLOCK_SAMPLES) {
            const block = await readSamples(
              input,
              header.dataOffset + at * 2,
              Math.min(BLOCK_SAMPLES, total - at),
            );
            await put(resampler.process(block));
            onFraction(Math.min(1, (n + (at + block.length) / Math.max(1, total)) / wavPaths.length));
          }
          await put(resampler.flush());
        } finally {
          resampler.close();
        }
      } finally {
        await input.close();
      }
    }
    return written;
  } finally {
    await output.close();
  }
}
