/**
 * Voice codes that are not ours: the cloud service's clients send its own codes
 * (`hn_female_ngochuyen_full_48k-fhg`, `n_hanoi_female_nguyetnga2_book_vc`, …). An exact alias
 * (`serve --voice-alias CODE=OURCODE`, the Settings table) maps a code to one of our voices;
 * with `--unknown-voices closest`, any other code whose words name a language (and perhaps an
 * accent and a gender) is spoken by our nearest voice; a code with no clue is refused.
 * Pure: the server's validation, the settings schema and the Settings view all use it.
 */

import { Type, type Static } from '@sinclair/typebox';
import type { CustomVoice } from './custom-voices';
import { findVoice, VOICES, type Gender, type LanguageCode, type VoiceInfo } from './voices';

/** What an unknown voice code gets: `refuse` (the spec's UNKNOWN_VOICE, the default) or `closest`. */
export const UnknownVoicePolicySchema = Type.Union([Type.Literal('refuse'), Type.Literal('closest')]);
export type UnknownVoicePolicy = Static<typeof UnknownVoicePolicySchema>;
export const UNKNOWN_VOICE_POLICIES: readonly UnknownVoicePolicy[] = UnknownVoicePolicySchema.anyOf.map(
  (literal) => literal.const,
);

/** A code an alias maps from: 1–200 characters, no white space and no `=`. */
export const ALIAS_CODE_PATTERN = '^[^\\s=]{1,200}$';

/** Exact mappings, a client's code → one of our voice codes (checked by the schema). */
export const VoiceAliasesSchema = Type.Record(
  Type.String({ pattern: ALIAS_CODE_PATTERN }),
  Type.Union(VOICES.map((v) => Type.Literal(v.voice_code))),
  { additionalProperties: false },
);
export type VoiceAliases = Static<typeof VoiceAliasesSchema>;

export interface VoiceMapping {
  unknownVoices: UnknownVoicePolicy;
  aliases: Readonly<Record<string, string>>;
  /**
   * Custom voices by code (shared/custom-voices.ts), those a request may name: the routes look
   * the request's code up in the database and pass it here.
   */
  custom?: Readonly<Record<string, CustomVoice>>;
}

/** The spec's behaviour: only our own codes. */
export const NO_VOICE_MAPPING: VoiceMapping = { unknownVoices: 'refuse', aliases: {} };

/** How a request's voice was found: its own code, an alias, the closest voice, or a custom voice. */
export type VoiceMatch = 'exact' | 'alias' | 'closest' | 'custom';

export interface ResolvedVoice {
  /** Our voice that speaks it. */
  voice: VoiceInfo;
  match: VoiceMatch;
  /** The custom voice (match `custom`). */
  custom?: CustomVoice;
}

/** What a code's words say about the voice. */
export interface VoiceClue {
  language: LanguageCode;
  accent?: 'northern' | 'southern';
  gender?: Gender;
}

/** Words of a code that name a language, and for Vietnamese its region. */
const LANGUAGE_WORDS: Readonly<Record<string, Omit<VoiceClue, 'gender'>>> = {
  // Vietnamese, northern: Hà Nội, miền Bắc
  hn: { language: 'vi', accent: 'northern' },
  hanoi: { language: 'vi', accent: 'northern' },
  mb: { language: 'vi', accent: 'northern' },
  // Vietnamese, southern: Sài Gòn / Hồ Chí Minh City, miền Nam
  sg: { language: 'vi', accent: 'southern' },
  hcm: { language: 'vi', accent: 'southern' },
  saigon: { language: 'vi', accent: 'southern' },
  mn: { language: 'vi', accent: 'southern' },
  // Vietnamese without a region we have (Huế is central: we have no central voice)
  vi: { language: 'vi' },
  vn: { language: 'vi' },
  hue: { language: 'vi' },
  // Our catalogue's other languages, as its codes start
  en: { language: 'en' },
  zh: { language: 'zh' },
  ja: { language: 'ja' },
  jp: { language: 'ja' },
  ko: { language: 'ko' },
  kr: { language: 'ko' },
  fr: { language: 'fr' },
  es: { language: 'es' },
};

const GENDER_WORDS: Readonly<Record<string, Gender>> = { female: 'female', male: 'male' };

