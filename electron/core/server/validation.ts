/**
 * The API's input rules beyond fastify's schema checks (route-validation.ts): how the submit and
 * the list routes word a schema failure, the submit's rules across fields (rates, callback URL,
 * voice, text), and `firstSchemaProblem` for values checked outside a route (the CLI's catalogue
 * file). Types are not coerced, with one exception kept for the service's clients: the submit's
 * numbers and generate_srt may be strings (`readSubmitStrings`, its preValidation step). Each
 * failure names the field and its rule.
 */

import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { type PageQuery, type ResponseType, type TtsRequest } from '../../shared/api';
import { AppError } from '../../shared/errors';
import { BITRATES, DEFAULT_SYNTHESIS, isOneDecimalInRange, RATE_MAX, RATE_MIN } from '../../shared/options';
import {
  NO_VOICE_MAPPING,
  resolveVoiceCode,
  type ResolvedVoice,
  type VoiceMapping,
} from '../../shared/voice-mapping';
import type { SubmitInput } from '../jobs';
import { cleanText, countCharacters, hasSpeakableContent } from '../../shared/text';
import { blankMarkerLines } from '../engine';
import { isSsml, parseSsml } from '../../shared/ssml';
import type { CustomVoice } from '../../shared/custom-voices';
import { customVoiceSnapshot } from '../voices';
import {
  isPlainObject,
  ruleWording,
  schemaProblem,
  type SchemaProblem,
  type Wording,
} from './route-validation';

export { isPlainObject };

/** Default limit on input_text, in characters (code points of the cleaned text). */
export const DEFAULT_MAX_TEXT_CHARS = 100_000;

/** A submit request that passed every rule, with defaults applied: what the submitter takes, less who sent it. */
export type ValidTtsRequest = Omit<SubmitInput, 'keyId' | 'source'>;

/** A valid submit of the spec's API: the request, and how to answer it (default indirect). */
export type ValidTtsSubmit = ValidTtsRequest & { response_type: ResponseType };

