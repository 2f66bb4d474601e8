/**
 * The volume limiter against its first implementation, kept below verbatim as the reference:
 * the faster loops of `createVolumeProcessor` (locals, a copy when idle at gain 1, no running
 * minimum while recovering, floor-based rounding) must give the same samples, bit for bit, on
 * long speech-like input with peaks at many gains, ceilings, look-aheads and releases, fed in
 * the same random chunks to both. A render from the sentence cache is compared byte for byte
 * with one without, so the limiter may only get faster, never different.
 */

import { describe, expect, it } from 'vitest';
import { random } from '../../../fixtures/random';
import {
  createVolumeProcessor,
  dbfsToAmplitude,
  LIMITER_CEILING_DB,
  LIMITER_LOOKAHEAD_MS,
  LIMITER_RELEASE_MS,
  type VolumeOptions,
  type VolumeProcessor,
} from '../../../../electron/core/engine/audio/dsp';
import { speechPcm } from '../../../fixtures/espeak';
import { speechLike } from '../../../fixtures/speech-like';

const FULL_SCALE = 32767;

/** What the reference has: it came before `processViews`. */
type ReferenceProcessor = Omit<VolumeProcessor, 'processViews'>;

/**
 * Feeds `pcm` to `step` in chunks of random sizes (0 to `max` samples), then `flush`; returns
 * all their output joined in order.
 */
