/**
 * The configuration files of neural voices as the engine reads them: a Piper voice's
 * `<name>.onnx.json` and a Kokoro model's vocabulary (`tokenizer.json` `model.vocab`, or
 * `config.json` `vocab` of the original export). The voice library checks packs with the same
 * parsers before installing them. Problems are AppError VOICE_PACK_INVALID naming the file's
 * base name, never its folder.
 */

import { basename } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { KokoroVocab } from './kokoro-phonemes';
import type { PhonemeIdMap, PhonemeMap } from './piper-phonemes';

/** What the engine and the library need from a Piper config. */
export interface PiperConfig {
  sampleRate: number;
  numSpeakers: number;
  /** Speaker name → id; empty for single-speaker voices. */
  speakerIdMap: Record<string, number>;
  espeakVoice: string;
  /** `audio.quality` when the config states it (x_low, low, medium, high). */
  quality: string | undefined;
  /** e.g. `vi_VN` (the config's `language.code`), when stated. */
  locale: string | undefined;
  /** Two-letter language: `language.family`, else derived from `espeak.voice`. */
  language: string;
  phonemeIdMap: PhonemeIdMap;
  phonemeMap: PhonemeMap | undefined;
  /** The voice's own inference scales (length_scale 1 = as trained). */
  inference: { noiseScale: number; lengthScale: number; noiseW: number };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** eSpeak voice names whose language is not their first two letters. */
const ESPEAK_LANGUAGES: Record<string, string> = { cmn: 'zh', yue: 'zh', 'zh-yue': 'zh' };

function invalid(message: string, where: string): AppError {
  return new AppError('VOICE_PACK_INVALID', message, { path: where });
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalid(`${basename(where)} is not valid JSON.`, where);
  }
}

const isIdList = (v: unknown): v is number[] =>
  Array.isArray(v) && v.length > 0 && v.every((id) => Number.isInteger(id) && id >= 0);

/** Parses and checks a Piper config; VOICE_PACK_INVALID naming the first missing or wrong key. */
export function parsePiperConfig(text: string, where: string): PiperConfig {
  const value = parseJson(text, where);
  const problem = (key: string) =>
    invalid(`${basename(where)} is not a Piper voice config: "${key}" is missing or wrong.`, where);
  if (!isObject(value)) throw problem('(top level)');
  const audio = value.audio;
  if (!isObject(audio) || typeof audio.sample_rate !== 'number' || !(audio.sample_rate > 0))
    throw problem('audio.sample_rate');
  const idMap = value.phoneme_id_map;
  if (!isObject(idMap) || Object.keys(idMap).length === 0 || !Object.values(idMap).every(isIdList))
    throw problem('phoneme_id_map');
  for (const symbol of ['_', '^', '$']) if (!(symbol in idMap)) throw problem(`phoneme_id_map.${symbol}`);
  const espeak = value.espeak;
  if (!isObject(espeak) || typeof espeak.voice !== 'string' || espeak.voice === '')
    throw problem('espeak.voice');
  const inference = value.inference;
  if (
    !isObject(inference) ||
    !['noise_scale', 'length_scale', 'noise_w'].every((k) => typeof inference[k] === 'number')
  )
    throw problem('inference');
  const numSpeakers = value.num_speakers;
  if (typeof numSpeakers !== 'number' || !Number.isInteger(numSpeakers) || numSpeakers < 1)
    throw problem('num_speakers');
  const speakerIdMap: Record<string, number> = {};
  if (isObject(value.speaker_id_map)) {
    for (const [name, id] of Object.entries(value.speaker_id_map)) {
      if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= numSpeakers)
        throw problem(`speaker_id_map.${name}`);
      speakerIdMap[name] = id;
    }
  }
  let phonemeMap: PhonemeMap | undefined;
  if (value.phoneme_map !== undefined) {
    const map = value.phoneme_map;
    if (
      !isObject(map) ||
      !Object.values(map).every((v) => Array.isArray(v) && v.every((p) => typeof p === 'string'))
    )
      throw problem('phoneme_map');
    if (Object.keys(map).length > 0) phonemeMap = map as PhonemeMap;
  }
  const languageInfo = isObject(value.language) ? value.language : {};
  const espeakVoice = espeak.voice;
  return {
    sampleRate: audio.sample_rate,
    numSpeakers,
    speakerIdMap,
    espeakVoice,
    quality: typeof audio.quality === 'string' ? audio.quality : undefined,
    locale: typeof languageInfo.code === 'string' ? languageInfo.code : undefined,
    language:
      typeof languageInfo.family === 'string'
        ? languageInfo.family
        : (ESPEAK_LANGUAGES[espeakVoice.toLowerCase()] ?? espeakVoice.slice(0, 2).toLowerCase()),
    phonemeIdMap: idMap as PhonemeIdMap,
    phonemeMap,
    inference: {
      noiseScale: inference.noise_scale as number,
      lengthScale: inference.length_scale as number,
      noiseW: inference.noise_w as number,
    },
  };
}

/**
 * A Kokoro vocabulary: `tokenizer.json` with `model.vocab`, or `config.json` with `vocab`
 * (symbol → id); VOICE_PACK_INVALID when neither holds one.
 */
export function parseKokoroVocab(text: string, where: string): KokoroVocab {
  const value = parseJson(text, where);
  const vocab = isObject(value)
    ? isObject(value.model) && isObject(value.model.vocab)
      ? value.model.vocab
      : value.vocab
    : undefined;
  if (!isObject(vocab) || Object.keys(vocab).length === 0) {
    throw invalid(
      `${basename(where)} holds no Kokoro vocabulary ("model.vocab" or "vocab" is missing).`,
      where,
    );
  }
  const out: Record<string, number> = {};
  for (const [symbol, id] of Object.entries(vocab)) {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0)
      throw invalid(`${basename(where)}: vocabulary entry "${symbol}" is not an id.`, where);
    out[symbol] = id;
  }
  return out;
}
