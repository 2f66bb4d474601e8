/**
 * Pitch shift and time stretch, for voices that have no pitch control of their own (the neural
 * ones) and to correct a model's speed. Mono float PCM.
 *
 * Two steps, as Sonic itself does it: the audio is time-stretched by the ratio with Sonic
 * (`@echogarden/sonic-wasm`, Apache-2.0, pitch-synchronous overlap-add made for speech; pitch
 * kept, duration × ratio), then resampled by the ratio (duration back, pitch × ratio). The
 * resampling is ours (windowed sinc, anti-aliased when the pitch goes up): Sonic's own pitch
 * and rate modes resample too, but in this WASM build they corrupt the module's heap on about
 * 1 in 20 inputs (a later call then fails with "memory access out of bounds"), while its speed
 * mode ran 13,000 random inputs and chunkings without a fault.
 *
 * The WASM module is instantiated once when this module loads (a top-level await, a few ms),
 * so `stretchAndShift` can be synchronous. Each call uses a Sonic stream of its own.
 */

import loadSonic, { type SonicModule } from '@echogarden/sonic-wasm';
import { MAX_PITCH_RATIO, MIN_PITCH_RATIO } from './pitch-limits';

const sonic: SonicModule = await loadSonic();

/** Samples moved through the WASM heap at a time. */
const BLOCK = 8192;

/** Duration factors `stretchAndShift` accepts. */
const MIN_DURATION_FACTOR = 0.25;
const MAX_DURATION_FACTOR = 4;

function checkArguments(sampleRate: number, pitch: number, duration: number): void {
  if (!Number.isFinite(pitch) || pitch < MIN_PITCH_RATIO || pitch > MAX_PITCH_RATIO) {
    throw new RangeError(`pitch ratio ${pitch} is outside ${MIN_PITCH_RATIO}–${MAX_PITCH_RATIO}`);
  }
  if (!Number.isInteger(sampleRate) || sampleRate < 4000 || sampleRate > 192_000) {
    throw new RangeError(`sample rate ${sampleRate} is outside 4000–192000 Hz`);
  }
  if (!Number.isFinite(duration) || duration < MIN_DURATION_FACTOR || duration > MAX_DURATION_FACTOR) {
    throw new RangeError(
      `duration factor ${duration} is outside ${MIN_DURATION_FACTOR}–${MAX_DURATION_FACTOR}`,
    );
  }
}

/**
 * Float `pcm` (mono) with its pitch multiplied by `pitch` (0.5–2) and its duration by
 * `duration` (0.25–4): exactly `round(pcm.length × duration)` samples. Both 1 returns `pcm`
 * itself. The neural voices use it to correct a model's speed (see neural-backends.ts).
 * @throws RangeError for a ratio, factor or sample rate out of range
 */
export function stretchAndShift(
  pcm: Float32Array,
  sampleRate: number,
  pitch: number,
  duration: number,
): Float32Array {
  checkArguments(sampleRate, pitch, duration);
  if ((pitch === 1 && duration === 1) || pcm.length === 0) return pcm;
  const stream = sonic._sonicCreateStream(sampleRate, 1);
  const buffer = stream ? sonic._malloc(BLOCK * 4) : 0;
  try {
    if (!stream || !buffer) throw new Error('Sonic could not allocate a stream');
    // Speed 1/(pitch·duration) stretches the duration by pitch·duration; the resampler then
    // reads it `pitch` times faster, leaving duration × `duration` at pitch × `pitch`.
    sonic._sonicSetSpeed(stream, 1 / (pitch * duration));
    let stretched = new Float32Array(Math.ceil(pcm.length * pitch * duration) + BLOCK);
    let held = 0;
    /** Moves everything Sonic has stretched into `stretched`. */
    const drain = () => {
      for (;;) {
        const count = sonic._sonicReadFloatFromStream(stream, buffer, BLOCK);
        if (count <= 0) return;
        if (held + count > stretched.length) {
          const grown = new Float32Array(Math.max(stretched.length * 2, held + count));
          grown.set(stretched.subarray(0, held));
          stretched = grown;
        }
        stretched.set(sonic.HEAPF32.subarray(buffer / 4, buffer / 4 + count), held);
        held += count;
      }
    };
    for (let at = 0; at < pcm.length; at += BLOCK) {
      const count = Math.min(BLOCK, pcm.length - at);
      sonic.HEAPF32.set(pcm.subarray(at, at + count), buffer / 4);
      if (!sonic._sonicWriteFloatToStream(stream, buffer, count)) {
        throw new Error('Sonic could not take more input (out of memory)');
      }
      drain();
    }
    sonic._sonicFlushStream(stream);
    drain();
    return resample(stretched.subarray(0, held), pitch, Math.round(pcm.length * duration));
  } finally {
    if (buffer) sonic._free(buffer);
    if (stream) sonic._sonicDestroyStream(stream);
  }
}

/** Zero crossings of the windowed sinc on each side, and table entries per crossing. */
const HALF_WIDTH = 8;
const PHASES = 512;
/** sinc(x)·Blackman window, for x = k / PHASES, k = 0 … HALF_WIDTH·PHASES (and 0 beyond). */
const KERNEL = (() => {
  const table = new Float64Array(HALF_WIDTH * PHASES + 2);
  for (let k = 0; k <= HALF_WIDTH * PHASES; k++) {
    const x = k / PHASES;
    const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
    const w =
      0.42 + 0.5 * Math.cos((Math.PI * x) / HALF_WIDTH) + 0.08 * Math.cos((2 * Math.PI * x) / HALF_WIDTH);
    table[k] = sinc * w;
  }
  return table;
})();

/**
 * `length` samples of `input` read `ratio` times faster (output sample k is the input at
 * k·ratio), with a windowed-sinc interpolator whose cutoff drops to 1/ratio of Nyquist when
 * reading faster, so nothing folds back. Samples past the end of `input` count as silence; the
 * kernel is normalised to a gain of exactly 1.
 */
function resample(input: Float32Array, ratio: number, length: number): Float32Array {
  const cutoff = Math.min(1, 1 / ratio);
  /** Input samples the kernel reaches on each side of a position. */
  const reach = Math.ceil(HALF_WIDTH / cutoff);
  const out = new Float32Array(length);
  for (let k = 0; k < length; k++) {
    const t = k * ratio;
    let sum = 0;
    let weights = 0;
    for (let n = Math.ceil(t - reach); n <= Math.floor(t + reach); n++) {
      const x = Math.abs(t - n) * cutoff * PHASES;
      const i = Math.floor(x);
      if (i >= HALF_WIDTH * PHASES) continue;
      const f = x - i;
      const w = (KERNEL[i] ?? 0) * (1 - f) + (KERNEL[i + 1] ?? 0) * f;
      weights += w;
      if (n >= 0 && n < input.length) sum += (input[n] ?? 0) * w;
    }
    out[k] = weights > 0 ? sum / weights : 0;
  }
  return out;
}
