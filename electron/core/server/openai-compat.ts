/**
 * OpenAI's speech API in our terms: its voice and model names (dated snapshots included, and
 * Kokoro-FastAPI's `kokoro` model and voice names and mixes), the
 * checks of a `POST /v1/audio/speech` body, and the lists apps read to offer choices
 * (`GET /v1/models`, and Kokoro-FastAPI's `GET /v1/audio/voices` and `GET /v1/audio/models`,
 * which Open WebUI reads).
 */

import type { OpenAiModel, OpenAiSpeechRequest } from '../../shared/api';
import type { CustomVoice } from '../../shared/custom-voices';
import { AppError } from '../../shared/errors';
import { AUDIO_FORMATS, DEFAULT_SYNTHESIS, RATE_MAX, RATE_MIN, type ModelId } from '../../shared/options';
import { findVoice, VOICES, type VoiceInfo } from '../../shared/voices';
import {
  kokoroFallbackVoice,
  kokoroVoiceInfo,
  KOKORO_V1_VOICES,
  parseKokoroVoice,
  type KokoroMix,
} from '../voices';
import type { RequestRow } from '../store';
import {
  NO_VOICE_MAPPING,
  OPENAI_VOICES,
  type ResolvedVoice,
  type VoiceMapping,
} from '../../shared/voice-mapping';
import type { Wording } from './route-validation';
import { isPlainObject, measureText, resolveVoice, spokenBy, type ValidTtsRequest } from './validation';

export { OPENAI_VOICES };

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
  // Kokoro-FastAPI's model name (its README and its users' setups send it).
  kokoro: 'std-v1.6',
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
 * `voice['name']`): OpenAI's names, every voice code, then Kokoro v1.0's 54 names (their
 * `voice_code` is the voice of ours that speaks one when no Kokoro pack holds it).
 */
export function openAiVoices(custom: readonly CustomVoice[] = []): OpenAiVoiceEntry[] {
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
    ...KOKORO_V1_VOICES.map((name) => {
      const { locale, gender } = kokoroVoiceInfo(name);
      return entry(name, `${name} (Kokoro, ${locale}, ${gender ?? 'unknown'})`, kokoroFallbackVoice(name));
    }),
    ...custom.flatMap((voice) => {
      const spoken = findVoice(voice.voice_code);
      return spoken
        ? [
            {
              ...entry(voice.code, `${voice.name} (custom, ${spoken.language_name})`, spoken),
              gender: voice.gender ?? spoken.gender,
            },
          ]
        : [];
    }),
  ];
}

/** A valid speech request: what the submitter takes, and how the answer is streamed. */
export interface ValidSpeechRequest {
  request: ValidTtsRequest & { kokoro_voice: string | null };
  streamFormat: 'audio' | 'sse';
  /** A Kokoro voice or mix (Kokoro-FastAPI's names): spoken by a Kokoro pack when one holds it. */
  kokoro?: KokoroMix;
  /** Kokoro-FastAPI's `return_download_link`. */
  downloadLink: boolean;
  /** Kokoro-FastAPI's `stream` (default true). */
  stream: boolean;
  /** Kokoro-FastAPI's `return_timestamps` (default true). */
  timestamps: boolean;
}

const RULES: Partial<Record<keyof OpenAiSpeechRequest, string>> = {
  response_format: `response_format must be one of ${AUDIO_FORMATS.join(', ')}`,
  speed: 'speed must be a number from 0.25 to 4.0',
  voice: 'voice must be a voice name or code, or an object with an id',
  instructions: 'instructions must be a string of at most 4096 characters',
  stream_format: 'stream_format must be "audio" or "sse"',
  stream: 'stream must be true or false',
  return_download_link: 'return_download_link must be true or false',
  return_timestamps: 'return_timestamps must be true or false',
};

/**
 * What Kokoro-FastAPI's schema (`OpenAISpeechRequest`) takes when a field is left out: its web
 * player and README examples send neither `model` nor, at times, `voice`. `af_heart` is a
 * Kokoro name like any other: a Kokoro pack holding it speaks it, else our voice of its
 * language and gender (kokoroFallbackVoice).
 */
export const KOKORO_FASTAPI_DEFAULTS = { model: 'kokoro', voice: 'af_heart' } as const;

