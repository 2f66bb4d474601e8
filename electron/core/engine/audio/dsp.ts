/**
 * Sample-level processing of mono 16-bit PCM: volume with a streaming look-ahead peak
 * limiter, silence, edge fades and silence trimming.
 *
 * Why a limiter and not clipping: volume goes up to 150%, and eSpeak's loudest vowels
 * would then exceed full scale. Hard clipping flattens those peaks into audible
 * distortion; the limiter instead lowers the gain smoothly for a few milliseconds around
 * each peak, so the rest of the audio keeps exactly the requested gain.
 */

import { exceedsMagnitude } from './peak-scan';

/** Full scale of 16-bit PCM, as an amplitude. */
const FULL_SCALE = 32767;

/** Amplitude (0–32767) of a level in dBFS (0 dBFS = full scale). */
export function dbfsToAmplitude(db: number): number {
  return FULL_SCALE * 10 ** (db / 20);
}

/** Default limiter ceiling, dBFS: 1 dB of headroom, so MP3 decoding rarely overshoots full scale. */
export const LIMITER_CEILING_DB = -1;
/** Look-ahead of the limiter, ms: long enough to ramp down smoothly before a peak. */
export const LIMITER_LOOKAHEAD_MS = 5;
/** Release time constant of the limiter, ms: slow enough not to follow the voice's pitch periods. */
export const LIMITER_RELEASE_MS = 80;

export interface VolumeOptions {
  /** Linear gain, e.g. volume percent / 100 (the API's 50–150 gives 0.5–1.5). Must be ≥ 0. */
  gain: number;
  /** Hz; sets the look-ahead and release lengths in samples. */
  sampleRate: number;
  /** Limiter ceiling in dBFS (≤ 0); default LIMITER_CEILING_DB (-1 dBFS ≈ 29204). */
  ceiling?: number;
  /** Look-ahead, ms; default LIMITER_LOOKAHEAD_MS. This is also the output delay. */
  lookaheadMs?: number;
  /** Release time constant, ms; default LIMITER_RELEASE_MS. */
  releaseMs?: number;
}

/** A stateful volume stage; one per output stream. */
export interface VolumeProcessor {
  /**
   * Applies gain and limiting to the next samples. Output lags input by the look-ahead
   * (the first call returns that many fewer samples); the result is a new array and the
   * input is not modified. Splitting the input differently gives identical output.
   */
  process(pcm: Int16Array): Int16Array;
  /**
   * The same output as `process`, as one or more arrays in order, some of which may be views
   * on `pcm`: with gain 1 and the limiter idle, output is input, only `latency` samples late,
   * so the bulk of a quiet chunk is handed back as it is, not copied. The caller must not change
   * `pcm` while it uses the result.
   */
  processViews(pcm: Int16Array): Int16Array[];
  /**
   * Returns the delayed tail, so that total samples out equal total samples in, and
   * resets the processor for a new stream.
   */
  flush(): Int16Array;
  /** Samples of delay between input and output. */
  readonly latency: number;
}

/**
 * Volume with a look-ahead peak limiter, for a stream of chunks.
 *
 * Each input sample x (after gain) needs a gain of at most ceiling/|x|. The limiter takes
 * the minimum of that over the look-ahead window (peak hold), lets it recover with an
 * exponential release, and smooths it with a moving average as long as the window. Since
 * the hold is as long as the average, the smoothed gain reaches the needed gain exactly
 * when the peak leaves the delay line: no sample exceeds the ceiling, and the gain moves
 * over a full look-ahead (5 ms) rather than jumping, which would click.
 * Below the ceiling the gain is exactly `gain`: at gain 1 the output equals the input.
 */
export function createVolumeProcessor(options: VolumeOptions): VolumeProcessor {
  const limiter = createLimiter(options);
  return {
    latency: limiter.latency,
    process: (pcm) => processBlocks(limiter, pcm),
    processViews: (pcm) => processViews(limiter, pcm),
    flush: () => flushLimiter(limiter),
  };
}