const RULES: Record<keyof TtsRequest, string> = {
  response_type: 'response_type must be "indirect" or "direct"',
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

/** A number written as a string that the submit accepts: optional minus, digits, optionally a point and digits. */
const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/** The submit's number fields, each with an example of the number written as a string. */
const NUMBER_TEXT_EXAMPLES = {
  bitrate: '"128"',
  speed_rate: '"1.0"',
  pitch_rate: '"1.0"',
  volume: '"100"',
} as const satisfies Partial<Record<keyof TtsRequest, string>>;

function isNumberField(field: string): field is keyof typeof NUMBER_TEXT_EXAMPLES {
  return Object.hasOwn(NUMBER_TEXT_EXAMPLES, field);
}

/**
 * The one place where the submit reads strings as other types, because the service's clients
 * send `"bitrate": "128"`, `"speed_rate": "1.0"`, `"generate_srt": "true"`: a number field
 * holding a plain decimal (`DECIMAL_TEXT`: not `"1e3"`, `" 1"`, `"1."`, `".5"`, `"0x10"`, `""`)
 * becomes that number, and generate_srt `"true"`/`"false"` the boolean. Returns a copy; every
 * other value is left as it is, for the schema and the rules to judge exactly as if it had been
 * sent as a JSON number (`"1.25"` is still two decimals, `"129"` still not a bitrate).
 */
export function readSubmitStrings(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const read: Record<string, unknown> = { ...body };
  for (const field of Object.keys(NUMBER_TEXT_EXAMPLES)) {
    const value = read[field];
    if (typeof value === 'string' && DECIMAL_TEXT.test(value)) read[field] = Number(value);
  }
  if (read.generate_srt === 'true' || read.generate_srt === 'false') {
    read.generate_srt = read.generate_srt === 'true';
  }
  return read;
}

/** The rule a wrong value of `field` breaks; for a string, also what a string must look like. */
function ruleFor(field: keyof TtsRequest, value: unknown): string {
  if (typeof value !== 'string') return RULES[field];
  if (isNumberField(field)) {
    return `${RULES[field]}; a string must be a plain decimal number such as ${NUMBER_TEXT_EXAMPLES[field]}`;
  }
  if (field === 'generate_srt') return `${RULES.generate_srt} (or the strings "true" and "false")`;
  return RULES[field];
}

/** Where a value breaks its schema: the top-level field ('' for the value itself) and the rule. */
export type SchemaFieldProblem = Pick<SchemaProblem, 'field' | 'message'>;

/** The first place `value` breaks `schema` (read as route-validation.ts reads it), or undefined when it fits. */
export function firstSchemaProblem(schema: TSchema, value: unknown): SchemaFieldProblem | undefined {
  const first = Value.Errors(schema, value).First();
  if (!first) return undefined;
  const { field, message } = schemaProblem('body', first, value);
  return { field, message };
}

/** True for a request id: 32 lowercase hex digits. */
export function isRequestId(id: string): boolean {
  return /^[0-9a-f]{32}$/.test(id);
}

const PAGE_RULES: Readonly<Record<string, string>> = {
  page: 'page must be a positive integer',
  page_size: 'page_size must be from 1 to 100',
};

/** The page a list query asks for (its schema checked page and page_size). */
export interface ListPage {
  page: number;
  pageSize: number;
  /** Rows before the page. */
  offset: number;
}

/**
 * How a list route (`PageQuerySchema`'s page and page_size, and the route's filters) words a
 * query that breaks its schema: INVALID_FIELD naming the parameter.
 */
export const listQueryWording: Wording = ({ part, field, message }) => {
  if (part !== 'querystring') return undefined;
  const name = field || 'query';
  const rule = PAGE_RULES[name];
  return new AppError('INVALID_FIELD', rule ? `${rule}.` : `Invalid query parameter ${name}: ${message}.`, {
    field: name,
  });
};

/** The page of a checked list query. */
export function listPage(query: PageQuery, defaultPageSize: number): ListPage {
  const page = query.page ? Number(query.page) : 1;
  const pageSize = query.page_size ? Number(query.page_size) : defaultPageSize;
  return { page, pageSize, offset: (page - 1) * pageSize };
}

/**
 * The submit's `preValidation` step: its body with the strings the service's clients send for
 * numbers and generate_srt read as those (`readSubmitStrings`), before fastify checks it
 * against TtsRequestSchema.
 */
export async function readSubmitBody(request: { body: unknown }): Promise<void> {
  if (isPlainObject(request.body)) request.body = readSubmitStrings(request.body);
}

/**
 * How the submit words a body that breaks TtsRequestSchema: INVALID_JSON (not an object),
 * MISSING_FIELD (input_text, voice_code), INVALID_FIELD naming the field's rule.
 */
export const submitWording: Wording = ruleWording(RULES, (field, value) =>
  ruleFor(field as keyof TtsRequest, value),
);

/**
 * The submit's rules beyond its schema (a body fastify checked, see `submitWording`), with the
 * defaults applied. A voice_code that is not ours is spoken by the voice `voiceMapping` finds
 * for it (an alias, or the closest), and kept as sent. Throws AppError (INVALID_FIELD,
 * UNKNOWN_VOICE, NOTHING_TO_SPEAK, TEXT_TOO_LONG).
 */
export function checkTtsRequest(
  request: TtsRequest,
  maxTextChars: number,
  voiceMapping: VoiceMapping = NO_VOICE_MAPPING,
): ValidTtsSubmit {
  for (const field of ['speed_rate', 'pitch_rate'] as const) {
    const value = request[field];
    if (value !== undefined && !isOneDecimalInRange(value, RATE_MIN, RATE_MAX)) {
      throw new AppError('INVALID_FIELD', `${RULES[field]}.`, { field });
    }
  }
  if (request.callback_url !== undefined && !isHttpUrl(request.callback_url)) {
    throw new AppError('INVALID_FIELD', `${RULES.callback_url}.`, { field: 'callback_url' });
  }
  const voice = resolveVoice(
    request.voice_code,
    voiceMapping,
    `Unknown voice_code "${request.voice_code}". GET /api/v1/voices lists the voices.`,
    'voice_code',
  );
  const { text, characters, speakers } = measureText(
    request.input_text,
    maxTextChars,
    'input_text',
    voice.voice.voice_code,
    voiceMapping.custom,
  );
  // The custom voices the SSML names are kept as accepted too, with the request's own.
  const ssmlVoices = Object.fromEntries(speakers.map((code) => [code, voiceMapping.custom![code]!]));
  const spoken = spokenBy(voice);
  return {
    text,
    characters,
    voice_code: request.voice_code,
    ...spoken,
    ...(speakers.length > 0 ? { custom_voice: customVoiceSnapshot(voice.custom, ssmlVoices) } : {}),
    model_id: request.model_id ?? DEFAULT_SYNTHESIS.model_id,
    audio_type: request.audio_type ?? DEFAULT_SYNTHESIS.audio_type,
    bitrate: request.bitrate ?? DEFAULT_SYNTHESIS.bitrate,
    speed_rate: request.speed_rate ?? DEFAULT_SYNTHESIS.speed_rate,
    pitch_rate: request.pitch_rate ?? DEFAULT_SYNTHESIS.pitch_rate,
    volume: request.volume ?? DEFAULT_SYNTHESIS.volume,
    generate_srt: request.generate_srt ?? false,
    callback_url: request.callback_url ?? null,
    response_type: request.response_type ?? 'indirect',
  };
}

/**
 * The one place a request's voice code is looked up (the spec's route and OpenAI's): ours, an
 * alias, or (with `closest`) the voice its words name. Throws UNKNOWN_VOICE with `message`,
 * naming `field`, when there is none.
 */
export function resolveVoice(
  code: string,
  voiceMapping: VoiceMapping,
  message: string,
  field: string,
): ResolvedVoice {
  const voice = resolveVoiceCode(code, voiceMapping);
  if (!voice) {
    const hint =
      voiceMapping.unknownVoices === 'closest'
        ? ' Its words name no language we speak (such as hn_, sg_, vi or en).'
        : '';
    throw new AppError('UNKNOWN_VOICE', `${message}${hint}`, { field, voice_code: code });
  }
  return voice;
}

/**
 * The submit's `spoken` field for a voice found by alias, closeness or as a custom voice (with
 * its snapshot); nothing for our own code.
 */
export function spokenBy(voice: ResolvedVoice): Pick<ValidTtsRequest, 'spoken' | 'custom_voice'> {
  if (voice.match === 'exact') return {};
  return {
    spoken: { voice_code: voice.voice.voice_code, match: voice.match },
    // A custom voice is kept as accepted: later edits and deletes change nothing accepted.
    ...(voice.custom ? { custom_voice: JSON.stringify(voice.custom) } : {}),
  };
}

/**
 * Counts the billable characters; rejects over-long texts, and texts with nothing to speak
 * (empty, or only punctuation, symbols, emoji, spaces and `[chapter: …]` lines: what the engine
 * would refuse, refused before anything is charged). SSML input (`<speak>…`) is
 * parsed here, so a malformed document is an SSML_INVALID at submit, and is charged for its
 * spoken text, not its markup; `voiceCode` is the request's voice, which `<phoneme>` and
 * `<lang>` depend on.
 */
export function measureText(
  input: string,
  maxTextChars: number,
  field: string,
  voiceCode?: string,
  customVoices?: Readonly<Record<string, CustomVoice>>,
): { text: string; characters: number; speakers: string[] } {
  const cleaned = cleanText(input);
  const document = isSsml(cleaned) ? parseSsml(cleaned, { voiceCode, customVoices }) : undefined;
  const spoken = document ? document.text : cleaned;
  if (spoken.trim() === '')
    throw new AppError('NOTHING_TO_SPEAK', `${field} has no text to speak.`, { field });
  // The engine's own rule, on what a render speaks (chapter lines name chapters, never spoken).
  if (!hasSpeakableContent(document ? spoken : blankMarkerLines(spoken))) {
    throw new AppError(
      'NOTHING_TO_SPEAK',
      `${field} has nothing to speak: no letters or digits, only punctuation, symbols or emoji.`,
      { field },
    );
  }
  const characters = countCharacters(spoken);
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
  // U+0000 is dropped by cleaning anyway, and PostgreSQL's text columns cannot hold it.
  return { text: input.replaceAll('\u0000', ''), characters, speakers: document?.speakers ?? [] };
}

function isHttpUrl(value: string): boolean {
  // The URL parser drops or escapes control characters, but the value is stored and called as
  // sent: refused here, not failed later (PostgreSQL's text columns cannot even hold U+0000).
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 || code === 0x7f) return false;
  }
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