/** The voice a speech body names (`voice` or `voice.id`), Kokoro-FastAPI's default when absent. */
export function speechVoiceName(voice: unknown): string | undefined {
  if (voice === undefined) return KOKORO_FASTAPI_DEFAULTS.voice;
  if (typeof voice === 'string') return voice;
  const id = typeof voice === 'object' && voice !== null ? (voice as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/**
 * How a speech body that breaks OpenAiSpeechRequestSchema is refused (fastify checks it before
 * the handler): INVALID_JSON (not an object), MISSING_FIELD (input), INVALID_FIELD with the
 * field's rule; `details.field` is OpenAI's `param`.
 */
export const openAiSpeechWording: Wording = ({ part, field, missing, value }) => {
  if (part !== 'body' || !isPlainObject(value)) return undefined;
  if (missing) return new AppError('MISSING_FIELD', `${field} is required.`, { field });
  const rule = RULES[field as keyof OpenAiSpeechRequest] ?? `${field} must be a string`;
  return new AppError('INVALID_FIELD', `${rule}.`, { field });
};

/**
 * The rules of POST /v1/audio/speech beyond its schema (a body fastify checked, see
 * `openAiSpeechWording`): the model, the voice, the text. Throws AppError with `details.field`.
 */
export function checkOpenAiSpeech(
  speech: OpenAiSpeechRequest,
  maxTextChars: number,
  voiceMapping: VoiceMapping = NO_VOICE_MAPPING,
): ValidSpeechRequest {
  const modelName = speech.model ?? KOKORO_FASTAPI_DEFAULTS.model;
  const model = openAiModelFor(modelName);
  if (!model) {
    throw new AppError(
      'INVALID_FIELD',
      `Unknown model "${modelName}"; use tts-1, tts-1-hd, gpt-4o-mini-tts, kokoro or one of ours (GET /v1/models).`,
      { field: 'model' },
    );
  }
  // A string: the schema checked it.
  const voiceName = speechVoiceName(speech.voice)!;
  // OpenAI's names, our codes and aliases first; then Kokoro's names and mixes (our voice of the
  // first part's language and gender stands by); any other name is looked up as on the spec's
  // route (the closest voice when unknown codes are mapped) and kept as sent.
  const openAiCode = OPENAI_VOICES[voiceName.toLowerCase()];
  const ours =
    openAiCode !== undefined ||
    findVoice(voiceName) !== undefined ||
    Object.hasOwn(voiceMapping.aliases, voiceName) ||
    Object.hasOwn(voiceMapping.custom ?? {}, voiceName);
  const kokoro = ours ? undefined : parseKokoroVoice(voiceName);
  const voiceCode =
    openAiCode ?? (kokoro ? kokoroFallbackVoice(kokoro.parts[0]!.name).voice_code : voiceName);
  const voice: ResolvedVoice =
    openAiCode !== undefined || kokoro
      ? { voice: findVoice(voiceCode)!, match: 'exact' }
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
      kokoro_voice: kokoro?.text ?? null,
    },
    streamFormat: speech.stream_format ?? 'audio',
    ...(kokoro ? { kokoro } : {}),
    downloadLink: speech.return_download_link ?? false,
    stream: speech.stream ?? true,
    timestamps: speech.return_timestamps ?? true,
  };
}

/** Kokoro-FastAPI's header naming the finished file of `return_download_link`. */
export const DOWNLOAD_PATH_HEADER = 'X-Download-Path';

/**
 * The `X-Download-Path` of a request: `/download/<request id>-<download token>.<format>`,
 * relative to `/v1` as Kokoro-FastAPI's is (`GET /v1/download/<file>` serves it). The token
 * makes the name the credential, as in the spec's download links.
 */
export function downloadPath(row: Pick<RequestRow, 'id' | 'download_token' | 'audio_type'>): string {
  return `/download/${row.id}-${row.download_token}.${row.audio_type}`;
}

/** A download name's request id, token and format; undefined when it is not one. */
export function parseDownloadName(name: string): { id: string; token: string; format: string } | undefined {
  const match = /^([0-9a-f]{32})-([A-Za-z0-9_-]+)\.([a-z0-9]+)$/.exec(name);
  return match ? { id: match[1]!, token: match[2]!, format: match[3]! } : undefined;
}
