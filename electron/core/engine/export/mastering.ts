/**
 * Mastering of an exported book's files: presets, room tone, and the chain that brings a file to
 * its preset's level (gain, then a look-ahead peak limiter, then room tone), measured as it goes.
 *
 * | preset  | rate     | level                               | peaks       | room tone, head / tail       | MP3, AAC        |
 * | ------- | -------- | ----------------------------------- | ----------- | ---------------------------- | --------------- |
 * | acx     | 44.1 kHz | RMS −20 dBFS (ACX: −23 to −18)      | ≤ −3 dBFS   | −75 dBFS, 0.75 s / 2 s       | 192 CBR, 128k   |
 * | podcast | 44.1 kHz | −16 LUFS integrated (±1 LU)         | ≤ −1 dBFS   | −75 dBFS, 0.5 s / 1.5 s      | 128 CBR, 96k    |
 * | none    | voice's  | as rendered                         | as rendered | digital silence, 0 / 1.5 s   | 128 CBR, 64k    |
 *
 * Levels are of the whole file, room tone included (as ACX measures them). The limiter's ceiling
 * sits 1 dB under the preset's peak limit so that the peaks between samples and the codec's
 * overshoot stay under it too. Room tone is a very quiet, soft noise (white noise through a
 * 1 kHz one-pole low-pass) under the whole file, so the pauses are not digital silence either.
 */

import { createVolumeProcessor } from '../audio/dsp';
import { createLoudnessMeter, type LoudnessMeasurement } from './loudness';

import type { MasteringPresetName } from '../../../shared/book-formats';
import type { Mp3Bitrate } from '../../../shared/options';

export { MASTERING_PRESETS, type MasteringPresetName } from '../../../shared/book-formats';

/** A level the gain is set for: the file's RMS in dBFS, or its integrated loudness in LUFS. */
export type LevelTarget = { measure: 'rms'; dbfs: number } | { measure: 'lufs'; lufs: number };

export interface MasteringPreset {
  name: MasteringPresetName;
  /** Output sample rate, Hz; undefined keeps the voice's. */
  sampleRate: number | undefined;
  /** The level the gain aims at; undefined: gain 1, no limiter, no room tone (the render as it is). */
  target: LevelTarget | undefined;
  /** The limiter's ceiling, dBFS (sample peak). */
  limiterCeilingDbfs: number | undefined;
  /** Room tone level (RMS), dBFS; undefined for digital silence. */
  roomToneDbfs: number | undefined;
  /** Room tone (or silence) before each chapter's speech and after it, ms. */
  headMs: number;
  tailMs: number;
  /** MP3 constant bitrate, kbps, and AAC bitrate, bits per second. */
  mp3Bitrate: Mp3Bitrate;
  aacBitrate: number;
  /** What each file must meet (the loudness report's checks). */
  limits: PresetLimits;
}

/** Bounds a mastered file is checked against; each is optional. */
export interface PresetLimits {
  sampleRate?: number;
  rmsDbfs?: [number, number];
  integratedLufs?: [number, number];
  maxPeakDbfs?: number;
  maxNoiseFloorDbfs?: number;
  leadInMs?: [number, number];
  tailMs?: [number, number];
}

/** The presets (see the table above; docs/USER-GUIDE.md, "Chapters and audiobook export"). */
export const PRESETS: Record<MasteringPresetName, MasteringPreset> = {
  acx: {
    name: 'acx',
    sampleRate: 44100,
    target: { measure: 'rms', dbfs: -20 },
    limiterCeilingDbfs: -4,
    roomToneDbfs: -75,
    headMs: 750,
    tailMs: 2000,
    mp3Bitrate: 192,
    aacBitrate: 128_000,
    // ACX's audio submission requirements.
    limits: {
      sampleRate: 44100,
      rmsDbfs: [-23, -18],
      maxPeakDbfs: -3,
      maxNoiseFloorDbfs: -60,
      leadInMs: [500, 1000],
      tailMs: [1000, 5000],
    },
  },
  podcast: {
    name: 'podcast',
    sampleRate: 44100,
    target: { measure: 'lufs', lufs: -16 },
    limiterCeilingDbfs: -2,
    roomToneDbfs: -75,
    headMs: 500,
    tailMs: 1500,
    mp3Bitrate: 128,
    aacBitrate: 96_000,
    limits: { integratedLufs: [-17, -15], maxPeakDbfs: -1 },
  },
  none: {
    name: 'none',
    sampleRate: undefined,
    target: undefined,
    limiterCeilingDbfs: undefined,
    roomToneDbfs: undefined,
    headMs: 0,
    tailMs: 1500,
    mp3Bitrate: 128,
    aacBitrate: 64_000,
    limits: {},
  },
};