/**
 * One stream's limiter: its settings and its state between samples, in three parts. The
 * look-ahead: the delay line of gained samples (`delay`, sample n at ring position `slot`) and
 * the running minimum of the gain each needs over the window (peak hold: a monotonic deque in
 * `dequeValue`/`dequeIndex`, `size` entries from `head`). The release: `released`, the held gain
 * after the exponential recovery. The smoothing: the moving average of the last `window`
 * released gains (ring `smooth`, running sum `sum`).
 *
 * The per-sample loops below copy the fields they use into locals and write them back at the end
 * of a block: fields, like closure variables, stay in memory rather than registers, and these
 * loops run over every sample of a render (about 140 million for a 100,000-character chapter).
 * Short local names there: `line` the delay line, `smoothed` the released gains, `dv`/`di` the
 * deque, `g` gain, `c` ceiling, `w` window, `r` release, `lat` latency, `cp` deque capacity,
 * `h`/`count` the deque's head and size, `gainNow` the released gain, `total` the sum,
 * `k` the samples taken in, `at` the ring position.
 */
interface Limiter {
  readonly gain: number;
  /** Amplitude. */
  readonly ceiling: number;
  /** Look-ahead, samples: the length of the delay line, the peak hold and the moving average. */
  readonly window: number;
  /** Release coefficient per sample. */
  readonly release: number;
  /** window - 1: samples of delay between input and output. */
  readonly latency: number;
  /** Capacity of the deque's ring, window + 1. */
  readonly cap: number;
  readonly delay: Float64Array;
  readonly smooth: Float64Array;
  readonly dequeValue: Float64Array;
  readonly dequeIndex: Float64Array;
  head: number;
  size: number;
  released: number;
  sum: number;
  /** Samples taken in so far. */
  n: number;
  /** Ring position of sample n. */
  slot: number;
}

function createLimiter(options: VolumeOptions): Limiter {
  const { gain, sampleRate } = options;
  if (!(gain >= 0) || !Number.isFinite(gain))
    throw new RangeError(`gain must be a finite number ≥ 0, got ${gain}`);
  if (!(sampleRate > 0)) throw new RangeError(`sampleRate must be > 0, got ${sampleRate}`);
  const window = Math.max(1, Math.round(((options.lookaheadMs ?? LIMITER_LOOKAHEAD_MS) / 1000) * sampleRate));
  const releaseSamples = ((options.releaseMs ?? LIMITER_RELEASE_MS) / 1000) * sampleRate;
  const limiter: Limiter = {
    gain,
    ceiling: Math.min(FULL_SCALE, dbfsToAmplitude(options.ceiling ?? LIMITER_CEILING_DB)),
    window,
    release: releaseSamples > 0 ? 1 - Math.exp(-1 / releaseSamples) : 1,
    latency: window - 1,
    cap: window + 1,
    delay: new Float64Array(window),
    smooth: new Float64Array(window),
    dequeValue: new Float64Array(window + 1),
    dequeIndex: new Float64Array(window + 1),
    head: 0,
    size: 0,
    released: 1,
    sum: window,
    n: 0,
    slot: 0,
  };
  resetLimiter(limiter);
  return limiter;
}

/** Back to the start of a stream: silence in the delay line, no gain reduction. */
function resetLimiter(s: Limiter): void {
  s.delay.fill(0);
  s.smooth.fill(1);
  s.head = 0;
  s.size = 0;
  s.released = 1;
  s.sum = s.window;
  s.n = 0;
  s.slot = 0;
}

/** No gain reduction anywhere: the peak hold, the release and the moving average all at 1. */
function limiterIdle(s: Limiter): boolean {
  return s.released === 1 && s.sum === s.window && (s.size === 0 || s.dequeValue[s.head] === 1);
}

