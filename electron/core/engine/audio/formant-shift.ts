/**
 * Formant shift that keeps pitch and duration: the timbre of a voice (the spectral envelope its
 * vocal tract gives) moved up or down in frequency, its harmonics left where they are. A voice
 * code's character on a neural voice uses it (see ../voice-character.ts).
 *
 * Short-time Fourier transform, frames of about 40 ms (a power of two), hop a quarter frame,
 * Hann window on analysis and synthesis, overlap-added and normalised by the windows' sum. In
 * each frame the envelope is the cepstrally smoothed log magnitude (quefrencies below 1.8 ms:
 * under the pitch period of any speaking voice up to 550 Hz, so the harmonics are smoothed
 * out); the frame's spectrum is multiplied by envelope(f / ratio) / envelope(f), a real gain
 * per bin, so phases, and with them pitch and timing, stay as they were. The gain is held to
 * ±24 dB and the result scaled to the input's RMS, so the shift does not change loudness.
 */

/** Ratios accepted (the formant frequencies × ratio). */
export const MIN_FORMANT_RATIO = 0.7;
export const MAX_FORMANT_RATIO = 1.4;

/** Cepstral smoothing cut-off, seconds of quefrency. */
const LIFTER_SECONDS = 0.0018;
/** Largest gain of one bin, natural log (24 dB). */
const MAX_LOG_GAIN = Math.log(10 ** (12 / 20));
/** Magnitudes below this fraction of a frame's largest count as this fraction (−100 dB). */
const MAGNITUDE_FLOOR = 1e-5;

/**
 * Float `samples` (mono) with their formants × `ratio` and pitch and length kept: a new array
 * of the same length. Ratio 1 returns `samples` itself.
 * @throws RangeError for a ratio or sample rate out of range
 */
export function shiftFormants(samples: Float32Array, sampleRate: number, ratio: number): Float32Array {
  if (!Number.isFinite(ratio) || ratio < MIN_FORMANT_RATIO || ratio > MAX_FORMANT_RATIO) {
    throw new RangeError(`formant ratio ${ratio} is outside ${MIN_FORMANT_RATIO}–${MAX_FORMANT_RATIO}`);
  }
  if (!Number.isInteger(sampleRate) || sampleRate < 4000 || sampleRate > 192_000) {
    throw new RangeError(`sample rate ${sampleRate} is outside 4000–192000 Hz`);
  }
  if (ratio === 1 || samples.length === 0) return samples;

  const size = 2 ** Math.min(13, Math.max(8, Math.round(Math.log2(0.04 * sampleRate))));
  const hop = size / 4;
  const half = size / 2;
  const lifter = Math.max(4, Math.round(LIFTER_SECONDS * sampleRate));
  const fft = new Fft(size);
  const window = Float64Array.from(
    { length: size },
    (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size),
  );

  // The signal with a frame of silence on each side, so every sample is under four frames.
  const padded = samples.length + 2 * size;
  const out = new Float64Array(padded);
  const weight = new Float64Array(padded);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const cRe = new Float64Array(size);
  const cIm = new Float64Array(size);
  const envelope = new Float64Array(half + 1);
  const gain = new Float64Array(half + 1);
  const at = (i: number) => (i >= size && i < size + samples.length ? samples[i - size]! : 0);

  for (let start = 0; start + size <= padded; start += hop) {
    let loud = false;
    for (let i = 0; i < size; i++) {
      const v = at(start + i);
      if (v !== 0) loud = true;
      re[i] = v * window[i]!;
      im[i] = 0;
    }
    if (loud) {
      fft.transform(re, im);
      // Cepstrum of the log magnitude (real and even, so a forward transform serves as inverse).
      let largest = 0;
      for (let k = 0; k < size; k++) largest = Math.max(largest, Math.hypot(re[k]!, im[k]!));
      const floor = Math.max(largest * MAGNITUDE_FLOOR, 1e-20);
      for (let k = 0; k < size; k++) {
        cRe[k] = Math.log(Math.max(floor, Math.hypot(re[k]!, im[k]!)));
        cIm[k] = 0;
      }
      fft.transform(cRe, cIm);
      for (let q = 0; q < size; q++) {
        const kept = q <= lifter || q >= size - lifter;
        cRe[q] = kept ? cRe[q]! / size : 0;
        cIm[q] = 0;
      }
      fft.transform(cRe, cIm);
      for (let k = 0; k <= half; k++) envelope[k] = cRe[k]!;
      for (let k = 0; k <= half; k++) {
        const source = Math.min(half, k / ratio);
        const low = Math.floor(source);
        const high = Math.min(half, low + 1);
        const warped = envelope[low]! + (envelope[high]! - envelope[low]!) * (source - low);
        gain[k] = Math.exp(Math.max(-MAX_LOG_GAIN, Math.min(MAX_LOG_GAIN, warped - envelope[k]!)));
      }
      for (let k = 0; k < size; k++) {
        const g = gain[k <= half ? k : size - k]!;
        // Conjugated for the inverse transform below.
        re[k] = re[k]! * g;
        im[k] = -im[k]! * g;
      }
      fft.transform(re, im);
      for (let i = 0; i < size; i++) re[i] = re[i]! / size;
    }
    for (let i = 0; i < size; i++) {
      out[start + i]! += re[i]! * window[i]!;
      weight[start + i]! += window[i]! * window[i]!;
    }
  }

  const result = new Float32Array(samples.length);
  let inputEnergy = 0;
  let outputEnergy = 0;
  for (let i = 0; i < samples.length; i++) {
    const w = weight[i + size]!;
    const v = w > 1e-9 ? out[i + size]! / w : 0;
    result[i] = v;
    inputEnergy += samples[i]! * samples[i]!;
    outputEnergy += v * v;
  }
  if (outputEnergy > 0) {
    const scale = Math.sqrt(inputEnergy / outputEnergy);
    for (let i = 0; i < result.length; i++) result[i] = result[i]! * scale;
  }
  return result;
}

/** In-place radix-2 complex FFT of one length, its bit reversal and twiddles computed once. */
class Fft {
  private readonly reverse: Uint32Array;
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;

  constructor(private readonly size: number) {
    this.reverse = new Uint32Array(size);
    const bits = Math.log2(size);
    for (let i = 0; i < size; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.reverse[i] = r;
    }
    this.cos = Float64Array.from({ length: size / 2 }, (_, k) => Math.cos((-2 * Math.PI * k) / size));
    this.sin = Float64Array.from({ length: size / 2 }, (_, k) => Math.sin((-2 * Math.PI * k) / size));
  }

  transform(re: Float64Array, im: Float64Array): void {
    const n = this.size;
    for (let i = 0; i < n; i++) {
      const j = this.reverse[i]!;
      if (i < j) {
        [re[i], re[j]] = [re[j]!, re[i]!];
        [im[i], im[j]] = [im[j]!, im[i]!];
      }
    }
    for (let len = 2; len <= n; len <<= 1) {
      const step = n / len;
      const halfLen = len / 2;
      for (let i = 0; i < n; i += len) {
        for (let k = 0; k < halfLen; k++) {
          const wr = this.cos[k * step]!;
          const wi = this.sin[k * step]!;
          const a = i + k;
          const b = a + halfLen;
          const tr = re[b]! * wr - im[b]! * wi;
          const ti = re[b]! * wi + im[b]! * wr;
          re[b] = re[a]! - tr;
          im[b] = im[a]! - ti;
          re[a] = re[a]! + tr;
          im[a] = im[a]! + ti;
        }
      }
    }
  }
}
