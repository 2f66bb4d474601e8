/**
 * Sample-rate conversion of mono 16-bit PCM for the stream encoders (Opus takes 8/12/16/24/48 kHz
 * only; raw `pcm` is 24 kHz): the Speex resampler compiled to WebAssembly (`speex-resampler`),
 * stateful across chunks, aligned (its filter delay removed) and flushed to the exact length.
 */

import { AppError } from '../../../shared/errors';

/** A stateful rate converter for one stream. */
export interface Resampler {
  readonly inputRate: number;
  readonly outputRate: number;
  /**
   * Converts the next samples. Output is aligned with the input (no filter delay at the start)
   * but lags it by a few samples until `flush`; the result is a new array.
   */
  process(pcm: Int16Array): Int16Array;
  /**
   * Returns the rest, so that the total output is round(total input × outputRate / inputRate)
   * samples, and frees the resampler's WASM memory. The resampler cannot be used afterwards.
   */
  flush(): Int16Array;
  /** Frees the WASM memory without flushing; safe after `flush` or twice. */
  close(): void;
}

/** Speex quality 0–10: 7 is the library's default, transparent for speech and fast (110–240× real time). */
const QUALITY = 7;

/** Input samples handed to Speex per call, to bound its WASM buffers. */
const BLOCK = 8192;

interface SpeexModule {
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _speex_resampler_init(
    channels: number,
    inRate: number,
    outRate: number,
    quality: number,
    errPtr: number,
  ): number;
  _speex_resampler_destroy(state: number): void;
  _speex_resampler_process_interleaved_int(
    state: number,
    inPtr: number,
    inLenPtr: number,
    outPtr: number,
    outLenPtr: number,
  ): number;
}

/**
 * The WASM module, one per thread, loaded on first use. The package's own wrapper class never
 * frees a resampler; this one calls the module directly so each stream's state is freed.
 */
let loaded: Promise<SpeexModule> | undefined;

function loadSpeex(): Promise<SpeexModule> {
  // Imported here, not with the engine: a server that never resamples does not hold it (~10 MB).
  loaded ??= import('speex-resampler/app/speex_wasm.js')
    .then(({ default: speexWasm }) => {
      // The file is CommonJS with `exports.default`; bundlers and Node's ESM loader differ on
      // whether the default import is that function or the exports object.
      const factory = ((speexWasm as unknown as { default?: unknown }).default ?? speexWasm) as (
        init: object,
      ) => Promise<SpeexModule>;
      return factory({});
    })
    .catch((error: unknown) => {
      loaded = undefined;
      throw new AppError(
        'OUTPUT_FAILED',
        `could not load the resampler: ${(error as Error).message}`,
        undefined,
        {
          cause: error,
        },
      );
    });
  return loaded;
}

/**
 * A resampler from `inputRate` to `outputRate` Hz. Equal rates give a pass-through that copies.
 * Rejects with AppError OUTPUT_FAILED if the WASM module cannot be loaded.
 */
export async function createResampler(inputRate: number, outputRate: number): Promise<Resampler> {
  for (const rate of [inputRate, outputRate]) {
    if (!Number.isInteger(rate) || rate <= 0) throw new AppError('INTERNAL', `invalid sample rate: ${rate}`);
  }
  if (inputRate === outputRate) {
    return {
      inputRate,
      outputRate,
      process: (pcm) => pcm.slice(),
      flush: () => new Int16Array(0),
      close() {},
    };
  }
  const speex = await loadSpeex();
  const maxOut = Math.ceil((BLOCK * outputRate) / inputRate) + 64;
  // One allocation: error code and two lengths (4 bytes each), then the input and output buffers.
  const base = speex._malloc(12 + BLOCK * 2 + maxOut * 2);
  if (base === 0) throw new AppError('OUTPUT_FAILED', 'the resampler is out of memory');
  const errPtr = base;
  const inLenPtr = base + 4;
  const outLenPtr = base + 8;
  const inPtr = base + 12;
  const outPtr = inPtr + BLOCK * 2;
  const state = speex._speex_resampler_init(1, inputRate, outputRate, QUALITY, errPtr);
  if (state === 0) {
    speex._free(base);
    throw new AppError('OUTPUT_FAILED', `the resampler refused ${inputRate} → ${outputRate} Hz`);
  }

  let closed = false;
  let taken = 0;
  /** Output samples still to drop: Speex's filter delay (measured once, below). */
  let skip = -1;
  let made = 0;

  const run = (pcm: Int16Array): Int16Array => {
    if (closed) throw new AppError('INTERNAL', 'the resampler is closed');
    const out = new Int16Array(Math.ceil(((pcm.length + BLOCK) * outputRate) / inputRate) + 64);
    let o = 0;
    for (let offset = 0; offset < pcm.length;) {
      const n = Math.min(BLOCK, pcm.length - offset);
      const heap = speex.HEAPU8;
      heap.set(new Uint8Array(pcm.buffer, pcm.byteOffset + offset * 2, n * 2), inPtr);
      const view = new DataView(heap.buffer);
      view.setUint32(inLenPtr, n, true);
      view.setUint32(outLenPtr, maxOut, true);
      const err = speex._speex_resampler_process_interleaved_int(state, inPtr, inLenPtr, outPtr, outLenPtr);
      if (err !== 0) throw new AppError('OUTPUT_FAILED', `resampling failed (Speex error ${err})`);
      const after = new DataView(speex.HEAPU8.buffer);
      const used = after.getUint32(inLenPtr, true);
      const produced = after.getUint32(outLenPtr, true);
      out.set(new Int16Array(speex.HEAPU8.buffer.slice(outPtr, outPtr + produced * 2)), o);
      o += produced;
      offset += used;
    }
    return out.subarray(0, o);
  };

  /** Drops the filter delay from the front, and keeps the total at most `limit`. */
  const emit = (pcm: Int16Array, limit: number): Int16Array => {
    let start = 0;
    if (skip > 0) {
      start = Math.min(skip, pcm.length);
      skip -= start;
    }
    const end = Math.min(pcm.length, start + Math.max(0, limit - made));
    made += Math.max(0, end - start);
    return pcm.slice(start, Math.max(start, end));
  };

  const close = () => {
    if (closed) return;
    closed = true;
    speex._speex_resampler_destroy(state);
    speex._free(base);
  };

  skip = filterDelay(inputRate, outputRate);
  return {
    inputRate,
    outputRate,
    process(pcm) {
      taken += pcm.length;
      return emit(run(pcm), Number.POSITIVE_INFINITY);
    },
    flush() {
      const total = Math.round((taken * outputRate) / inputRate);
      // Zeros push the last input through the filter; the output is cut at the exact length.
      const parts: Int16Array[] = [];
      let have = made;
      const zeros = new Int16Array(256);
      for (let guard = 0; have < total && guard < 64; guard++) {
        const out = emit(run(zeros), total);
        parts.push(out);
        have += out.length;
      }
      close();
      const tail = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
      let o = 0;
      for (const p of parts) {
        tail.set(p, o);
        o += p.length;
      }
      return tail;
    },
    close,
  };
}

/**
 * Output samples of delay Speex adds at quality QUALITY: half its filter length, in input
 * samples, scaled to the output rate. Filter length is 128 taps at quality 7 (its `quality_map`),
 * stretched by the ratio when downsampling.
 */
function filterDelay(inputRate: number, outputRate: number): number {
  const base = 128;
  const length = outputRate < inputRate ? Math.ceil((base * inputRate) / outputRate / 8) * 8 : base;
  return Math.round(((length / 2 - 1) * outputRate) / inputRate);
}