/**
 * The failures of a measurement against `limits`, one sentence each (empty: it passes). A level
 * of digital silence (null) fails a range and passes a maximum.
 */
export function checkLimits(limits: PresetLimits, m: LoudnessMeasurement): string[] {
  const failures: string[] = [];
  const fmt = (x: number | null, unit: string) => (x === null ? 'silence' : `${x.toFixed(1)} ${unit}`);
  const range = (name: string, value: number | null, bounds: [number, number] | undefined, unit: string) => {
    if (bounds && (value === null || value < bounds[0] || value > bounds[1])) {
      failures.push(`${name} ${fmt(value, unit)} is outside ${bounds[0]} to ${bounds[1]} ${unit}`);
    }
  };
  const max = (name: string, value: number | null, bound: number | undefined, unit: string) => {
    if (bound !== undefined && value !== null && value > bound) {
      failures.push(`${name} ${fmt(value, unit)} is above ${bound} ${unit}`);
    }
  };
  if (limits.sampleRate !== undefined && m.sampleRate !== limits.sampleRate) {
    failures.push(`sample rate ${m.sampleRate} Hz is not ${limits.sampleRate} Hz`);
  }
  range('RMS', m.rmsDbfs, limits.rmsDbfs, 'dBFS');
  range('integrated loudness', m.integratedLufs, limits.integratedLufs, 'LUFS');
  max('peak', m.peakDbfs, limits.maxPeakDbfs, 'dBFS');
  max('noise floor', m.noiseFloorDbfs, limits.maxNoiseFloorDbfs, 'dBFS');
  range('room tone at the head', m.leadInMs, limits.leadInMs, 'ms');
  range('room tone at the tail', m.tailMs, limits.tailMs, 'ms');
  return failures;
}

/** A small fast PRNG (mulberry32): the same seed gives the same room tone on every pass. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Room tone: soft noise at an RMS of `dbfs`, added to PCM in place. */
export interface RoomTone {
  /** Adds the next `pcm.length` samples of tone to `pcm` (clamped to 16 bits). */
  addTo(pcm: Int16Array): void;
}

/** Corner of the room tone's low-pass, Hz: takes the hiss out of white noise. */
const ROOM_TONE_CORNER_HZ = 1000;

/**
 * Samples of room tone made once and played in a loop (2^20: 23.8 s at 44.1 kHz). At −75 dBFS,
 * under speech and under any player's own noise, a loop that long is not heard; making it once
 * takes the Gaussian noise (a logarithm, a root, a sine and a cosine per two samples) out of
 * every pass of the mastering, where it cost more than the limiter.
 */
const ROOM_TONE_LOOP = 1 << 20;

/** The loops made so far, by rate and level (one or two per process). */
const roomToneLoops = new Map<string, Float32Array>();

/** The room tone's loop at `dbfs` RMS (32768 = 0 dBFS) for `sampleRate` Hz. */
function roomToneLoop(sampleRate: number, dbfs: number, seed: number): Float32Array {
  const key = `${sampleRate}:${dbfs}:${seed}`;
  const cached = roomToneLoops.get(key);
  if (cached) return cached;
  const random = mulberry32(seed);
  const a = Math.exp((-2 * Math.PI * ROOM_TONE_CORNER_HZ) / sampleRate);
  // A one-pole low-pass keeps (1 − a) / (1 + a) of white noise's power.
  const sigma = (32768 * 10 ** (dbfs / 20)) / Math.sqrt((1 - a) / (1 + a));
  const loop = new Float32Array(ROOM_TONE_LOOP);
  // Run the filter one loop ahead first, so the loop starts in its steady state.
  let y = 0;
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < ROOM_TONE_LOOP; i += 2) {
      const u = 1 - random();
      const v = random();
      const r = Math.sqrt(-2 * Math.log(u));
      y = (1 - a) * r * Math.cos(2 * Math.PI * v) * sigma + a * y;
      loop[i] = y;
      y = (1 - a) * r * Math.sin(2 * Math.PI * v) * sigma + a * y;
      loop[i + 1] = y;
    }
  }
  roomToneLoops.set(key, loop);
  return loop;
}

