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

function checkArguments(sampleRate: number, ratio: number): void {
  if (!Number.isFinite(ratio) || ratio < MIN_PITCH_RATIO || ratio > MAX_PITCH_RATIO) {
    throw new RangeError(`pitch ratio ${ratio} is outside ${MIN_PITCH_RATIO}–${MAX_PITCH_RATIO}`);
  }
  if (!Number.isInteger(sampleRate) || sampleRate < 4000 || sampleRate > 192_000) {
    throw new RangeError(`sample rate ${sampleRate} is outside 4000–192000 Hz`);
  }
}

/** Duration factors `stretchAndShift` accepts. */
const MIN_DURATION_FACTOR = 0.25;
const MAX_DURATION_FACTOR = 4;

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
  checkArguments(sampleRate, pitch);
  if (!Number.isFinite(duration) || duration < MIN_DURATION_FACTOR || duration > MAX_DURATION_FACTOR) {
    throw new RangeError(
      `duration factor ${duration} is outside ${MIN_DURATION_FACTOR}–${MAX_DURATION_FACTOR}`,
    );
  }
  if ((pitch === 1 && duration === 1) || pcm.length === 0) return pcm;
  const length = Math.round(pcm.length * duration);
  const shifter = new Shifter(sampleRate, pitch, length, duration);
  try {
    const head = shifter.push(pcm);
    const tail = shifter.flush();
    const out = new Float32Array(length);
    out.set(head.subarray(0, out.length));
    if (head.length < out.length) out.set(tail.subarray(0, out.length - head.length), head.length);
    return out;
  } finally {
    shifter.close();
  }
}

/**
 * Sonic's time stretch, then the resampler: `push` chunks in order, then `flush` once; `close`
 * frees the Sonic stream (also after a failure).
 */
class Shifter {
  private stream: number;
  private buffer: number;
  private flushed = false;
  private readonly resampler: Resampler;

  /**
   * `length`: the output's total length when known, so it ends exactly there; `duration`:
   * the factor the output's duration is to have (1: kept).
   */
  constructor(sampleRate: number, ratio: number, length: number, duration: number) {
    this.resampler = new Resampler(ratio, length);
    this.stream = sonic._sonicCreateStream(sampleRate, 1);
    this.buffer = this.stream ? sonic._malloc(BLOCK * 4) : 0;
    if (!this.stream || !this.buffer) {
      this.close();
      throw new Error('Sonic could not allocate a stream');
    }
    // Speed 1/(ratio·duration) stretches the duration by ratio·duration; the resampler then
    // reads it `ratio` times faster, leaving duration × `duration` at pitch × `ratio`.
    sonic._sonicSetSpeed(this.stream, 1 / (ratio * duration));
  }

  push(chunk: Float32Array): Float32Array {
    this.check();
    for (let at = 0; at < chunk.length; at += BLOCK) {
      const count = Math.min(BLOCK, chunk.length - at);
      sonic.HEAPF32.set(chunk.subarray(at, at + count), this.buffer / 4);
      if (!sonic._sonicWriteFloatToStream(this.stream, this.buffer, count)) {
        throw new Error('Sonic could not take more input (out of memory)');
      }
      this.drain();
    }
    return this.resampler.take(false);
  }

  flush(): Float32Array {
    this.check();
    this.flushed = true;
    sonic._sonicFlushStream(this.stream);
    this.drain();
    return this.resampler.take(true);
  }

  close(): void {
    if (this.buffer) sonic._free(this.buffer);
    if (this.stream) sonic._sonicDestroyStream(this.stream);
    this.buffer = 0;
    this.stream = 0;
  }

  private check(): void {
    if (!this.stream) throw new Error('the pitch shifter is closed');
    if (this.flushed) throw new Error('the pitch shifter was flushed');
  }

  /** Moves everything Sonic has stretched into the resampler. */
  private drain(): void {
    for (;;) {
      const count = sonic._sonicReadFloatFromStream(this.stream, this.buffer, BLOCK);
      if (count <= 0) return;
      const start = this.buffer / 4;
      this.resampler.add(sonic.HEAPF32.subarray(start, start + count));
    }
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
 * Reads a stream of samples `ratio` times faster (output sample k is the input at k·ratio),
 * with a windowed-sinc interpolator whose cutoff drops to 1/ratio of Nyquist when reading
 * faster, so nothing folds back. Keeps just the input the kernel still needs.
 */
class Resampler {
  private input = new Float32Array(4096);
  /** Samples held in `input`; input[0] is sample number `base` of the whole stream. */
  private held = 0;
  private base = 0;
  /** Samples added so far, and output samples made so far. */
  private added = 0;
  private made = 0;
  private readonly cutoff: number;
  /** Input samples the kernel reaches on each side of a position. */
  private readonly reach: number;

  constructor(
    private readonly ratio: number,
    /** Output length wanted in the end. */
    private readonly length: number,
  ) {
    this.cutoff = Math.min(1, 1 / ratio);
    this.reach = Math.ceil(HALF_WIDTH / this.cutoff);
  }

  add(samples: Float32Array): void {
    if (this.held + samples.length > this.input.length) {
      const grown = new Float32Array(Math.max(this.input.length * 2, this.held + samples.length));
      grown.set(this.input.subarray(0, this.held));
      this.input = grown;
    }
    this.input.set(samples, this.held);
    this.held += samples.length;
    this.added += samples.length;
  }

  /** Output that the input so far determines; at the end, the rest (input beyond it is silence). */
  take(end: boolean): Float32Array {
    const total = end ? this.length : Number.POSITIVE_INFINITY;
    const out: number[] = [];
    for (;;) {
      if (this.made >= total) break;
      const t = this.made * this.ratio;
      if (!end && Math.floor(t) + this.reach >= this.added) break;
      out.push(this.at(t));
      this.made++;
    }
    // Drop input the kernel will not reach again.
    const keepFrom = Math.max(this.base, Math.floor(this.made * this.ratio) - this.reach - 1);
    const drop = Math.min(this.held, keepFrom - this.base);
    if (drop > 0) {
      this.input.copyWithin(0, drop, this.held);
      this.held -= drop;
      this.base += drop;
    }
    return Float32Array.from(out);
  }

  /**
   * The input at position t (in input samples), low-passed at `cutoff`. Samples past the end
   * of the stream count as silence; the kernel is normalised to a gain of exactly 1.
   */
  private at(t: number): number {
    const end = this.base + this.held;
    let sum = 0;
    let weights = 0;
    for (let n = Math.ceil(t - this.reach); n <= Math.floor(t + this.reach); n++) {
      const x = Math.abs(t - n) * this.cutoff * PHASES;
      const k = Math.floor(x);
      if (k >= HALF_WIDTH * PHASES) continue;
      const f = x - k;
      const w = (KERNEL[k] ?? 0) * (1 - f) + (KERNEL[k + 1] ?? 0) * f;
      weights += w;
      if (n >= this.base && n < end) sum += (this.input[n - this.base] ?? 0) * w;
    }
    return weights > 0 ? sum / weights : 0;
  }
}
