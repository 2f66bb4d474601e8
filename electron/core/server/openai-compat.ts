/**
 * OpenAI's speech API in our terms: its voice and model names (dated snapshots included), the
 * checks of a `POST /v1/audio/speech` body, and the lists apps read to offer choices
 * (`GET /v1/models`, and Kokoro-FastAPI's `GET /v1/audio/voices` and `GET /v1/audio/models`,
 * which Open WebUI reads).
 */

import { OpenAiSpeechRequestSchema, type OpenAiModel, type OpenAiSpeechRequest } from '../../shared/api';
import { AppError } from '../../shared/errors';
import { AUDIO_FORMATS, DEFAULT_SYNTHESIS, RATE_MAX, RATE_MIN, type ModelId } from '../../shared/options';
import { findVoice, VOICES, type VoiceInfo } from '../../shared/voices';
import { NO_VOICE_MAPPING, type VoiceMapping } from '../../shared/voice-mapping';
import {
  firstSchemaProblem,
  isPlainObject,
  measureText,
  resolveVoice,
  spokenBy,
  type ValidTtsRequest,
} from './validation';

/** OpenAI voice names and the catalogue voices they stand for. */
export const OPENAI_VOICES: Readonly<Record<string, string>> = {
  alloy: 'en_female_alice_default',
  ash: 'en_male_onyx_default',
  ballad: 'en_male_echo_default',
  cedar: 'en_male_onyx_default',
  coral: 'en_female_nova_default',
  echo: 'en_male_echo_default',
  fable: 'en_female_elara_br',
  marin: 'en_female_emily_us',
  nova: 'en_female_nova_default',
  onyx: 'en_male_onyx_default',
  sage: 'en_female_alice_default',
  shimmer: 'en_female_emily_us',
  verse: 'en_male_echo_default',
};

/**
 * OpenAI model names, with the dated snapshots apps pin, map to our default model; our own
 * model ids are accepted as they are.
 */
const OPENAI_MODELS: Readonly<Record<string, ModelId>> = {
  'tts-1': 'std-v1.6',
  'tts-1-1106': 'std-v1.6',
  'tts-1-hd': 'std-v1.6',
  'tts-1-hd-1106': 'std-v1.6',
  'gpt-4o-mini-tts': 'std-v1.6',
  'gpt-4o-mini-tts-2025-03-20': 'std-v1.6',
  'gpt-4o-mini-tts-2025-12-15': 'std-v1.6',
  'std-v1.6': 'std-v1.6',
  'std-v1.5': 'std-v1.5',
  'std-v1.5-turbo': 'std-v1.5-turbo',
  'std-v1': 'std-v1',
};

/** A gpt-4o-mini-tts snapshot: the first one's date or a later one (`YYYY-MM-DD`). */
const MINI_TTS_SNAPSHOT = /^gpt-4o-mini-tts-(\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]))$/;
const FIRST_MINI_TTS_SNAPSHOT = '2025-03-20';

/** Our model for an OpenAI model name or one of ours; undefined when it is neither. */
export function openAiModelFor(name: string): ModelId | undefined {
  if (Object.hasOwn(OPENAI_MODELS, name)) return OPENAI_MODELS[name];
  const snapshot = MINI_TTS_SNAPSHOT.exec(name)?.[1];
  return snapshot !== undefined && snapshot >= FIRST_MINI_TTS_SNAPSHOT
    ? OPENAI_MODELS['gpt-4o-mini-tts']
    : undefined;
}

/** When the model list says the models were made (fixed, so the list is the same every time). */
const MODELS_CREATED = Date.UTC(2026, 0, 1) / 1000;

/** GET /v1/models: every model name the speech endpoint takes. */
export function openAiModels(): OpenAiModel[] {
  return Object.keys(OPENAI_MODELS).map(openAiModelEntry);
}

/** The list entry of a model name (GET /v1/models/<id> answers it for later snapshots too). */
export function openAiModelEntry(id: string): OpenAiModel {
  return { id, object: 'model', created: MODELS_CREATED, owned_by: 'narration-studio' };
}

/** An entry of GET /v1/audio/voices: `id` is what `voice` takes, `name` what an app shows. */
export interface OpenAiVoiceEntry {
  id: string;
  name: string;
  /** The catalogue voice that speaks (the id itself for our own codes). */
  voice_code: string;
  language: string;
  language_name: string;
  gender: string;
}