/** The peak hold after samples that all need gain 1: one entry, gain 1 at the last sample. */
function holdUnity(s: Limiter): void {
  s.head = 0;
  s.size = 1;
  s.dequeValue[0] = 1;
  s.dequeIndex[0] = s.n - 1;
}

/**
 * `process`: the input in blocks of FAST_BLOCK samples, each through the cheapest of three loops
 * that gives `limitBlock`'s output for it, bit for bit, so the output never depends on which one
 * ran: a plain delay line while the limiter is idle, the
 * release and smoothing alone while it recovers from a peak, the whole limiter otherwise.
 */
function processBlocks(s: Limiter, pcm: Int16Array): Int16Array {
  const { gain, ceiling, latency } = s;
  const before = Math.max(0, s.n - latency);
  const out = new Int16Array(Math.max(0, s.n + pcm.length - latency) - before);
  let o = 0;
  for (let start = 0, end = 0; start < pcm.length; start = end) {
    end = Math.min(pcm.length, start + FAST_BLOCK);
    // Whether the window holds no gain reduction (every deque entry is 1: its minimum, at the head, is).
    const windowQuiet = s.size === 0 || s.dequeValue[s.head] === 1;
    const blockQuiet = windowQuiet && blockPeak(pcm, start, end) * gain <= ceiling;
    if (blockQuiet && s.released === 1 && s.sum === s.window) {
      // An idle block leaves the limiter idle, so the quiet blocks after it are one run.
      while (end < pcm.length) {
        const next = Math.min(pcm.length, end + FAST_BLOCK);
        if (blockPeak(pcm, end, next) * gain > ceiling) break;
        end = next;
      }
      o = delayIdle(s, pcm, start, end, out, o);
    } else if (blockQuiet) {
      o = limitBlock(s, pcm, start, end, out, o, true);
    } else {
      o = limitBlock(s, pcm, start, end, out, o, false);
    }
  }
  return out;
}

/**
 * Fully idle, bit-exact with `limitBlock`: with no gain reduction in the window and none needed
 * in `pcm[start..end)`, the limiter reduces to a plain delay line of the gained samples. Each
 * output is the gained sample `lat` before it: from the ring while the run's first samples wait,
 * then straight from `pcm` (a plain copy at gain 1); only the run's last `w` samples go into the
 * ring. The ring is read before it is written, as `limitBlock` reads each slot before the sample
 * that overwrites it arrives. Writes from `out[o]`; returns the next `o`.
 */
function delayIdle(
  s: Limiter,
  pcm: Int16Array,
  start: number,
  end: number,
  out: Int16Array,
  o: number,
): number {
  const { delay: line, gain: g, window: w, latency: lat } = s;
  const k = s.n;
  const at = s.slot;
  const length = end - start;
  const fromRing = Math.min(length, lat);
  for (let i = 0; i < fromRing; i++) {
    if (k + i < lat) continue;
    let from = at + i + 1;
    if (from >= w) from -= w;
    out[o++] = roundSample(line[from]!);
  }
  if (length > lat) {
    const first = start + lat;
    if (g === 1) {
      out.set(pcm.subarray(first - lat, end - lat), o);
      o += end - first;
    } else {
      for (let i = first; i < end; i++) out[o++] = roundSample(pcm[i - lat]! * g);
    }
  }
  const kept = Math.max(start, end - w);
  let to = (at + (kept - start)) % w;
  for (let i = kept; i < end; i++) {
    line[to] = pcm[i]! * g;
    to = to + 1 === w ? 0 : to + 1;
  }
  s.slot = (at + length) % w;
  s.n = k + length;
  holdUnity(s);
  return o;
}

