/**
 * Automatic checks of a segment's rendered audio, from the samples themselves and the text it
 * says: silences longer than its punctuation explains, clipping, audio that ends before its text
 * does, and speech far faster or slower than the voice's norm. Pure: PCM in, SegmentCheck[] out.
 *
 * The analysis works on 10 ms frames: a frame is silent when its RMS is below −50 dBFS or 2.5 %
 * of the segment's loud level (its 90th percentile frame), whichever is higher. The length of the
 * audio is compared with what its characters predict at the voice's speed; when it is short,
 * its syllable nuclei (peaks of the smoothed frame level at least 5 dB above the dip before them)
 * tell a cut render (syllables missing) from a fast one (all there). The norms come from measured
 * eSpeak NG renders (NORMS below).
 */

import type { SegmentCheck } from '../../shared/projects';
import type { LanguageCode } from '../../shared/voices';

/**
 * Per language, at speed 1.0, measured on eSpeak NG renders of prose (test/fixtures/sentences.ts
 * and the sample texts; `npx tsx bench/audio-norms.ts`): characters (code points, spaces and
 * punctuation included) per second of audio, and syllable nuclei (see above) per character.
 */
const NORMS: Record<LanguageCode, { charsPerSecond: number; nucleiPerChar: number }> = {
  en: { charsPerSecond: 17.8, nucleiPerChar: 0.321 },
  vi: { charsPerSecond: 17.6, nucleiPerChar: 0.302 },
  zh: { charsPerSecond: 4.0, nucleiPerChar: 1.278 },
  ja: { charsPerSecond: 10.4, nucleiPerChar: 0.568 },
  ko: { charsPerSecond: 7.4, nucleiPerChar: 0.824 },
  fr: { charsPerSecond: 24.5, nucleiPerChar: 0.239 },
  es: { charsPerSecond: 18.1, nucleiPerChar: 0.329 },
};

/** What the checks are given besides the audio. */
export interface AudioCheckInput {
  pcm: Int16Array;
  sampleRate: number;
  /** The text the segment says (plain, as the writer wrote it). */
  text: string;
  language: LanguageCode;
  /** The voice's speed (0.5–2); duration scales as 1/speed. */
  speedRate: number;
}

/** Limits of the checks (exported for the tests' messages and the docs). */
const LIMITS = {
  /** A pause the text explains, seconds at speed 1: after a comma or nothing. */
  clausePause: 0.9,
  /** After a sentence's end (. ! ? …). */
  sentencePause: 1.3,
  /** At a paragraph break, or a dash/ellipsis run. */
  paragraphPause: 2.0,
  /** Consecutive full-scale samples that count as one clipped run. */
  clipRun: 3,
  /** Clipped runs that flag a segment. */
  clipRuns: 3,
  /** Short audio with less than this share of the syllables the text predicts ends early. */
  endsEarly: 0.45,
  /** Texts shorter than this (characters) are not judged on length or rate. */
  minChars: 24,
  /** Audio shorter than 1/x of what the text predicts is too fast (or ends early). */
  rateFactor: 1.6,
  /** Audio longer than x times what the text predicts is too slow. */
  slowFactor: 1.7,
} as const;

const FRAME_MS = 10;

interface Frames {
  /** RMS per frame. */
  rms: Float64Array;
  silent: Uint8Array;
}

function framesOf(pcm: Int16Array, sampleRate: number): Frames {
  const size = Math.max(1, Math.round((sampleRate * FRAME_MS) / 1000));
  const count = Math.ceil(pcm.length / size);
  const rms = new Float64Array(count);
  for (let f = 0; f < count; f++) {
    let sum = 0;
    const end = Math.min(pcm.length, (f + 1) * size);
    for (let i = f * size; i < end; i++) sum += pcm[i]! * pcm[i]!;
    rms[f] = Math.sqrt(sum / Math.max(1, end - f * size));
  }
  const sorted = Float64Array.from(rms).sort();
  const loud = sorted[Math.floor(sorted.length * 0.9)] ?? 0;
  const threshold = Math.max(32768 * 10 ** (-50 / 20), loud * 0.025);
  const silent = new Uint8Array(count);
  for (let f = 0; f < count; f++) silent[f] = rms[f]! < threshold ? 1 : 0;
  return { rms, silent };
}

/** Syllable nuclei: peaks of the smoothed level (dB) at least 5 dB above the dip before them. */
function nucleiOf({ rms, silent }: Frames): number {
  const db = new Float64Array(rms.length);
  for (let f = 0; f < rms.length; f++) {
    let sum = 0;
    let n = 0;
    for (let k = Math.max(0, f - 1); k <= Math.min(rms.length - 1, f + 1); k++) {
      sum += rms[k]!;
      n++;
    }
    db[f] = 20 * Math.log10(Math.max(1, sum / n));
  }
  let count = 0;
  let dip = Infinity;
  let rising = false;
  for (let f = 1; f < db.length; f++) {
    const level = db[f]!;
    if (level < dip) dip = level;
    if (level > db[f - 1]!) rising = true;
    else if (rising && level < db[f - 1]!) {
      rising = false;
      if (!silent[f - 1] && db[f - 1]! - dip >= 5) {
        count++;
        dip = level;
      }
    }
  }
  return count;
}