/**
 * What a voice code's words (split at `_`, `-`, `.` and spaces, any case) name: the first word
 * naming a language (`hn`, `hanoi`, `sg`, `hcm`, `saigon`, `vi`, `en`, …) and the first naming
 * a gender. Undefined when no word names a language: a gender alone is no clue.
 */
export function guessVoiceClue(code: string): VoiceClue | undefined {
  const words = code.toLowerCase().split(/[_\-.\s]+/);
  const place = words
    .map((w) => (Object.hasOwn(LANGUAGE_WORDS, w) ? LANGUAGE_WORDS[w] : undefined))
    .find(Boolean);
  if (!place) return undefined;
  const gender = words
    .map((w) => (Object.hasOwn(GENDER_WORDS, w) ? GENDER_WORDS[w] : undefined))
    .find(Boolean);
  return { ...place, ...(gender ? { gender } : {}) };
}

/**
 * Our voice nearest a clue: of its language, the gender first, then the accent, then a voice
 * that speaks its accent natively (not an approximation), then the catalogue's order.
 */
export function closestVoice(clue: VoiceClue): VoiceInfo | undefined {
  const score = (v: VoiceInfo) =>
    (clue.gender && v.gender === clue.gender ? 4 : 0) +
    (clue.accent && v.accent.toLowerCase() === clue.accent ? 2 : 0) +
    (v.accent_approximated ? 0 : 1);
  let best: VoiceInfo | undefined;
  for (const voice of VOICES) {
    if (voice.language !== clue.language) continue;
    if (!best || score(voice) > score(best)) best = voice;
  }
  return best;
}

/**
 * The voice that speaks `code`: ours when it is one of our codes, else its alias, else (with
 * `closest`) the voice its words name; undefined when none (the caller refuses UNKNOWN_VOICE).
 */
export function resolveVoiceCode(code: string, mapping: VoiceMapping): ResolvedVoice | undefined {
  const own = findVoice(code);
  if (own) return { voice: own, match: 'exact' };
  const custom = mapping.custom && Object.hasOwn(mapping.custom, code) ? mapping.custom[code] : undefined;
  const customVoice = custom && findVoice(custom.voice_code);
  if (custom && customVoice) return { voice: customVoice, match: 'custom', custom };
  const alias = Object.hasOwn(mapping.aliases, code) ? findVoice(mapping.aliases[code]!) : undefined;
  if (alias) return { voice: alias, match: 'alias' };
  if (mapping.unknownVoices !== 'closest') return undefined;
  const clue = guessVoiceClue(code);
  const voice = clue && closestVoice(clue);
  return voice ? { voice, match: 'closest' } : undefined;
}

/**
 * One `--voice-alias` value, `CODE=OURCODE`; throws an Error of one line when it is not that
 * form, OURCODE is not one of our voices, or CODE already is one.
 */
export function parseVoiceAlias(text: string): [code: string, voiceCode: string] {
  const at = text.indexOf('=');
  const code = at > 0 ? text.slice(0, at).trim() : '';
  const target = at > 0 ? text.slice(at + 1).trim() : '';
  if (!new RegExp(ALIAS_CODE_PATTERN).test(code) || target === '')
    throw new Error(`"${text}" must be CODE=OURCODE (CODE without spaces or "=")`);
  return [code, checkAliasTarget(code, target)];
}

/** What is wrong with an alias row (for a sentence in the studio's language), or undefined. */
export function aliasProblemOf(code: string, target: string): 'own_code' | 'unknown_target' | undefined {
  if (findVoice(code)) return 'own_code';
  if (!findVoice(target)) return 'unknown_target';
  return undefined;
}

/** OURCODE of an alias when valid; throws an Error of one line otherwise. */
export function checkAliasTarget(code: string, target: string): string {
  const problem = aliasProblemOf(code, target);
  if (problem === 'own_code')
    throw new Error(`"${code}" is already one of our voice codes: it needs no alias`);
  if (problem === 'unknown_target')
    throw new Error(
      `"${target}" (the voice for "${code}") is not one of our voice codes (GET /api/v1/voices)`,
    );
  return target;
}

/** The voice code that speaks a stored request: the mapped one, else the code it was sent with. */
export function spokenVoiceCode(row: { voice_code: string; spoken_voice_code?: string | null }): string {
  return row.spoken_voice_code ?? row.voice_code;
}

/**
 * OpenAI voice names and the catalogue voices they stand for (POST /v1/audio/speech; a custom
 * voice may not take one of these names).
 */
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
