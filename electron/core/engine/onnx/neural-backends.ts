/**
 * Piper and Kokoro voices behind the SpeechBackend contract. Each engine call: eSpeak's
 * phonemes for the engine text (on the pool's workers), the voice's ids with the span of ids
 * of every word, one model run per sentence (Piper) or per ≤ 510 tokens (Kokoro), word events
 * from the model's per-id durations (or, without them, from each word's share of the ids),
 * pitch shifted when asked (duration kept), and 16-bit PCM at the voice's own rate.
 *
 * A voice code's character (../voice-character.ts) composes with the request's prosody: its
 * pace multiplies the speed a Piper model is run at (its length scale, with the rounding
 * corrected as for any speed: word timings come from the model's own durations), and on
 * Kokoro stretches the audio (Sonic, with the pitch shift: a pace of a few percent is lost
 * in Kokoro's rounding of every phoneme to whole 25 ms frames; the word timings scale with
 * the audio); its pitch multiplies the pitch shift, and the formant shift then
 * moves the spectral envelope to the character's formant ratio (the pitch shift, a resampling,
 * moved it with the pitch; that part of it is undone). A voice without one is spoken as before,
 * bit for bit, with the same cache key.
 */

import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { AppError } from '../../../shared/errors';
import type { SynthesisOptions } from '../../../shared/options';
import { ESPEAK_BUILD } from '../espeak/espeak-backend';
import type { RawWordEvent } from '../espeak/protocol';
import type { NeuralVoice } from '../engine';
import type { SynthesisOutput, WorkerPool } from '../espeak/worker-pool';
import type { SpeechBackend } from '../speech-backend';
import { MAX_PITCH_RATIO, MIN_PITCH_RATIO } from '../audio/pitch-limits';
import { MAX_FORMANT_RATIO, MIN_FORMANT_RATIO, shiftFormants } from '../audio/formant-shift';
import { isNeutralCharacter, limitCharacter, type VoiceCharacter } from '../voice-character';
import { kokoroInput } from './kokoro-phonemes';
import { KOKORO_MAX_IDS, KOKORO_SAMPLE_RATE, KOKORO_STYLE_SIZE } from './kokoro-model';
import { readKokoroStyles, type NeuralModels } from './neural-models';
import { piperInput, type WordSpan } from './piper-phonemes';
import type { NeuralAudio } from './tensors';
import { parseKokoroVocab, parsePiperConfig } from './voice-config';

/** Model calls of one render in flight: each run uses one onnxruntime thread. */
const NEURAL_WINDOW = 2;

type Prosody = Pick<SynthesisOptions, 'speed_rate' | 'pitch_rate'>;

/** What one backend does to its model's audio: the request's prosody and the voice's character together. */
interface Shaping {
  /** The request's speed_rate × the character's pace. */
  speed: number;
  /** The character's pace alone (1 without one). */
  pace: number;
  /** The pitch shift (pitch_rate × the character's pitch, held to the shifter's range). */
  pitch: number;
  /** The formant shift after the pitch shift (1: none). */
  formant: number;
  /** The character, for the cache key; undefined when the voice has none (or a neutral one). */
  character: VoiceCharacter | undefined;
}

/**
 * The shaping of `voice` under `prosody`. Without a character: the request's speed and pitch,
 * no formant shift. With one: its pace and pitch multiply them; the pitch shift moves the
 * formants by its own ratio, so the formant shift moves them on by formant × pitch_rate over
 * that ratio, leaving them at the character's formant ratio times what pitch_rate does alone.
 */
