/**
 * Input validation with the schemas of `shared/api.ts`: the submit requests against the spec's
 * tables, list queries (page, page_size, filters), and the first schema error that every other
 * body check reports. Types are never coerced ("1.0" is not a number). Each failure names the
 * field and its rule.
 */

import type { Static, TObject, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import {
  OpenAiSpeechRequestSchema,
  TtsRequestSchema,
  type OpenAiSpeechRequest,
  type PageQuery,
  type TtsRequest,
} from '../../shared/api';
import { AppError } from '../../shared/errors';
import {
  BITRATES,
  DEFAULT_SYNTHESIS,
  isOneDecimalInRange,
  RATE_MAX,
  RATE_MIN,
  type ModelId,
} from '../../shared/options';
import { findVoice } from '../../shared/voices';
import type { SubmitInput } from '../jobs/submit';
import { cleanText, countCharacters } from '../../shared/text';

/** Default limit on input_text, in characters (code points of the cleaned text). */
export const DEFAULT_MAX_TEXT_CHARS = 100_000;

/** A submit request that passed every rule, with defaults applied: what the submitter takes, less who sent it. */
export type ValidTtsRequest = Omit<SubmitInput, 'keyId' | 'source'>;

const RULES: Record<keyof TtsRequest, string> = {
  response_type: 'response_type must be "indirect"',
  callback_url: 'callback_url must be an http or https URL',
  input_text: 'input_text must be a string',
  voice_code: 'voice_code must be a string',
  model_id: 'model_id must be one of std-v1.6, std-v1.5, std-v1.5-turbo, std-v1',
  audio_type: 'audio_type must be "mp3" or "wav"',
  bitrate: `bitrate must be one of the numbers ${BITRATES.join(', ')}`,
  speed_rate: `speed_rate must be a number from ${RATE_MIN} to ${RATE_MAX.toFixed(1)} with at most one digit after the decimal point`,
  pitch_rate: `pitch_rate must be a number from ${RATE_MIN} to ${RATE_MAX.toFixed(1)} with at most one digit after the decimal point`,
  volume: 'volume must be an integer from 50 to 150',
  generate_srt: 'generate_srt must be true or false',
};

const REQUIRED = ['input_text', 'voice_code'] as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where a value breaks its schema: the top-level field ('' for the value itself) and TypeBox's sentence. */
export interface SchemaProblem {
  field: string;
  message: string;
}

/** The first place `value` breaks `schema`, or undefined when it fits. */
export function firstSchemaProblem(schema: TSchema, value: unknown): SchemaProblem | undefined {
  const first = Value.Errors(schema, value).First();
  if (!first) return undefined;
  // A JSON pointer: "/field/…", with "~1" for "/" and "~0" for "~" inside a name.
  const field = (first.path.split('/')[1] ?? '').replaceAll('~1', '/').replaceAll('~0', '~');
  return { field, message: first.message };
}

/** True for a request id: 32 lowercase hex digits. */
export function isRequestId(id: string): boolean {
  return /^[0-9a-f]{32}$/.test(id);
}

const PAGE_RULES: Readonly<Record<string, string>> = {
  page: 'page must be a positive integer',
  page_size: 'page_size must be from 1 to 100',
};

/** A list query that passed its schema, with the page read from it. */
export interface ListQuery<T> {
  query: T;
  page: number;
  pageSize: number;
  /** Rows before the page. */
  offset: number;
}

/**
 * Checks the query string of a list route against its schema (`PageQuerySchema`'s page and
 * page_size, and the route's filters). Throws INVALID_FIELD naming the parameter.
 */
export function parseListQuery<T extends TObject>(
  schema: T,
  query: unknown,
  defaultPageSize: number,
): ListQuery<Static<T>> {
  const problem = firstSchemaProblem(schema, query);
  if (problem) {
    const field = problem.field || 'query';
    const rule = PAGE_RULES[field];
    throw new AppError(
      'INVALID_FIELD',
      rule ? `${rule}.` : `Invalid query parameter ${field}: ${problem.message}.`,
      { field },
    );
  }
  const { page: pageText, page_size: sizeText } = query as PageQuery;
  const page = pageText ? Number(pageText) : 1;
  const pageSize = sizeText ? Number(sizeText) : defaultPageSize;
  return { query: query as Static<T>, page, pageSize, offset: (page - 1) * pageSize };
}

/** Throws AppError (INVALID_JSON, MISSING_FIELD, INVALID_FIELD, UNKNOWN_VOICE, NOTHING_TO_SPEAK, TEXT_TOO_LONG). */
export function parseTtsRequest(body: unknown, maxTextChars: number): ValidTtsRequest {
  if (!isPlainObject(body)) throw new AppError('INVALID_JSON', 'The body must be a JSON object.');
  for (const field of REQUIRED) {
    if (body[field] === undefined) throw new AppError('MISSING_FIELD', `${field} is required.`, { field });
  }
  const problem = firstSchemaProblem(TtsRequestSchema, body);
  if (problem) {
    const field = problem.field as keyof TtsRequest;
    throw new AppError('INVALID_FIELD', `${RULES[field] ?? problem.message}.`, { field });
  }
  const request = body as TtsRequest;
  for (const field of ['speed_rate', 'pitch_rate'] as const) {
    const value = request[field];
    if (value !== undefined && !isOneDecimalInRange(value, RATE_MIN, RATE_MAX)) {
      throw new AppError('INVALID_FIELD', `${RULES[field]}.`, { field });
    }
  }
  if (request.callback_url !== undefined && !isHttpUrl(request.callback_url)) {
    throw new AppError('INVALID_FIELD', `${RULES.callback_url}.`, { field: 'callback_url' });
  }
  if (!findVoice(request.voice_code)) {
    throw new AppError(
      'UNKNOWN_VOICE',
      `Unknown voice_code "${request.voice_code}". GET /api/v1/voices lists the voices.`,
      {
        field: 'voice_code',
      },
    );
  }
  const { text, characters } = measureText(request.input_text, maxTextChars, 'input_text');
  return {
    text,
    characters,
    voice_code: request.voice_code,
    model_id: request.model_id ?? DEFAULT_SYNTHESIS.model_id,
    audio_type: request.audio_type ?? DEFAULT_SYNTHESIS.audio_type,
    bitrate: request.bitrate ?? DEFAULT_SYNTHESIS.bitrate,
    speed_rate: request.speed_rate ?? DEFAULT_SYNTHESIS.speed_rate,
    pitch_rate: request.pitch_rate ?? DEFAULT_SYNTHESIS.pitch_rate,
    volume: request.volume ?? DEFAULT_SYNTHESIS.volume,
    generate_srt: request.generate_srt ?? false,
    callback_url: request.callback_url ?? null,
  };
}

/** Counts the billable characters; rejects empty and over-long texts. */
export function measureText(
  input: string,
  maxTextChars: number,
  field: string,
): { text: string; characters: number } {
  const cleaned = cleanText(input);
  if (cleaned.trim() === '')
    throw new AppError('NOTHING_TO_SPEAK', `${field} has no text to speak.`, { field });
  const characters = countCharacters(cleaned);
  if (characters > maxTextChars) {
    throw new AppError(
      'TEXT_TOO_LONG',
      `${field} has ${characters} characters; the limit is ${maxTextChars}.`,
      {
        field,
        characters,
        limit: maxTextChars,
      },
    );
  }
  return { text: input, characters };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** OpenAI voice names and the catalogue voices they stand for. */
export const OPENAI_VOICES: Readonly<Record<string, string>> = {
  alloy: 'en_female_alice_default',
  ash: 'en_male_onyx_default',
  ballad: 'en_male_echo_default',
  coral: 'en_female_nova_default',
  echo: 'en_male_echo_default',
  fable: 'en_female_elara_br',
  nova: 'en_female_nova_default',
  onyx: 'en_male_onyx_default',
  sage: 'en_female_alice_default',
  shimmer: 'en_female_emily_us',
  verse: 'en_male_echo_default',
};

/** OpenAI model names map to our default model; our own model ids are accepted as they are. */
const OPENAI_MODELS: Readonly<Record<string, ModelId>> = {
  'tts-1': 'std-v1.6',
  'tts-1-hd': 'std-v1.6',
  'gpt-4o-mini-tts': 'std-v1.6',
  'std-v1.6': 'std-v1.6',
  'std-v1.5': 'std-v1.5',
  'std-v1.5-turbo': 'std-v1.5-turbo',
  'std-v1': 'std-v1',
};

/** Validates POST /v1/audio/speech. Throws AppError with `details.field` (the OpenAI `param`). */
export function parseOpenAiSpeech(body: unknown, maxTextChars: number): ValidTtsRequest {
  if (!isPlainObject(body)) throw new AppError('INVALID_JSON', 'The body must be a JSON object.');
  for (const field of ['model', 'input', 'voice'] as const) {
    if (body[field] === undefined) throw new AppError('MISSING_FIELD', `${field} is required.`, { field });
  }
  const problem = firstSchemaProblem(OpenAiSpeechRequestSchema, body);
  if (problem) {
    const { field } = problem;
    const rule =
      field === 'response_format'
        ? 'response_format must be "mp3" or "wav" (other formats are not supported locally)'
        : field === 'speed'
          ? 'speed must be a number from 0.25 to 4.0'
          : `${field} must be a string`;
    throw new AppError('INVALID_FIELD', `${rule}.`, { field });
  }
  const request = body as OpenAiSpeechRequest;
  const model = OPENAI_MODELS[request.model];
  if (!model) {
    throw new AppError(
      'INVALID_FIELD',
      `Unknown model "${request.model}"; use tts-1, tts-1-hd or gpt-4o-mini-tts.`,
      {
        field: 'model',
      },
    );
  }
  const voiceCode =
    OPENAI_VOICES[request.voice.toLowerCase()] ?? (findVoice(request.voice) ? request.voice : undefined);
  if (!voiceCode) {
    throw new AppError('UNKNOWN_VOICE', `Unknown voice "${request.voice}".`, { field: 'voice' });
  }
  const { text, characters } = measureText(request.input, maxTextChars, 'input');
  // Our engine's range is 0.5–2.0 in steps of 0.1: OpenAI's wider range is clamped into it.
  const speed = Math.round(Math.min(RATE_MAX, Math.max(RATE_MIN, request.speed ?? 1)) * 10) / 10;
  return {
    text,
    characters,
    voice_code: voiceCode,
    model_id: model,
    audio_type: request.response_format ?? 'mp3',
    bitrate: DEFAULT_SYNTHESIS.bitrate,
    speed_rate: speed,
    pitch_rate: 1,
    volume: 100,
    generate_srt: false,
    callback_url: null,
  };
}
