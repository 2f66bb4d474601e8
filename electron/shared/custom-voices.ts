/**
 * Custom voices: a name and a code of the user's choosing over a base voice, with its own
 * prosody and lexicon. Wire records (TypeBox schemas, used as types) and the rules every
 * custom voice obeys, shared by the server, the CLI, the jobs and the studio.
 *
 * A custom voice speaks wherever a voice code is taken: the cloud API's `voice_code`, OpenAI's
 * `voice`, the studio, a project's characters, `say --voice`. Its base is
 * - `{ kind: 'code' }`: a catalogue voice code, spoken as that code is (its neural voice or
 *   eSpeak, its character), with the custom prosody and lexicon on top;
 * - `{ kind: 'pack' }`: one speaker of an installed Piper pack, or one Kokoro voice;
 * - `{ kind: 'kokoro_blend' }`: a weighted blend of Kokoro voices (Kokoro-FastAPI's mixes).
 * Every custom voice names a catalogue `voice_code` as well (for `pack` and `kokoro_blend` it
 * is the voice of the same language that speaks when the pack is not installed, whose price
 * and text preparation apply); for `code` it is the base itself.
 *
 * The codes of the spec keep their meaning: a custom code may not be a catalogue code, an
 * OpenAI voice name, or a Kokoro voice name, and it matches CUSTOM_VOICE_CODE_PATTERN.
 *
 * Requests snapshot the definition when accepted (requests.custom_voice), so editing or
 * deleting a custom voice never changes a request already accepted.
 */

import { Type, type Static } from '@sinclair/typebox';
import { LexiconEntryInputSchema } from './lexicon';

import { CUSTOM_VOICE_CODE_PATTERN } from './custom-voice-rules';

export { CUSTOM_VOICE_CODE_PATTERN };
export const MAX_CUSTOM_VOICE_NAME_CHARS = 80;
export const MAX_CUSTOM_VOICES = 500;
export const MAX_CUSTOM_LEXICON_ENTRIES = 200;
export const MAX_BLEND_PARTS = 8;

/** Prosody multipliers on top of a request's own (the product is kept within the API's ranges). */
export const CustomProsodySchema = Type.Object({
  /** × the request's speed_rate; 0.5–2.0. Default 1. */
  speed: Type.Number({ minimum: 0.5, maximum: 2 }),
  /** × the request's pitch_rate; 0.5–2.0. Default 1. */
  pitch: Type.Number({ minimum: 0.5, maximum: 2 }),
  /** Percent × the request's volume / 100; 50–150. Default 100. */
  volume: Type.Integer({ minimum: 50, maximum: 150 }),
});
export type CustomProsody = Static<typeof CustomProsodySchema>;

export const CustomVoiceBaseSchema = Type.Union([
  Type.Object({ kind: Type.Literal('code'), voice_code: Type.String({ minLength: 1, maxLength: 100 }) }),
  Type.Object({
    kind: Type.Literal('pack'),
    pack_id: Type.String({ minLength: 1, maxLength: 200 }),
    /** Piper: a speaker name of the config or its number; Kokoro: a voice name (`af_heart`). */
    speaker: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  }),
  Type.Object({
    kind: Type.Literal('kokoro_blend'),
    /** Kokoro voice names and their weights (> 0; normalised to sum 1 when spoken). */
    parts: Type.Array(
      Type.Object({
        voice: Type.String({ minLength: 1, maxLength: 100 }),
        weight: Type.Number({ exclusiveMinimum: 0, maximum: 100 }),
      }),
      { minItems: 1, maxItems: MAX_BLEND_PARTS },
    ),
  }),
]);
export type CustomVoiceBase = Static<typeof CustomVoiceBaseSchema>;

/** A lexicon entry of a custom voice: the lexicon's entry without `language` (the voice's own). */
export const CustomLexiconEntrySchema = Type.Omit(LexiconEntryInputSchema, ['language']);
export type CustomLexiconEntry = Static<typeof CustomLexiconEntrySchema>;

/** What a client sends to create (POST) or replace (PUT) a custom voice. */
export const CustomVoiceInputSchema = Type.Object({
  code: Type.String({ pattern: CUSTOM_VOICE_CODE_PATTERN }),
  name: Type.String({ minLength: 1, maxLength: MAX_CUSTOM_VOICE_NAME_CHARS }),
  base: CustomVoiceBaseSchema,
  /**
   * The catalogue voice behind it: required for `pack` and `kokoro_blend` (a voice of the same
   * language), ignored for `code` (the base is it).
   */
  voice_code: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  prosody: Type.Optional(Type.Partial(CustomProsodySchema)),
  lexicon: Type.Optional(Type.Array(CustomLexiconEntrySchema, { maxItems: MAX_CUSTOM_LEXICON_ENTRIES })),
  note: Type.Optional(Type.String({ maxLength: 500 })),
});
export type CustomVoiceInput = Static<typeof CustomVoiceInputSchema>;