/** Room tone at `dbfs` RMS (32768 = 0 dBFS) for a stream at `sampleRate` Hz. */
function createRoomTone(sampleRate: number, dbfs: number, seed = 0x5eed): RoomTone {
  const loop = roomToneLoop(sampleRate, dbfs, seed);
  let at = 0;
  return {
    addTo(pcm) {
      let k = at;
      for (let i = 0; i < pcm.length; i++) {
        // Math.floor(x + 0.5) is Math.round here (the tone is never exactly ±0.5 off a sample).
        const v = Math.floor(pcm[i]! + loop[k]! + 0.5);
        pcm[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
        k = k + 1 === ROOM_TONE_LOOP ? 0 : k + 1;
      }
      at = k;
    },
  };
}

/** A file's audio before mastering, at the output rate: a fresh iteration for every pass. */
export type PcmSource = () => AsyncIterable<Int16Array>;

/** Largest gain the level search may apply, dB either way (a whisper is not raised to a shout). */
const MAX_GAIN_DB = 30;
/** The level search stops this close to the target, dB. */
const LEVEL_TOLERANCE_DB = 0.1;
/** Passes of the level search after the first measurement (each runs gain, limiter and room tone). */
const MAX_TRIALS = 4;

interface PassOptions {
  gainDb: number;
  limiterCeilingDbfs: number | undefined;
  roomToneDbfs: number | undefined;
  /** The whole measurement (true peak included), or one level only (the level search's). */
  measure: 'all' | LevelTarget['measure'];
}

/** One run of the chain over `source`: measured, and handed to `write` when given. */
async function runPass(
  source: PcmSource,
  sampleRate: number,
  options: PassOptions,
  write?: (pcm: Int16Array) => Promise<void>,
): Promise<LoudnessMeasurement> {
  const gain = 10 ** (options.gainDb / 20);
  const limiter =
    options.limiterCeilingDbfs === undefined
      ? undefined
      : createVolumeProcessor({ gain, sampleRate, ceiling: options.limiterCeilingDbfs });
  const tone =
    options.roomToneDbfs === undefined ? undefined : createRoomTone(sampleRate, options.roomToneDbfs);
  const meter = createLoudnessMeter(
    sampleRate,
    options.measure === 'all' ? { truePeak: true } : { only: options.measure },
  );
  const emit = async (pcm: Int16Array) => {
    if (pcm.length === 0) return;
    tone?.addTo(pcm);
    meter.add(pcm);
    await write?.(pcm);
  };
  for await (const block of source()) {
    if (limiter) await emit(limiter.process(block));
    else if (gain === 1) await emit(block.slice());
    else await emit(block.map((v) => Math.max(-32768, Math.min(32767, Math.round(v * gain)))));
  }
  if (limiter) await emit(limiter.flush());
  return meter.result();
}

function levelOf(target: LevelTarget, m: LoudnessMeasurement): number | null {
  return target.measure === 'rms' ? m.rmsDbfs : m.integratedLufs;
}

function targetLevel(target: LevelTarget): number {
  return target.measure === 'rms' ? target.dbfs : target.lufs;
}

/** What mastering did to a file. */
export interface MasteredFile {
  /** Gain applied before the limiter, dB. */
  gainDb: number;
  /** The file's audio as written (before the codec), measured. */
  loudness: LoudnessMeasurement;
}

/**
 * Masters one file's audio (`source`, at `sampleRate` Hz) with `preset` and hands it to `write`
 * in order. With a level target: one pass measures the audio as it is, then passes of the whole
 * chain (gain, limiter, room tone) correct the gain until the level is within 0.1 dB of the
 * target (at most four, stepping by the slope seen so far: the limiter takes some level off), and a last pass with that gain
 * writes. Without one (`none`), a single pass writes the audio as it is. The room tone is the
 * same on every pass, so the last pass is exactly the one measured before it.
 */
export async function masterFile(
  input: PcmSource,
  sampleRate: number,
  preset: MasteringPreset,
  write: (pcm: Int16Array) => Promise<void>,
  progress?: MasteringProgress,
): Promise<MasteredFile> {
  const chain = { limiterCeilingDbfs: preset.limiterCeilingDbfs, roomToneDbfs: preset.roomToneDbfs };
  const { target } = preset;
  const passes = passCounter(progress, target !== undefined);
  if (!target) {
    const loudness = await runPass(
      passes.writing(input),
      sampleRate,
      { gainDb: 0, ...chain, measure: 'all' },
      write,
    );
    return { gainDb: 0, loudness };
  }
  const source = passes.measuring(input);
  const goal = targetLevel(target);
  const clamp = (db: number) => Math.max(-MAX_GAIN_DB, Math.min(MAX_GAIN_DB, db));
  const plain = await runPass(source, sampleRate, {
    gainDb: 0,
    limiterCeilingDbfs: undefined,
    roomToneDbfs: undefined,
    measure: target.measure,
  });
  const start = levelOf(target, plain);
  let gainDb = start === null ? 0 : clamp(goal - start);
  let previous: { gainDb: number; level: number } | undefined;
  for (let trial = 0; trial < MAX_TRIALS && start !== null; trial++) {
    const level = levelOf(
      target,
      await runPass(source, sampleRate, { gainDb, ...chain, measure: target.measure }),
    );
    if (level === null || Math.abs(goal - level) <= LEVEL_TOLERANCE_DB) break;
    // The level rises less than the gain once the limiter works: step by the slope seen so far.
    const slope =
      previous && gainDb !== previous.gainDb ? (level - previous.level) / (gainDb - previous.gainDb) : 1;
    previous = { gainDb, level };
    gainDb = clamp(gainDb + (goal - level) / Math.max(0.2, Math.min(1.5, slope)));
  }
  const loudness = await runPass(
    passes.writing(input),
    sampleRate,
    { gainDb, ...chain, measure: 'all' },
    write,
  );
  return { gainDb, loudness };
}

/** How far the mastering of a file has come, as its passes read the audio. */
export interface MasteringProgress {
  /** Samples one pass reads (the file's length). */
  totalSamples: number;
  /** 0–1, never going back; 1 once the writing pass has read everything. */
  onFraction(fraction: number): void;
}

/**
 * Weights of the passes in the progress bar, in measuring passes: the level search usually takes
 * three (the first measurement and two corrections), more now and then (each further one gets
 * half the space of the one before, out of a reserve); the writing pass feeds the encoder too,
 * which costs about three more (measured on an ACX M4B: 2.7 s a measuring pass, 10.5 s writing).
 */
const USUAL_MEASURING_PASSES = 3;
const EXTRA_PASSES_RESERVE = 0.5;
const WRITING_PASS_WEIGHT = 4;

/**
 * Sources that report `progress` as the passes read them: the measuring passes of the level search
 * (when it stops early, the bar steps past the space left for more) and then the writing pass.
 */
function passCounter(progress: MasteringProgress | undefined, levelSearch: boolean) {
  const measuring = levelSearch ? USUAL_MEASURING_PASSES + EXTRA_PASSES_RESERVE : 0;
  const total = measuring + WRITING_PASS_WEIGHT;
  const length = Math.max(1, progress?.totalSamples ?? 1);
  let shown = 0;
  let measured = 0;
  const show = (units: number) => {
    const fraction = Math.min(1, units / total);
    if (progress && fraction > shown && (fraction - shown >= 0.005 || fraction === 1)) {
      shown = fraction;
      progress.onFraction(fraction);
    }
  };
  const counted = (source: PcmSource, place: () => { start: number; width: number }): PcmSource =>
    async function* () {
      const { start, width } = place();
      let read = 0;
      for await (const block of source()) {
        read += block.length;
        show(start + (width * Math.min(read, length)) / length);
        yield block;
      }
    };
  /** Where the k-th measuring pass sits: a whole unit for the usual ones, halves of the reserve after. */
  const measuringPlace = (k: number) => {
    if (k < USUAL_MEASURING_PASSES) return { start: k, width: 1 };
    const extra = k - USUAL_MEASURING_PASSES;
    return {
      start: USUAL_MEASURING_PASSES + EXTRA_PASSES_RESERVE * (1 - 0.5 ** extra),
      width: EXTRA_PASSES_RESERVE * 0.5 ** (extra + 1),
    };
  };
  return {
    measuring: (source: PcmSource) => counted(source, () => measuringPlace(measured++)),
    writing: (source: PcmSource) => counted(source, () => ({ start: measuring, width: WRITING_PASS_WEIGHT })),
  };
}
