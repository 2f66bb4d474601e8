/**
 * Loudness of mono 16-bit PCM, measured as it streams past: integrated loudness (ITU-R
 * BS.1770-4, gated as EBU R 128 does), RMS, sample peak, true peak (4× oversampled), a noise
 * floor estimate, and the length of the quiet lead-in and tail. Memory is one number per 100 ms.
 *
 * Levels are in dB relative to full scale with 32768 as 0 dBFS, as ffmpeg's astats and ebur128
 * filters count 16-bit audio. A level of silence (−∞) is reported as `null` (JSON has no −∞).
 */

/** What `LoudnessMeter.result` reports for the audio it was given. */
export interface LoudnessMeasurement {
  /** Integrated loudness, LUFS (BS.1770-4: K-weighted, 400 ms blocks, −70 LUFS and −10 LU gates); null: no block above −70 LUFS. */
  integratedLufs: number | null;
  /** RMS of all samples, dBFS; null for digital silence. */
  rmsDbfs: number | null;
  /** Largest sample magnitude, dBFS; null for digital silence. */
  peakDbfs: number | null;
  /** Largest magnitude of the signal oversampled 4× (BS.1770-4 annex 2), dBTP; null for digital silence. */
  truePeakDbtp: number | null;
  /** RMS of the quietest 500 ms window (100 ms steps), dBFS: the noise floor; null when it is digital silence. */
  noiseFloorDbfs: number | null;
  /** Time before the first sample above `QUIET_DBFS`, ms (the whole length if there is none). */
  leadInMs: number;
  /** Time after the last sample above `QUIET_DBFS`, ms. */
  tailMs: number;
  durationMs: number;
  sampleRate: number;
}

/** Level below which a sample counts as quiet for `leadInMs` and `tailMs`, dBFS (ffmpeg silencedetect's usual −55 dB… −60 dB). */
const QUIET_DBFS = -55;

/** A streaming loudness meter for one stream. */
export interface LoudnessMeter {
  /** Measures the next samples (any length). */
  add(pcm: Int16Array): void;
  /** The measurement of everything added so far (the meter can go on afterwards). */
  result(): LoudnessMeasurement;
}

const FULL_SCALE = 32768;

/** Level in dB of a mean square (of samples scaled to ±1); null for 0. */
function powerDb(meanSquare: number): number | null {
  return meanSquare > 0 ? 10 * Math.log10(meanSquare) : null;
}

/** Biquad coefficients, a0 normalised to 1. */
interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

/**
 * BS.1770's K-weighting at `rate` Hz: the high-shelf "pre-filter" and the RLB high-pass, from
 * their analog prototypes (as libebur128 derives them), so any sample rate gets the response
 * the standard tabulates at 48 kHz.
 */
function kWeighting(rate: number): [Biquad, Biquad] {
  let f0 = 1681.974450955533;
  const gainDb = 3.999843853973347;
  let q = 0.7071752369554196;
  let k = Math.tan((Math.PI * f0) / rate);
  const vh = 10 ** (gainDb / 20);
  const vb = vh ** 0.4996667741545416;
  let a0 = 1 + k / q + k * k;
  const shelf: Biquad = {
    b0: (vh + (vb * k) / q + k * k) / a0,
    b1: (2 * (k * k - vh)) / a0,
    b2: (vh - (vb * k) / q + k * k) / a0,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / q + k * k) / a0,
  };
  f0 = 38.13547087602444;
  q = 0.5003270373238773;
  k = Math.tan((Math.PI * f0) / rate);
  a0 = 1 + k / q + k * k;
  const highPass: Biquad = { b0: 1, b1: -2, b2: 1, a1: (2 * (k * k - 1)) / a0, a2: (1 - k / q + k * k) / a0 };
  return [shelf, highPass];
}

/** Oversampling factor and taps per phase of the true-peak interpolator. */
const OVERSAMPLE = 4;
const TAPS = 12;