/**
 * GET /v1/audio/voices (Kokoro-FastAPI's shape, read by Open WebUI as `voice['id']`,
 * `voice['name']`): OpenAI's names, then every voice code.
 */
export function openAiVoices(): OpenAiVoiceEntry[] {
  const entry = (id: string, name: string, voice: VoiceInfo): OpenAiVoiceEntry => ({
    id,
    name,
    voice_code: voice.voice_code,
    language: voice.language,
    language_name: voice.language_name,
    gender: voice.gender,
  });
  return [
    ...Object.entries(OPENAI_VOICES).map(([id, code]) => {
      const voice = findVoice(code)!;
      return entry(id, `${id} (${voice.name}, ${voice.language_name})`, voice);
    }),
    ...VOICES.map((voice) =>
      entry(voice.voice_code, `${voice.name} (${voice.language_name}, ${voice.accent})`, voice),
    ),
  ];
}

/** A valid speech request: what the submitter takes, and how the answer is streamed. */
export interface ValidSpeechRequest {
  request: ValidTtsRequest;
  streamFormat: 'audio' | 'sse';
}

const RULES: Partial<Record<keyof OpenAiSpeechRequest, string>> = {
  response_format: `response_format must be one of ${AUDIO_FORMATS.join(', ')}`,
  speed: 'speed must be a number from 0.25 to 4.0',
  voice: 'voice must be a voice name or code, or an object with an id',
  instructions: 'instructions must be a string of at most 4096 characters',
  stream_format: 'stream_format must be "audio" or "sse"',
};

/** Validates POST /v1/audio/speech. Throws AppError with `details.field` (the OpenAI `param`). */
export function parseOpenAiSpeech(
  body: unknown,
  maxTextChars: number,
  voiceMapping: VoiceMapping = NO_VOICE_MAPPING,
): ValidSpeechRequest {
  if (!isPlainObject(body)) throw new AppError('INVALID_JSON', 'The body must be a JSON object.');
  for (const field of ['model', 'input', 'voice'] as const) {
    if (body[field] === undefined) throw new AppError('MISSING_FIELD', `${field} is required.`, { field });
  }
  const problem = firstSchemaProblem(OpenAiSpeechRequestSchema, body);
  if (problem) {
    const { field } = problem;
    const rule = RULES[field as keyof OpenAiSpeechRequest] ?? `${field} must be a string`;
    throw new AppError('INVALID_FIELD', `${rule}.`, { field });
  }
  const speech = body as OpenAiSpeechRequest;
  const model = openAiModelFor(speech.model);
  if (!model) {
    throw new AppError(
      'INVALID_FIELD',
      `Unknown model "${speech.model}"; use tts-1, tts-1-hd, gpt-4o-mini-tts or one of ours (GET /v1/models).`,
      { field: 'model' },
    );
  }
  const voiceName = typeof speech.voice === 'string' ? speech.voice : speech.voice.id;
  // OpenAI's names are ours here; any other name is looked up as on the spec's route (aliases,
  // and the closest voice when unknown codes are mapped) and kept as sent.
  const openAiCode = OPENAI_VOICES[voiceName.toLowerCase()];
  const voiceCode = openAiCode ?? voiceName;
  const voice = openAiCode
    ? { voice: findVoice(openAiCode)!, match: 'exact' as const }
    : resolveVoice(
        voiceName,
        voiceMapping,
        `Unknown voice "${voiceName}" (GET /v1/audio/voices lists them).`,
        'voice',
      );
  const { text, characters } = measureText(speech.input, maxTextChars, 'input', voice.voice.voice_code);
  // Our engine's range is 0.5–2.0 in steps of 0.1: OpenAI's wider range is clamped into it.
  const speed = Math.round(Math.min(RATE_MAX, Math.max(RATE_MIN, speech.speed ?? 1)) * 10) / 10;
  return {
    request: {
      text,
      characters,
      voice_code: voiceCode,
      ...spokenBy(voice),
      model_id: model,
      audio_type: speech.response_format ?? 'mp3',
      bitrate: DEFAULT_SYNTHESIS.bitrate,
      speed_rate: speed,
      pitch_rate: 1,
      volume: 100,
      generate_srt: false,
      callback_url: null,
    },
    streamFormat: speech.stream_format ?? 'audio',
  };
}