/**
 * Limiting, sample by sample over `pcm[start..end)`: each sample gained into the delay line, the
 * running minimum of the needed gain over the window (its ring indexes wrap without `%`, which
 * costs more than the rest), an instant attack (the look-ahead already anticipates the peak) and
 * an exponential release, then the moving average; the output is the oldest sample in the delay
 * line (the one the smoothed gain was built for), from the stream's sample `latency` on. The
 * running sum is recomputed once per window so rounding errors cannot build up over hours.
 *
 * `recovering`: every needed gain in the window and in the block is 1, so the held gain is 1 and
 * the running minimum need not be kept per sample (it is one entry after the block); the release
 * and the moving average go on as ever. Loud passages at volumes above 100 spend most of their
 * time so, seconds after each limited peak.
 */
function limitBlock(
  s: Limiter,
  pcm: Int16Array,
  start: number,
  end: number,
  out: Int16Array,
  o: number,
  recovering: boolean,
): number {
  const { delay: line, smooth: smoothed, dequeValue: dv, dequeIndex: di } = s;
  const { gain: g, ceiling: c, window: w, release: r, latency: lat, cap: cp } = s;
  let h = s.head;
  let count = s.size;
  let gainNow = s.released;
  let total = s.sum;
  let k = s.n;
  let at = s.slot;
  for (let i = start; i < end; i++) {
    const x = pcm[i]! * g;
    line[at] = x;
    let held = 1;
    if (!recovering) {
      const magnitude = x < 0 ? -x : x;
      const needed = magnitude > c ? c / magnitude : 1;
      let last = h + count - 1;
      if (last >= cp) last -= cp;
      while (count > 0 && dv[last]! >= needed) {
        count--;
        last = last === 0 ? cp - 1 : last - 1;
      }
      let tail = h + count;
      if (tail >= cp) tail -= cp;
      dv[tail] = needed;
      di[tail] = k;
      count++;
      if (di[h]! <= k - w) {
        h = h + 1 === cp ? 0 : h + 1;
        count--;
      }
      held = dv[h]!;
    }
    gainNow = held < gainNow ? held : gainNow + (held - gainNow) * r;
    total += gainNow - smoothed[at]!;
    smoothed[at] = gainNow;
    k++;
    at++;
    if (at === w) {
      at = 0;
      total = 0;
      for (let j = 0; j < w; j++) total += smoothed[j]!;
    }
    if (k > lat) {
      const y = roundSample(line[at]! * (total / w));
      out[o++] = y > 32767 ? 32767 : y < -32768 ? -32768 : y;
    }
  }
  s.head = h;
  s.size = count;
  s.released = gainNow;
  s.sum = total;
  s.n = k;
  s.slot = at;
  if (recovering) holdUnity(s);
  return o;
}

/** `processViews`: quiet input at gain 1 handed back as views on it (see `VolumeProcessor`). */
function processViews(s: Limiter, pcm: Int16Array): Int16Array[] {
  const { delay, window, latency } = s;
  const length = pcm.length;
  if (s.gain !== 1 || !limiterIdle(s) || length === 0 || exceedsMagnitude(pcm, s.ceiling))
    return [processBlocks(s, pcm)];
  // `process` would take its fully idle path over the whole of `pcm` (one run: no block
  // exceeds the ceiling), which at gain 1 outputs the delay line's samples (the previous
  // input's last `latency`, none at the stream's start) and then `pcm` itself, `latency`
  // samples late; the state after it is set here as that path leaves it.
  const views: Int16Array[] = [];
  const fromRing = Math.min(length, latency);
  const skipped = Math.max(0, Math.min(fromRing, latency - s.n));
  if (fromRing > skipped) {
    const delayed = new Int16Array(fromRing - skipped);
    for (let i = skipped; i < fromRing; i++) {
      let from = s.slot + i + 1;
      if (from >= window) from -= window;
      delayed[i - skipped] = delay[from]!;
    }
    views.push(delayed);
  }
  if (length > latency) views.push(pcm.subarray(0, length - latency));
  const kept = Math.max(0, length - window);
  let to = (s.slot + kept) % window;
  for (let i = kept; i < length; i++) {
    delay[to] = pcm[i]!;
    to = to + 1 === window ? 0 : to + 1;
  }
  s.slot = (s.slot + length) % window;
  s.n += length;
  holdUnity(s);
  return views;
}