export function shapingOf(voice: NeuralVoice, prosody: Prosody): Shaping {
  if (isNeutralCharacter(voice.character)) {
    return {
      speed: prosody.speed_rate,
      pace: 1,
      pitch: prosody.pitch_rate,
      formant: 1,
      character: undefined,
    };
  }
  const character = limitCharacter(voice.character!);
  const pitch = Math.min(MAX_PITCH_RATIO, Math.max(MIN_PITCH_RATIO, prosody.pitch_rate * character.pitch));
  return {
    speed: prosody.speed_rate * character.pace,
    pace: character.pace,
    pitch,
    formant: Math.min(
      MAX_FORMANT_RATIO,
      Math.max(MIN_FORMANT_RATIO, (character.formant * prosody.pitch_rate) / pitch),
    ),
    character,
  };
}

/** Float samples with their pitch × `pitch` and their duration × `duration` (stretchAndShift). */
type Reshape = (samples: Float32Array, sampleRate: number, pitch: number, duration: number) => Float32Array;

/**
 * The pitch shifter and time stretcher, loaded only when a render may need it (its WASM loads
 * on import): for another pitch, and for a Piper voice at another speed (see `speedCorrection`).
 */
async function reshaper(needed: boolean): Promise<Reshape | undefined> {
  if (!needed) return undefined;
  const { stretchAndShift } = await import('../audio/pitch-shift');
  return stretchAndShift;
}

/**
 * The duration factor that makes a Piper run at speed `speed` last 1/speed of the run at
 * speed 1. Speed goes to the model as length_scale / speed, but the model rounds every id's
 * frames up (its Ceil node): ids of a frame or two at speed 1 keep their one frame at speed
 * 2, and a sentence ends up about 60–80% as long instead of 50%. From the frames before
 * rounding (w, at this speed) the speed-1 frames are ceil(w × speed); the factor is their
 * total / speed over the frames the model gave. 1 when the model gives no unrounded frames.
 */
export function speedCorrection(unroundedFrames: Float32Array | undefined, speed: number): number {
  if (!unroundedFrames || speed === 1 || unroundedFrames.length === 0) return 1;
  let given = 0;
  let wanted = 0;
  for (const w of unroundedFrames) {
    given += Math.ceil(w);
    // The tolerance keeps a whole number of frames that lost a bit in float from rounding up.
    wanted += Math.max(0, Math.ceil(w * speed - 1e-3));
  }
  return given > 0 && wanted > 0 ? wanted / speed / given : 1;
}

/** Opens the backend of `voice`: reads its configuration and opens (or reuses) its model. */
export async function openNeuralBackend(
  voice: NeuralVoice,
  pool: WorkerPool,
  models: NeuralModels,
  prosody: Prosody,
): Promise<SpeechBackend> {
  const shaping = shapingOf(voice, prosody);
  return voice.family === 'piper'
    ? piperBackend(voice, pool, models, shaping)
    : kokoroBackend(voice, pool, models, shaping);
}

/** The cache key's part for a character: nothing without one, so those keys stay as they were. */
function characterKey(shaping: Shaping): unknown[] {
  const c = shaping.character;
  return c ? [['character', c.pitch, c.pace, c.formant]] : [];
}