function runChunks(
  step: (chunk: Int16Array) => Int16Array[],
  flush: () => Int16Array,
  pcm: Int16Array,
  seed: number,
  max: number,
): Int16Array {
  const rand = random(seed);
  const parts: Int16Array[] = [];
  for (let i = 0; i < pcm.length;) {
    const size = Math.floor(rand() * (max + 1));
    parts.push(...step(pcm.subarray(i, i + size)));
    i += size;
  }
  parts.push(flush());
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** `processor` fed `pcm` in chunks of random sizes (see `runChunks`), then flushed. */
const run = (processor: ReferenceProcessor, pcm: Int16Array, seed: number, max: number) =>
  runChunks(
    (chunk) => [processor.process(chunk)],
    () => processor.flush(),
    pcm,
    seed,
    max,
  );

/** `run`, with the processor's output taken from `processViews` (the views joined in order). */
const runViews = (processor: VolumeProcessor, pcm: Int16Array, seed: number, max: number) =>
  runChunks(
    (chunk) => processor.processViews(chunk),
    () => processor.flush(),
    pcm,
    seed,
    max,
  );

/** Index of the first sample where `a` and `b` differ (or their lengths do), -1 when equal. */
function firstDifference(a: Int16Array, b: Int16Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

function expectSame(options: VolumeOptions, pcm: Int16Array, seed: number, maxChunk: number): Int16Array {
  const expected = run(referenceVolumeProcessor(options), pcm, seed, maxChunk);
  const actual = run(createVolumeProcessor(options), pcm, seed, maxChunk);
  expect(actual.length).toBe(pcm.length);
  expect({ ...options, at: firstDifference(actual, expected) }).toEqual({ ...options, at: -1 });
  return actual;
}

describe('volume limiter: bit-exact with its reference implementation', () => {
  const pcm = speechLike(30, 22050, 15);

  it('agrees at every volume of the API and beyond, with the default ceiling', () => {
    let limited = 0;
    for (const gain of [0, 0.5, 0.8, 1, 1.1, 1.25, 1.5, 2, 4, 10]) {
      const out = expectSame({ gain, sampleRate: 22050 }, pcm, gain * 1000 + 1, 30_000);
      // The signal must drive the limiter, or the comparison would prove little.
      if (gain >= 1.1 && out.some((v, i) => v !== Math.round(pcm[i]! * gain))) limited++;
    }
    expect(limited).toBe(6);
  });

  it('agrees at other ceilings, look-aheads, releases and sample rates', () => {
    const cases: VolumeOptions[] = [
      { gain: 1, sampleRate: 22050, ceiling: -6 },
      { gain: 1.3, sampleRate: 22050, ceiling: -0.1 },
      { gain: 1.5, sampleRate: 22050, ceiling: 0 },
      { gain: 0.9, sampleRate: 24000, ceiling: -3, lookaheadMs: 2 },
      { gain: 1.2, sampleRate: 44100, ceiling: -1, releaseMs: 10 },
      { gain: 1.4, sampleRate: 16000, ceiling: -2, lookaheadMs: 0.01, releaseMs: 0 },
      { gain: 2, sampleRate: 48000, ceiling: -12, lookaheadMs: 12, releaseMs: 300 },
    ];
    for (const [i, options] of cases.entries()) expectSame(options, pcm, 100 + i, 20_000);
  });

  it('agrees whatever the chunk sizes, including chunks shorter than the look-ahead', () => {
    const part = pcm.subarray(0, 22050 * 8);
    for (const [i, max] of [1, 37, 200, 513, 4096, 100_000].entries())
      expectSame({ gain: 1.5, sampleRate: 22050 }, part, 200 + i, max);
  });

  it('rounds as Math.round does, even where floor(x + 0.5) alone would not', () => {
    // 1 × 0.49999999999999994 is the largest double below 0.5: Math.round gives 0, and
    // x + 0.5 rounds up to 1 in floating point.
    const ones = new Int16Array(5000).fill(1);
    const out = expectSame({ gain: 0.49999999999999994, sampleRate: 22050 }, ones, 300, 1000);
    expect(out.every((v) => v === 0)).toBe(true);
    for (const gain of [0.5, 1.5, 2.5, 0.3, 0.7])
      expectSame({ gain, sampleRate: 22050 }, speechLike(3, 22050, 301), 302, 2000);
  });

  it('gives the same samples through processViews, which hands quiet input back uncopied', () => {
    // Half the syllables below the ceiling, half above it, so the views path and the fallback
    // to `process` (and the limiter's recovery between them) all run.
    for (const [i, gain] of [1, 1.5, 0.7].entries()) {
      for (const max of [1, 300, 5000, 60_000]) {
        const options = { gain, sampleRate: 22050 };
        const expected = run(referenceVolumeProcessor(options), pcm, 500 + i, max);
        const actual = runViews(createVolumeProcessor(options), pcm, 500 + i, max);
        expect({ gain, max, at: firstDifference(actual, expected) }).toEqual({ gain, max, at: -1 });
      }
    }
    const processor = createVolumeProcessor({ gain: 1, sampleRate: 22050 });
    const quiet = new Int16Array(4000).map((_, i) => Math.round(10_000 * Math.sin(i / 5)));
    processor.processViews(quiet);
    const next = quiet.slice();
    const views = processor.processViews(next);
    // The delay line's samples (the previous input's last), then the input itself.
    expect(views.map((v) => v.length)).toEqual([processor.latency, next.length - processor.latency]);
    expect(views[1]!.buffer).toBe(next.buffer);
    const loud = quiet.map((v) => v * 3);
    expect(processor.processViews(loud)).toHaveLength(1);
  });

  it('agrees on real engine speech at volume 150', async () => {
    const speech = await speechPcm('The harbour master counted the empty boats long after midnight.');
    expectSame({ gain: 1.5, sampleRate: 22050 }, speech, 400, 5000);
    expectSame({ gain: 1, sampleRate: 22050, ceiling: -8 }, speech, 401, 5000);
  });
});

/**
 * `createVolumeProcessor` as it was before it was made faster (per-sample `step` everywhere but
 * the fully idle case): the reference the new loops must match, kept here unchanged.
 */
function referenceVolumeProcessor(options: VolumeOptions): ReferenceProcessor {
  const { gain, sampleRate } = options;
  if (!(gain >= 0) || !Number.isFinite(gain))
    throw new RangeError(`gain must be a finite number ≥ 0, got ${gain}`);
  if (!(sampleRate > 0)) throw new RangeError(`sampleRate must be > 0, got ${sampleRate}`);
  const ceiling = Math.min(FULL_SCALE, dbfsToAmplitude(options.ceiling ?? LIMITER_CEILING_DB));
  const window = Math.max(1, Math.round(((options.lookaheadMs ?? LIMITER_LOOKAHEAD_MS) / 1000) * sampleRate));
  const releaseSamples = ((options.releaseMs ?? LIMITER_RELEASE_MS) / 1000) * sampleRate;
  const release = releaseSamples > 0 ? 1 - Math.exp(-1 / releaseSamples) : 1;
  const latency = window - 1;

  // Delay line of gained samples and ring of released gains (for the moving average).
  const delay = new Float64Array(window);
  const smooth = new Float64Array(window);
  // Monotonic deque for the running minimum of the needed gain over the window.
  const dequeValue = new Float64Array(window + 1);
  const dequeIndex = new Float64Array(window + 1);
  const cap = window + 1;
  let head = 0;
  let size = 0;
  let released = 1;
  let sum = window;
  /** Samples taken in so far, and the ring position of sample n. */
  let n = 0;
  let slot = 0;

  const reset = () => {
    delay.fill(0);
    smooth.fill(1);
    head = 0;
    size = 0;
    released = 1;
    sum = window;
    n = 0;
    slot = 0;
  };
  reset();

  /**
   * True when the limiter is fully released: no gain reduction pending in the window and
   * the smoothed gain exactly 1 (after a limited peak this takes about 3 s of release).
   */
  const isIdle = () => released === 1 && sum === window && (size === 0 || dequeValue[head] === 1);

  /** Takes sample n; returns the limited output for sample n - latency. */
  const step = (x: number): number => {
    delay[slot] = x;
    const magnitude = x < 0 ? -x : x;
    const needed = magnitude > ceiling ? ceiling / magnitude : 1;

    // Running minimum over the last `window` samples (ring indexes wrap without `%`, which
    // costs more than the rest of the step).
    let last = head + size - 1;
    if (last >= cap) last -= cap;
    while (size > 0 && dequeValue[last]! >= needed) {
      size--;
      last = last === 0 ? cap - 1 : last - 1;
    }
    let tail = head + size;
    if (tail >= cap) tail -= cap;
    dequeValue[tail] = needed;
    dequeIndex[tail] = n;
    size++;
    if (dequeIndex[head]! <= n - window) {
      head = head + 1 === cap ? 0 : head + 1;
      size--;
    }
    const held = dequeValue[head]!;

    // Instant attack (the look-ahead already anticipates the peak), exponential release.
    released = held < released ? held : released + (held - released) * release;

    sum += released - smooth[slot]!;
    smooth[slot] = released;
    n++;
    slot++;
    if (slot === window) {
      slot = 0;
      // Recompute the running sum once per window so rounding errors cannot build up over hours.
      sum = 0;
      for (let i = 0; i < window; i++) sum += smooth[i]!;
    }
    // The oldest sample in the delay line (now at `slot`) is the one the smoothed gain was built for.
    const y = Math.round(delay[slot]! * (sum / window));
    return y > 32767 ? 32767 : y < -32768 ? -32768 : y;
  };

  return {
    latency,
    process(pcm) {
      const before = Math.max(0, n - latency);
      const out = new Int16Array(Math.max(0, n + pcm.length - latency) - before);
      let o = 0;
      for (let start = 0; start < pcm.length; start += FAST_BLOCK) {
        const end = Math.min(pcm.length, start + FAST_BLOCK);
        if (isIdle() && blockPeak(pcm, start, end) * gain <= ceiling) {
          // Fast path, bit-exact with `step`: with no gain reduction in the window and none
          // needed in this block, `step` reduces to a plain delay line of the gained samples.
          for (let i = start; i < end; i++) {
            delay[slot] = pcm[i]! * gain;
            n++;
            slot = slot + 1 === window ? 0 : slot + 1;
            if (n > latency) out[o++] = Math.round(delay[slot]!);
          }
          // The running minimum now holds one entry: needed gain 1 at the last sample.
          head = 0;
          size = 1;
          dequeValue[0] = 1;
          dequeIndex[0] = n - 1;
          continue;
        }
        for (let i = start; i < end; i++) {
          const y = step(pcm[i]! * gain);
          if (n > latency) out[o++] = y;
        }
      }
      return out;
    },
    flush() {
      const out = new Int16Array(Math.min(n, latency));
      const pending = out.length;
      // Only the samples still in the delay line are returned; the zeros pushed in are not.
      for (let i = 0, o = 0; i < latency; i++) {
        const y = step(0);
        if (i >= latency - pending) out[o++] = y;
      }
      reset();
      return out;
    },
  };
}

/** Block size of the reference's fast-path check, samples. */
const FAST_BLOCK = 512;

function blockPeak(pcm: Int16Array, start: number, end: number): number {
  let max = 0;
  for (let i = start; i < end; i++) {
    const v = pcm[i]!;
    const a = v < 0 ? -v : v;
    if (a > max) max = a;
  }
  return max;
}