/**
 * `flush`: the samples still in the delay line, pushed out with `latency` zeros; then a new
 * stream. Only the samples that were in the line come out (`limitBlock` gives no output for the
 * first `latency` samples of a stream), not the zeros.
 */
function flushLimiter(s: Limiter): Int16Array {
  const out = new Int16Array(Math.min(s.n, s.latency));
  limitBlock(s, new Int16Array(s.latency), 0, s.latency, out, 0, false);
  resetLimiter(s);
  return out;
}

/**
 * `Math.round(x)` for |x| < 2^52, in about half the time on audio: V8's Math.round branches
 * on the fraction, which the CPU mispredicts for about every other sample. floor(x + 0.5)
 * gives the same integer everywhere in that range except at the largest double below 0.5,
 * where the addition rounds up to 1. (Beyond 2^52 they may differ by one; the limiter's
 * outputs there are clipped to 16 bits either way.)
 */
function roundSample(x: number): number {
  return x === 0.49999999999999994 ? 0 : Math.floor(x + 0.5);
}

/** Block size of the limiter's fast-path check, samples (~23 ms at 22050 Hz). */
const FAST_BLOCK = 512;

/** Largest magnitude in `pcm[start..end)`; Math.max and Math.abs compile without branches, which audio's signs would mispredict. */
function blockPeak(pcm: Int16Array, start: number, end: number): number {
  let max = 0;
  for (let i = start; i < end; i++) max = Math.max(max, Math.abs(pcm[i]!));
  return max;
}

/** `ms` milliseconds of digital silence at `sampleRate` Hz (rounded to whole samples; 0 for ms ≤ 0). */
export function silence(ms: number, sampleRate: number): Int16Array {
  return new Int16Array(Math.max(0, Math.round((ms / 1000) * sampleRate)) || 0);
}

/**
 * Fades the first and/or last `ms` milliseconds in place with a half-cosine ramp, so a
 * chunk cut out of the engine's audio starts and ends at zero and joins without a click.
 * A chunk shorter than two fades is faded over half its length at each end.
 * @returns the same array
 */
export function fadeEdges(
  pcm: Int16Array,
  sampleRate: number,
  ms = 5,
  edges: 'both' | 'in' | 'out' = 'both',
): Int16Array {
  const length = Math.min(Math.round((ms / 1000) * sampleRate), Math.floor(pcm.length / 2));
  if (length <= 0) return pcm;
  for (let i = 0; i < length; i++) {
    // 0 at the outer sample, rising to just below 1 at the inner end of the ramp.
    const g = 0.5 - 0.5 * Math.cos((Math.PI * i) / length);
    if (edges !== 'out') pcm[i] = Math.round(pcm[i]! * g);
    if (edges !== 'in') pcm[pcm.length - 1 - i] = Math.round(pcm[pcm.length - 1 - i]! * g);
  }
  return pcm;
}

/** Default threshold of `trimSilence`, dBFS (amplitude ≈ 33). eSpeak's own silence is digital zero. */
const SILENCE_THRESHOLD_DB = -60;

/**
 * Counts the silent samples at each end: samples whose magnitude is at or below
 * `thresholdDb` dBFS. The caller slices `pcm.subarray(start, pcm.length - end)`.
 * All-silent input gives `{ start: pcm.length, end: 0 }`.
 */
export function trimSilence(
  pcm: Int16Array,
  thresholdDb = SILENCE_THRESHOLD_DB,
): { start: number; end: number } {
  const threshold = dbfsToAmplitude(thresholdDb);
  let start = 0;
  while (start < pcm.length && Math.abs(pcm[start]!) <= threshold) start++;
  if (start === pcm.length) return { start, end: 0 };
  let last = pcm.length - 1;
  while (Math.abs(pcm[last]!) <= threshold) last--;
  return { start, end: pcm.length - 1 - last };
}