async function piperBackend(
  voice: Extract<NeuralVoice, { family: 'piper' }>,
  pool: WorkerPool,
  models: NeuralModels,
  shaping: Shaping,
): Promise<SpeechBackend> {
  const configText = await readFile(voice.configPath, 'utf8');
  const config = parsePiperConfig(configText, voice.configPath);
  const model = await models.piper(voice.modelPath);
  if (voice.speaker < 0 || voice.speaker >= config.numSpeakers) {
    throw new AppError('VOICE_PACK_INVALID', `${voice.packId} has no speaker ${voice.speaker}`);
  }
  const rate = config.sampleRate;
  const reshape = await reshaper(shaping.pitch !== 1 || shaping.speed !== 1);
  return {
    label: `piper:${voice.packId}#${voice.speaker}`,
    sampleRate: rate,
    window: NEURAL_WINDOW,
    cacheKey: JSON.stringify([
      'piper',
      ESPEAK_BUILD,
      await fileIdentity(voice.modelPath),
      digest(configText),
      voice.speaker,
      shaping.speed,
      shaping.pitch,
      ...characterKey(shaping),
    ]),
    async synthesize(engineText, owner) {
      const clauses = await pool.phonemize(engineText, config.espeakVoice, owner);
      const sentences = piperInput(
        engineText,
        clauses,
        config.phonemeIdMap,
        config.phonemeMap ? { phonemeMap: config.phonemeMap } : {},
      );
      const parts: Part[] = [];
      for (const sentence of sentences) {
        const audio = await model.run({
          ids: sentence.ids,
          lengthScale: config.inference.lengthScale / shaping.speed,
          noiseScale: config.inference.noiseScale,
          noiseW: config.inference.noiseW,
          ...(model.multiSpeaker ? { speakerId: voice.speaker } : {}),
        });
        const duration = speedCorrection(audio.unroundedFrames, shaping.speed);
        parts.push({
          audio,
          words: sentence.words,
          ids: sentence.ids.length,
          duration,
          dropped: sentence.missing,
        });
      }
      return joinParts(parts, rate, reshape, shaping, 0);
    },
  };
}

async function kokoroBackend(
  voice: Extract<NeuralVoice, { family: 'kokoro' }>,
  pool: WorkerPool,
  models: NeuralModels,
  shaping: Shaping,
): Promise<SpeechBackend> {
  const vocabText = await readFile(voice.vocabPath, 'utf8');
  const vocab = parseKokoroVocab(vocabText, voice.vocabPath);
  const styles = voice.mix
    ? blendKokoroStyles(
        await Promise.all(voice.mix.map(async (part) => readKokoroStyles(part.voicePath))),
        voice.mix.map((part) => part.weight),
      )
    : await readKokoroStyles(voice.voicePath);
  const rows = Math.floor(styles.length / KOKORO_STYLE_SIZE);
  if (rows < 1) throw new AppError('VOICE_PACK_INVALID', `${voice.voiceName}.bin holds no style vectors`);
  const model = await models.kokoro(voice.modelPath);
  // Kokoro's voice names start with a language letter: a… American English, b… British.
  // Its durations are rounded to the nearest frame, so its own speed input needs no correction.
  const reshape = await reshaper(shaping.pitch !== 1 || shaping.pace !== 1);
  const speed = shaping.speed / shaping.pace;
  const english = voice.espeakVoice.startsWith('en')
    ? voice.voiceName.startsWith('b')
      ? 'gb'
      : 'us'
    : undefined;
  return {
    label: `kokoro:${voice.packId}#${voice.voiceName}`,
    sampleRate: KOKORO_SAMPLE_RATE,
    window: NEURAL_WINDOW,
    cacheKey: JSON.stringify([
      'kokoro',
      ESPEAK_BUILD,
      await fileIdentity(voice.modelPath),
      digest(vocabText),
      digest(new Uint8Array(styles.buffer, styles.byteOffset, styles.byteLength)),
      voice.espeakVoice,
      speed,
      shaping.pitch,
      ...characterKey(shaping),
    ]),
    async synthesize(engineText, owner) {
      const clauses = await pool.phonemize(engineText, voice.espeakVoice, owner);
      const pieces = kokoroInput(engineText, clauses, vocab, {
        ...(english ? { english } : {}),
        maxTokens: KOKORO_MAX_IDS - 2,
      });
      const parts: Part[] = [];
      for (const piece of pieces) {
        if (piece.ids.length === 0) continue;
        const row = Math.min(piece.ids.length, rows - 1);
        const audio = await model.run({
          ids: [0, ...piece.ids, 0],
          style: styles.subarray(row * KOKORO_STYLE_SIZE, (row + 1) * KOKORO_STYLE_SIZE),
          speed,
        });
        parts.push({
          audio,
          words: piece.words,
          ids: piece.ids.length + 2,
          duration: 1 / shaping.pace,
          dropped: piece.missing,
        });
      }
      // Word spans index the ids without the leading pad.
      return joinParts(parts, KOKORO_SAMPLE_RATE, reshape, shaping, 1);
    },
  };
}