/**
 * The 4× interpolator's polyphase filters: a windowed sinc (Blackman-Harris over 12 input
 * samples), phase p computing the signal p/4 of a sample after the middle of the history.
 */
function interpolatorPhases(): Float64Array[] {
  const phases: Float64Array[] = [];
  for (let p = 1; p < OVERSAMPLE; p++) {
    const h = new Float64Array(TAPS);
    let sum = 0;
    for (let j = 0; j < TAPS; j++) {
      // Tap j weighs the sample j steps before the newest; the point lies p/4 after the
      // sample TAPS/2 steps before the newest, so six samples lie on each side of it.
      const t = j - TAPS / 2 + p / OVERSAMPLE;
      const sinc = Math.sin(Math.PI * t) / (Math.PI * t);
      const x = (t + TAPS / 2) / TAPS;
      const w =
        0.35875 -
        0.48829 * Math.cos(2 * Math.PI * x) +
        0.14128 * Math.cos(4 * Math.PI * x) -
        0.01168 * Math.cos(6 * Math.PI * x);
      h[j] = sinc * w;
      sum += h[j]!;
    }
    for (let j = 0; j < TAPS; j++) h[j]! /= sum;
    phases.push(h);
  }
  return phases;
}

let phasesCache: Float64Array[] | undefined;

export interface LoudnessMeterOptions {
  /** Measure the true peak (default true); without it `truePeakDbtp` is the sample peak, and the meter is about twice as fast. */
  truePeak?: boolean;
  /**
   * Measure one level only (the mastering's level search): `rms` counts the sum of squares alone,
   * `lufs` the K-weighted blocks alone, several times faster than the whole measurement. The
   * fields not measured are null (levels) or 0 (times); that level is exactly what the whole
   * measurement gives.
   */
  only?: 'rms' | 'lufs';
}

/** Samples per block of the true-peak search (see `add`). */
const PEAK_BLOCK = 64;