/** A stored custom voice as the API returns it. */
export const CustomVoiceSchema = Type.Object({
  code: Type.String(),
  name: Type.String(),
  base: CustomVoiceBaseSchema,
  /** The catalogue voice behind it (language, price, eSpeak when nothing neural is installed). */
  voice_code: Type.String(),
  language: Type.String(),
  gender: Type.Union([Type.Literal('male'), Type.Literal('female'), Type.Null()]),
  prosody: CustomProsodySchema,
  lexicon: Type.Array(CustomLexiconEntrySchema),
  note: Type.String(),
  /**
   * The API key that made it; null: the studio's (made by the signed-in studio or the CLI, or
   * before voices had owners), the house's voices every key lists and speaks with and only the
   * studio changes. Absent from snapshots taken before owners existed.
   */
  owner_key_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type CustomVoice = Static<typeof CustomVoiceSchema>;

/**
 * GET /api/v1/custom-voices's pages, by code: `page` voices at most an answer (default
 * `pageDefault`). A voice may carry MAX_CUSTOM_LEXICON_ENTRIES entries, so a page is bounded by
 * voices, not by the keys that made them (each key may hold MAX_CUSTOM_VOICES).
 */
export const CUSTOM_VOICE_LIST = {
  page: 50,
  pageDefault: 20,
} as const;

/** Query of GET /api/v1/custom-voices. */
export const CustomVoiceListQuerySchema = Type.Object({
  /**
   * A book project's id: only the voices that project may cast (its key's own and the studio's),
   * which for the signed-in studio is fewer than it sees.
   */
  project: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  /** Voices at most: 1 to 50 (default 20). */
  limit: Type.Optional(
    Type.String({ pattern: '^([1-9]|[1-4][0-9]|50)$', description: '1 to 50 (default 20).' }),
  ),
  /** A `next_cursor` of this list, unchanged (opaque); without it, the first page. */
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});
export type CustomVoiceListQuery = Static<typeof CustomVoiceListQuerySchema>;

/**
 * GET /api/v1/custom-voices: a page of the voices the caller reaches, by code, and how many it
 * reaches; `next_cursor` (null on the last page) reads the page after this one.
 */
export const CustomVoiceListSchema = Type.Object({
  voices: Type.Array(CustomVoiceSchema, { maxItems: CUSTOM_VOICE_LIST.page }),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
  /** The voices the caller reaches in all (with `project`: that the project may cast). */
  total: Type.Integer(),
});
export type CustomVoiceList = Static<typeof CustomVoiceListSchema>;

export const DEFAULT_CUSTOM_PROSODY: CustomProsody = { speed: 1, pitch: 1, volume: 100 };

/**
 * Routes (all under /api/v1; the studio session or any API key). A voice belongs to the key that
 * made it: a key lists, speaks with, changes and deletes its own, and lists and speaks with the
 * studio's (owner null; changing one is CUSTOM_VOICE_READ_ONLY); another key's voice does not
 * exist for it (CUSTOM_VOICE_NOT_FOUND here, UNKNOWN_VOICE in a render). The signed-in studio
 * sees, speaks with and changes every voice; what it makes is the studio's.
 *   GET    /custom-voices[?project=<id>][&limit=&cursor=] → CustomVoiceList (a page by code; with project: those it may cast)
 *   POST   /custom-voices               CustomVoiceInput → 201 CustomVoice (409 CUSTOM_VOICE_CONFLICT when the code is taken)
 *   GET    /custom-voices/:code         → CustomVoice (404 CUSTOM_VOICE_NOT_FOUND)
 *   PUT    /custom-voices/:code         CustomVoiceInput (code must equal :code) → CustomVoice
 *   DELETE /custom-voices/:code         → 204
 *   POST   /custom-voices/:code/audition  { text? } → audio (as the voices' audition route)
 * CLI: `npm run voices -- custom list|show|create|edit|delete|audition`.
 */
export const CUSTOM_VOICE_ROUTES = '/api/v1/custom-voices';