/**
 * Kokoro-FastAPI's voice mix: Σ weight × style, row by row over the rows every file has (the
 * weights come signed and normalised; see voices/kokoro-names.ts).
 */
export function blendKokoroStyles(styles: readonly Float32Array[], weights: readonly number[]): Float32Array {
  const length = Math.min(...styles.map((s) => s.length));
  const blend = new Float32Array(length - (length % KOKORO_STYLE_SIZE));
  for (const [i, style] of styles.entries()) {
    const weight = weights[i]!;
    for (let j = 0; j < blend.length; j++) blend[j]! += weight * style[j]!;
  }
  return blend;
}

/**
 * A model file as the sentence cache tells versions apart: path, size and modification time
 * (hashing hundreds of MB per render would cost more than it saves; a pack replaced on disk
 * gets a new time).
 */
async function fileIdentity(path: string): Promise<string> {
  const info = await stat(path);
  return `${path}|${info.size}|${info.mtimeMs}`;
}

function digest(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** One model run: its audio, the words it holds, its id count, the duration factor to apply. */
interface Part {
  audio: NeuralAudio;
  words: readonly WordSpan[];
  ids: number;
  duration: number;
  /** Phonemes of this run the voice does not know (left out). */
  dropped: readonly string[];
}

/**
 * One output from a chunk's model runs: the audio joined (pitch shifted and its duration
 * corrected first, then its formants shifted: the length stays), word events timed from the samples of the ids before each word (scaled
 * by the duration factor), or, without durations, from the word's share of the ids.
 */
function joinParts(
  parts: readonly Part[],
  sampleRate: number,
  reshape: Reshape | undefined,
  { pitch, formant }: Pick<Shaping, 'pitch' | 'formant'>,
  idOffset: number,
): SynthesisOutput {
  const shaped = parts.map(({ audio, duration }) => {
    const reshaped =
      reshape && (pitch !== 1 || duration !== 1)
        ? reshape(audio.audio, sampleRate, pitch, duration)
        : audio.audio;
    return formant !== 1 ? shiftFormants(reshaped, sampleRate, formant) : reshaped;
  });
  const total = shaped.reduce((n, samples) => n + samples.length, 0);
  const pcm = new Int16Array(total);
  const words: RawWordEvent[] = [];
  const sentenceMs: number[] = [];
  let offset = 0;
  parts.forEach(({ audio, words: spans, ids }, part) => {
    const samples = shaped[part]!;
    const scale = samples.length / Math.max(1, audio.audio.length);
    sentenceMs.push((offset / sampleRate) * 1000);
    const starts = audio.samplesPerId ? cumulative(audio.samplesPerId) : undefined;
    for (const span of spans) {
      const id = span.firstId + idOffset;
      const start = starts
        ? Math.round((starts[id] ?? audio.audio.length) * scale)
        : Math.round((id / ids) * samples.length);
      words.push({
        textPosition: span.textPosition,
        wordLength: span.wordLength,
        audioMs: ((offset + start) / sampleRate) * 1000,
      });
    }
    for (let i = 0; i < samples.length; i++) {
      const v = Math.round((samples[i] ?? 0) * 32767);
      pcm[offset + i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
    }
    offset += samples.length;
  });
  const dropped = parts.flatMap((p) => p.dropped);
  return { pcm, sampleRate, words, sentenceMs, ...(dropped.length > 0 ? { dropped } : {}) };
}

/** Start sample of every id: the running sum of the samples of the ids before it. */
function cumulative(samplesPerId: Int32Array): number[] {
  const starts = [0];
  for (let i = 0; i < samplesPerId.length; i++) starts.push(starts[i]! + samplesPerId[i]!);
  return starts;
}