/** What the checks measure in a segment's audio (exported for `bench/audio-norms.ts`). */
export function measureSpeech(pcm: Int16Array, sampleRate: number) {
  const frames = framesOf(pcm, sampleRate);
  let voiced = 0;
  for (let f = 0; f < frames.rms.length; f++) if (!frames.silent[f]) voiced++;
  return {
    durationS: pcm.length / sampleRate,
    voicedS: (voiced * FRAME_MS) / 1000,
    nuclei: nucleiOf(frames),
  };
}

/** The longest pause, seconds at speed 1, that the text's punctuation explains. */
function allowedPause(text: string): number {
  if (/\n\s*\n|…|\.\.\.|—|–/u.test(text)) return LIMITS.paragraphPause;
  if (/[.!?。！？]/u.test(text)) return LIMITS.sentencePause;
  return LIMITS.clausePause;
}

const seconds = (s: number) => `${s.toFixed(1)} s`;
/** A figure to 0.1, as the message writes it. */
const tenths = (n: number) => Math.round(n * 10) / 10;

/** The checks of one segment's audio (empty: nothing found). */
export function checkSegmentAudio(input: AudioCheckInput): SegmentCheck[] {
  const { pcm, sampleRate, text, language } = input;
  const speed = input.speedRate > 0 ? input.speedRate : 1;
  const checks: SegmentCheck[] = [];
  const frames = framesOf(pcm, sampleRate);
  const frameCount = frames.rms.length;
  const durationS = pcm.length / sampleRate;

  // Silences inside the speech (leading and trailing ones too: both are heard).
  const allowed = allowedPause(text) / Math.min(1, speed);
  let longest = 0;
  let longestAt = 0;
  for (let f = 0; f < frameCount;) {
    if (!frames.silent[f]) {
      f++;
      continue;
    }
    const start = f;
    while (f < frameCount && frames.silent[f]) f++;
    const length = ((f - start) * FRAME_MS) / 1000;
    if (length > longest) {
      longest = length;
      longestAt = start * FRAME_MS;
    }
  }
  if (longest > allowed) {
    checks.push({
      kind: 'long_silence',
      message: `a silence of ${seconds(longest)} where the text explains at most ${seconds(allowed)}`,
      figures: { silence_s: tenths(longest), allowed_s: tenths(allowed) },
      at_ms: longestAt,
    });
  }

  // Clipping: runs of full-scale samples.
  let runs = 0;
  let firstRun = -1;
  for (let i = 0; i < pcm.length;) {
    const s = pcm[i]!;
    if (s < 32767 && s > -32768) {
      i++;
      continue;
    }
    const start = i;
    while (i < pcm.length && (pcm[i]! >= 32767 || pcm[i]! <= -32768)) i++;
    if (i - start >= LIMITS.clipRun) {
      runs++;
      if (firstRun < 0) firstRun = start;
    }
  }
  if (runs >= LIMITS.clipRuns) {
    checks.push({
      kind: 'clipping',
      message: `${runs} runs of samples at full scale (clipped)`,
      figures: { runs },
      at_ms: Math.round((firstRun / sampleRate) * 1000),
    });
  }

  const characters = Array.from(text.trim()).length;
  if (characters < LIMITS.minChars) return checks;
  const norm = NORMS[language];

  // Length against what the characters predict at this voice's speed (pauses beyond what the
  // text explains left out: they are flagged above). Audio too short either lacks some of its
  // syllables (it ends before its text does) or has them all, spoken too fast.
  const spokenS = durationS - Math.max(0, longest - allowed);
  const expectedS = characters / (norm.charsPerSecond * speed);
  const lengthRatio = spokenS / expectedS;
  const content = nucleiOf(frames) / (characters * norm.nucleiPerChar);
  if (lengthRatio < 1 / LIMITS.rateFactor && content < LIMITS.endsEarly) {
    checks.push({
      kind: 'ends_early',
      message: `${seconds(durationS)} of audio where ${characters} characters take about ${seconds(expectedS)}: about ${Math.round(content * 100)} % of the syllables are there`,
      figures: {
        audio_s: tenths(durationS),
        characters,
        expected_s: tenths(expectedS),
        syllables_percent: Math.round(content * 100),
      },
      at_ms: Math.round(durationS * 1000),
    });
  } else if (lengthRatio < 1 / LIMITS.rateFactor || lengthRatio > LIMITS.slowFactor) {
    const pace = 1 / lengthRatio;
    checks.push({
      kind: 'speech_rate',
      message: `speaks at ${pace.toFixed(1)}× this voice's pace (${(characters / spokenS).toFixed(1)} characters a second where it speaks about ${(norm.charsPerSecond * speed).toFixed(1)})`,
      figures: {
        pace: tenths(pace),
        chars_per_second: tenths(characters / spokenS),
        voice_chars_per_second: tenths(norm.charsPerSecond * speed),
      },
      at_ms: null,
    });
  }
  return checks;
}