/** A meter for a stream at `sampleRate` Hz. */
export function createLoudnessMeter(sampleRate: number, options: LoudnessMeterOptions = {}): LoudnessMeter {
  const wantsTruePeak = options.truePeak ?? true;
  if (!Number.isInteger(sampleRate) || sampleRate <= 0)
    throw new RangeError(`invalid sample rate: ${sampleRate}`);
  const [shelf, highPass] = kWeighting(sampleRate);
  const step = Math.round(sampleRate / 10);
  const quiet = FULL_SCALE * 10 ** (QUIET_DBFS / 20);

  // Filter states (direct form I).
  let s1 = 0;
  let s2 = 0;
  let sy1 = 0;
  let sy2 = 0;
  let h1 = 0;
  let h2 = 0;
  let hy1 = 0;
  let hy2 = 0;

  /** Per 100 ms step: the K-weighted and the plain sums of squares (scaled to ±1). */
  const weighted: number[] = [];
  const plain: number[] = [];
  let stepWeighted = 0;
  let stepPlain = 0;
  let inStep = 0;

  let samples = 0;
  let sumSquares = 0;
  let peak = 0;
  const truePeak = wantsTruePeak && options.only === undefined ? createTruePeakMeter() : undefined;
  let firstLoud = -1;
  let lastLoud = -1;

  /** RMS only: the sum of squares (as the whole measurement sums it). */
  const addSquares = (pcm: Int16Array) => {
    let sum = sumSquares;
    for (let i = 0; i < pcm.length; i++) {
      const x = pcm[i]! / FULL_SCALE;
      sum += x * x;
    }
    sumSquares = sum;
    samples += pcm.length;
  };

  /** The K-weighted (and plain, unless `lufsOnly`) sums of squares per 100 ms step. */
  const addWeighted = (pcm: Int16Array, lufsOnly: boolean) => {
    const { b0: sb0, b1: sb1, b2: sb2, a1: sa1, a2: sa2 } = shelf;
    const { b0: hb0, b1: hb1, b2: hb2, a1: ha1, a2: ha2 } = highPass;
    let [ls1, ls2, lsy1, lsy2, lh1, lh2, lhy1, lhy2] = [s1, s2, sy1, sy2, h1, h2, hy1, hy2];
    let w = stepWeighted;
    let p = stepPlain;
    let inS = inStep;
    let sum = sumSquares;
    let pk = peak;
    for (let i = 0; i < pcm.length; i++) {
      const v = pcm[i]!;
      const x = v / FULL_SCALE;
      if (!lufsOnly) {
        const a = v < 0 ? -v : v;
        if (a > pk) pk = a;
        if (a > quiet) {
          if (firstLoud < 0) firstLoud = samples + i;
          lastLoud = samples + i;
        }
        sum += x * x;
      }
      const y1 = sb0 * x + sb1 * ls1 + sb2 * ls2 - sa1 * lsy1 - sa2 * lsy2;
      ls2 = ls1;
      ls1 = x;
      lsy2 = lsy1;
      lsy1 = y1;
      const y2 = hb0 * y1 + hb1 * lh1 + hb2 * lh2 - ha1 * lhy1 - ha2 * lhy2;
      lh2 = lh1;
      lh1 = y1;
      lhy2 = lhy1;
      lhy1 = y2;
      w += y2 * y2;
      p += x * x;
      if (++inS === step) {
        weighted.push(w);
        plain.push(p);
        w = 0;
        p = 0;
        inS = 0;
      }
    }
    [s1, s2, sy1, sy2, h1, h2, hy1, hy2] = [ls1, ls2, lsy1, lsy2, lh1, lh2, lhy1, lhy2];
    stepWeighted = w;
    stepPlain = p;
    inStep = inS;
    sumSquares = sum;
    peak = pk;
    samples += pcm.length;
  };

  return {
    add(pcm) {
      if (options.only === 'rms') return addSquares(pcm);
      addWeighted(pcm, options.only === 'lufs');
      truePeak?.add(pcm);
    },
    result() {
      const integratedLufs = gatedLoudness(weighted, step);
      const floor = noiseFloor(plain, step, sumSquares, samples);
      const ms = (n: number) => (n / sampleRate) * 1000;
      const db = (amplitude: number) => (amplitude > 0 ? 20 * Math.log10(amplitude) : null);
      if (options.only !== undefined) {
        return {
          integratedLufs: options.only === 'lufs' ? integratedLufs : null,
          rmsDbfs: options.only === 'rms' && samples > 0 ? powerDb(sumSquares / samples) : null,
          peakDbfs: null,
          truePeakDbtp: null,
          noiseFloorDbfs: null,
          leadInMs: 0,
          tailMs: 0,
          durationMs: ms(samples),
          sampleRate,
        };
      }
      return {
        integratedLufs,
        rmsDbfs: samples > 0 ? powerDb(sumSquares / samples) : null,
        peakDbfs: db(peak / FULL_SCALE),
        truePeakDbtp: db(Math.max(truePeak?.peak() ?? 0, peak / FULL_SCALE)),
        noiseFloorDbfs: Number.isFinite(floor) ? powerDb(Math.max(0, floor)) : null,
        leadInMs: ms(firstLoud < 0 ? samples : firstLoud),
        tailMs: ms(lastLoud < 0 ? 0 : samples - 1 - lastLoud),
        durationMs: ms(samples),
        sampleRate,
      };
    },
  };
}

/**
 * Integrated loudness (BS.1770-4) from the K-weighted sums of squares per 100 ms `step`: 400 ms
 * blocks every 100 ms, gated at −70 LUFS and then 10 LU below the mean of those left; null when
 * no block is above −70 LUFS.
 */
function gatedLoudness(weighted: number[], step: number): number | null {
  const blocks: number[] = [];
  for (let i = 0; i + 4 <= weighted.length; i++) {
    blocks.push((weighted[i]! + weighted[i + 1]! + weighted[i + 2]! + weighted[i + 3]!) / (4 * step));
  }
  const loudness = (z: number) => -0.691 + 10 * Math.log10(z);
  const mean = (zs: number[]) => zs.reduce((s, z) => s + z, 0) / zs.length;
  const absolute = blocks.filter((z) => z > 0 && loudness(z) > -70);
  if (absolute.length === 0) return null;
  const threshold = loudness(mean(absolute)) - 10;
  const relative = absolute.filter((z) => loudness(z) > threshold);
  return loudness(mean(relative));
}

/**
 * The noise floor as a mean square: that of the quietest 500 ms (five steps of `plain`, the sums
 * of squares per 100 ms `step`); a shorter stream is one window; +∞ when there is no sample.
 */
function noiseFloor(plain: number[], step: number, sumSquares: number, samples: number): number {
  if (plain.length >= 5) {
    let windowSum = plain[0]! + plain[1]! + plain[2]! + plain[3]! + plain[4]!;
    let floor = windowSum;
    for (let i = 5; i < plain.length; i++) {
      windowSum += plain[i]! - plain[i - 5]!;
      if (windowSum < floor) floor = windowSum;
    }
    return floor / (5 * step);
  }
  return samples > 0 ? sumSquares / samples : Number.POSITIVE_INFINITY;
}

/**
 * A true-peak meter (BS.1770-4 annex 2): after each sample, the three points between the two
 * samples in the middle of the last TAPS, by the 4× interpolator; `peak` is the largest magnitude
 * found so far (scaled to ±1). A block of PEAK_BLOCK points is skipped when no point of it can
 * exceed the peak found so far (its inputs' largest magnitude times `gainBound`): what it would
 * find is never larger, so the result is exactly that of computing every point.
 */
function createTruePeakMeter(): { add(pcm: Int16Array): void; peak(): number } {
  const phases = (phasesCache ??= interpolatorPhases());
  /** The largest |y| any tap set can give from inputs of magnitude ≤ 1 (bounds a block's true peak). */
  const gainBound = Math.max(...phases.map((h) => h.reduce((n, c) => n + Math.abs(c), 0)));
  const [h1c, h2c, h3c] = phases as [Float64Array, Float64Array, Float64Array];
  /** The last TAPS − 1 input samples before the block being measured (oldest first), then the block. */
  let context = new Float64Array(TAPS - 1 + 4096);
  let truePeak = 0;

  const add = (pcm: Int16Array) => {
    const keep = TAPS - 1;
    if (context.length < keep + pcm.length) {
      const grown = new Float64Array(keep + pcm.length);
      grown.set(context.subarray(0, keep));
      context = grown;
    }
    const buf = context;
    for (let i = 0; i < pcm.length; i++) buf[keep + i] = pcm[i]! / FULL_SCALE;
    let tp = truePeak;
    for (let start = 0; start < pcm.length; start += PEAK_BLOCK) {
      const end = Math.min(pcm.length, start + PEAK_BLOCK);
      let max = 0;
      for (let k = start; k < end + keep; k++) max = Math.max(max, Math.abs(buf[k]!));
      if (max * gainBound <= tp) continue;
      for (let n = start + keep; n < end + keep; n++) {
        // buf[n] is the newest sample; tap j weighs buf[n - j].
        let y1 = 0;
        let y2 = 0;
        let y3 = 0;
        for (let j = 0; j < TAPS; j++) {
          const x = buf[n - j]!;
          y1 += h1c[j]! * x;
          y2 += h2c[j]! * x;
          y3 += h3c[j]! * x;
        }
        const m = Math.max(Math.abs(y1), Math.abs(y2), Math.abs(y3));
        if (m > tp) tp = m;
      }
    }
    truePeak = tp;
    // The last TAPS − 1 samples (with the ones before, if the block was shorter) lead the next block.
    buf.copyWithin(0, pcm.length, pcm.length + keep);
  };
  return { add, peak: () => truePeak };
}
