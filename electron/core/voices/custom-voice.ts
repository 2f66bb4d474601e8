/**
 * Custom voices (shared/custom-voices.ts): checking a client's input against what the codes of
 * the spec, OpenAI's and Kokoro's names, the catalogue and the installed packs allow; the stored
 * definition and the wire record; and resolving a definition into what a render needs (the
 * catalogue voice code to speak as, the composed prosody, the lexicon, the neural voice).
 */

import { Value } from '@sinclair/typebox/value';
import {
  CUSTOM_VOICE_CODE_PATTERN,
  CUSTOM_VOICE_LIST,
  CustomVoiceInputSchema,
  CustomVoiceSchema,
  DEFAULT_CUSTOM_PROSODY,
  MAX_CUSTOM_VOICES,
  type CustomLexiconEntry,
  type CustomVoice,
  type CustomVoiceBase,
  type CustomVoiceInput,
  type CustomVoiceList,
} from '../../shared/custom-voices';
import { AppError } from '../../shared/errors';
import { decodeListCursor, encodeListCursor } from '../platform/list-cursor';
import { entryKey, prepareEntry } from '../../shared/lexicon';
import { OPENAI_VOICES } from '../../shared/voice-mapping';
import type { CatalogueEntry, PackManifest } from '../../shared/voice-packs';
import { findVoice, VOICES, type LanguageCode } from '../../shared/voices';
import type { LexiconRule, NeuralVoice } from '../engine';
import type { CustomVoiceRow, Store } from '../store';
import { kokoroVoiceInfo } from './catalogue';
import { piperSpeaker } from './neural-voice';
import { KOKORO_V1_VOICES, parseKokoroVoice } from './kokoro-names';
import type { VoiceLibrary } from './library';
import type { ModelId } from '../../shared/options';
import { speakerGender } from './speaker-metadata';

/** What the custom_voices row's `definition` column holds. */
type Definition = Pick<CustomVoice, 'base' | 'voice_code' | 'prosody' | 'lexicon' | 'note'>;

const CODE_RE = new RegExp(CUSTOM_VOICE_CODE_PATTERN);
const KOKORO_NAMES = new Set(KOKORO_V1_VOICES);

const invalid = (field: string, message: string) => new AppError('INVALID_FIELD', message, { field });

/** What checking an input needs to know of the instance. */
export interface CustomVoiceChecks {
  /** The installed packs (VoiceLibrary.list). */
  installed(): Promise<readonly PackManifest[]>;
  /** The catalogue of packs (VoiceLibrary.catalogue): a pack base may name one not installed yet. */
  catalogue: readonly CatalogueEntry[];
  /** The server's voice aliases (settings): their codes are taken too. */
  aliases?: Readonly<Record<string, string>> | undefined;
}

/**
 * Why `code` cannot name a custom voice (a catalogue code, an OpenAI or Kokoro voice name, an
 * alias), or undefined when it can. The pattern is the schema's to check.
 */
export function reservedCodeReason(
  code: string,
  aliases: Readonly<Record<string, string>> = {},
): string | undefined {
  if (findVoice(code)) return `"${code}" is a catalogue voice code`;
  if (Object.hasOwn(OPENAI_VOICES, code.toLowerCase())) return `"${code}" is an OpenAI voice name`;
  if (KOKORO_NAMES.has(code) || parseKokoroVoice(code) !== undefined)
    return `"${code}" is a Kokoro voice name`;
  if (Object.hasOwn(aliases, code)) return `"${code}" is a voice alias of this server`;
  return undefined;
}

/** The Kokoro-FastAPI spelling of a blend, `af_bella(2)+af_sky(1)`. */
export function blendText(parts: readonly { voice: string; weight: number }[]): string {
  return parts.map((p) => `${p.voice}(${p.weight})`).join('+');
}

/** The languages a pack or blend base speaks (for the voice_code that stands in for it). */
async function baseLanguages(
  base: Exclude<CustomVoiceBase, { kind: 'code' }>,
  checks: CustomVoiceChecks,
): Promise<{ languages: string[]; gender: 'male' | 'female' | null }> {
  if (base.kind === 'kokoro_blend') {
    base.parts.forEach((part, i) => {
      if (!KOKORO_NAMES.has(part.voice))
        throw invalid(
          `base.parts.${i}.voice`,
          `"${part.voice}" is not a Kokoro v1.0 voice name (e.g. af_heart).`,
        );
    });
    const first = kokoroVoiceInfo(base.parts[0]!.voice);
    return { languages: base.parts.map((p) => kokoroVoiceInfo(p.voice).language), gender: first.gender };
  }
  const installed = (await checks.installed()).find((p) => p.id === base.pack_id);
  const pack = installed ?? checks.catalogue.find((p) => p.id === base.pack_id);
  if (!pack)
    throw invalid('base.pack_id', `No voice pack "${base.pack_id}" is installed or in the catalogue.`);
  if (pack.family === 'kokoro') {
    const names = installed ? installed.voices.map((v) => v.name) : [...pack.voices.map((v) => v.name)];
    const name = base.speaker ?? names[0];
    if (name === undefined || !names.includes(name))
      throw invalid('base.speaker', `Voice pack ${pack.id} has no Kokoro voice "${base.speaker ?? ''}".`);
    const info = kokoroVoiceInfo(name);
    return { languages: [info.language], gender: info.gender };
  }
  if (piperSpeaker(pack.speakers, pack.num_speakers, base.speaker) === undefined)
    throw invalid('base.speaker', `Voice pack ${pack.id} has no speaker "${base.speaker ?? ''}".`);
  const gender = base.speaker === undefined ? undefined : speakerGender(pack.id, base.speaker);
  return { languages: [...pack.languages], gender: gender === 'female' || gender === 'male' ? gender : null };
}

/**
 * An input that breaks CustomVoiceInputSchema at `path` (a JSON pointer, '' for the input
 * itself) with TypeBox's `message`: INVALID_FIELD naming the field (`base.parts.0.voice`), as
 * checkCustomVoiceInput and the routes' validation (routes/custom-voices.ts) word it.
 */
export function customVoiceSchemaError(path: string, message: string): AppError {
  const field = path.split('/').filter(Boolean).join('.') || 'body';
  const pattern =
    field === 'code' ? ` (${CUSTOM_VOICE_CODE_PATTERN}: lower-case letters, digits, _ and -)` : '';
  return invalid(field, `${field}: ${message}${pattern}.`);
}

/**
 * Checks a client's input (schema, then the rules of shared/custom-voices.ts) and returns the
 * record to store, with `now` as its times (`created_at` kept by the caller on a replace).
 * Throws AppError INVALID_FIELD (field named) or CUSTOM_VOICE_CONFLICT for a reserved code.
 */
export async function checkCustomVoiceInput(
  input: unknown,
  checks: CustomVoiceChecks,
  now: string,
): Promise<CustomVoice> {
  const problem = Value.Errors(CustomVoiceInputSchema, input).First();
  if (problem) throw customVoiceSchemaError(problem.path, problem.message);
  const body = input as CustomVoiceInput;
  if (!CODE_RE.test(body.code)) throw invalid('code', `code must match ${CUSTOM_VOICE_CODE_PATTERN}.`);
  const reserved = reservedCodeReason(body.code, checks.aliases);
  if (reserved)
    throw new AppError('CUSTOM_VOICE_CONFLICT', `${reserved}: a custom voice needs a code of its own.`, {
      field: 'code',
    });
  const name = body.name.normalize('NFC').trim();
  if (name === '') throw invalid('name', 'name must not be blank.');
  let voiceCode: string;
  let gender: 'male' | 'female' | null;
  if (body.base.kind === 'code') {
    const voice = findVoice(body.base.voice_code);
    if (!voice)
      throw invalid('base.voice_code', `Unknown voice_code "${body.base.voice_code}" (GET /api/v1/voices).`);
    voiceCode = voice.voice_code;
    gender = voice.gender;
  } else {
    const spoken = await baseLanguages(body.base, checks);
    if (body.voice_code === undefined)
      throw new AppError(
        'MISSING_FIELD',
        'voice_code is required for a pack or blend base: the catalogue voice that speaks when it is not installed.',
        { field: 'voice_code' },
      );
    const voice = findVoice(body.voice_code);
    if (!voice) throw invalid('voice_code', `Unknown voice_code "${body.voice_code}" (GET /api/v1/voices).`);
    // Languages without a catalogue voice (Kokoro's Hindi, Italian, Portuguese): English stands in.
    const known = spoken.languages.filter((l) => VOICES.some((v) => v.language === l));
    const allowed = known.length > 0 ? known : ['en'];
    if (!allowed.includes(voice.language))
      throw invalid(
        'voice_code',
        `voice_code "${voice.voice_code}" speaks ${voice.language_name}; the base speaks ${allowed.join(', ')}.`,
      );
    voiceCode = voice.voice_code;
    gender = spoken.gender ?? voice.gender;
  }
  const language = findVoice(voiceCode)!.language;
  const lexicon = checkLexicon(body.lexicon ?? [], language);
  const record: CustomVoice = {
    code: body.code,
    name,
    base: body.base,
    voice_code: voiceCode,
    language,
    gender,
    prosody: { ...DEFAULT_CUSTOM_PROSODY, ...body.prosody },
    lexicon,
    note: body.note?.normalize('NFC').trim() ?? '',
    created_at: now,
    updated_at: now,
  };
  return record;
}

/** The voice's entries made ready (normalised, defaults applied); one of a kind each. */
function checkLexicon(entries: readonly CustomLexiconEntry[], language: LanguageCode): CustomLexiconEntry[] {
  const seen = new Set<string>();
  return entries.map((entry, i) => {
    const prepared = prepareEntry({ ...entry, language: language as never });
    if (!prepared.ok)
      throw invalid(`lexicon.${i}.${prepared.problem.field}`, `lexicon[${i}]: ${prepared.problem.message}`);
    const key = entryKey(prepared.entry);
    if (seen.has(key)) throw invalid(`lexicon.${i}.match`, `lexicon[${i}]: "${entry.match}" is there twice.`);
    seen.add(key);
    const { language: _language, ...rest } = prepared.entry;
    return rest;
  });
}

/** The row to store for a record. */
export function toCustomVoiceRow(voice: CustomVoice): CustomVoiceRow {
  const definition: Definition = {
    base: voice.base,
    voice_code: voice.voice_code,
    prosody: voice.prosody,
    lexicon: voice.lexicon,
    note: voice.note,
  };
  return {
    code: voice.code,
    name: voice.name,
    definition: JSON.stringify(definition),
    owner_key_id: voice.owner_key_id ?? null,
    created_at: voice.created_at,
    updated_at: voice.updated_at,
  };
}

/** The wire record of a stored row (language and gender from its voice_code and base). */
export function fromCustomVoiceRow(row: CustomVoiceRow): CustomVoice {
  const definition = JSON.parse(row.definition) as Definition;
  const voice = findVoice(definition.voice_code);
  const gender =
    definition.base.kind === 'kokoro_blend'
      ? kokoroVoiceInfo(definition.base.parts[0]!.voice).gender
      : definition.base.kind === 'pack' &&
          definition.base.speaker &&
          KOKORO_NAMES.has(definition.base.speaker)
        ? kokoroVoiceInfo(definition.base.speaker).gender
        : (voice?.gender ?? null);
  return {
    code: row.code,
    name: row.name,
    base: definition.base,
    voice_code: definition.voice_code,
    language: voice?.language ?? 'en',
    gender,
    prosody: { ...DEFAULT_CUSTOM_PROSODY, ...definition.prosody },
    lexicon: definition.lexicon ?? [],
    note: definition.note ?? '',
    owner_key_id: row.owner_key_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * What a request's `custom_voice` column holds: the custom voice its voice_code named (JSON of
 * CustomVoice), or, when its SSML names custom voices in `<voice name>`, an object with `voice`
 * (that voice or null) and `ssml_voices` (those voices by code), each as it was when accepted.
 */
interface SnapshotWithSsml {
  voice: CustomVoice | null;
  ssml_voices: Record<string, CustomVoice>;
}

/** The column's JSON for a request's own custom voice and its document's; null for none. */
export function customVoiceSnapshot(
  own: CustomVoice | undefined,
  ssml: Readonly<Record<string, CustomVoice>> = {},
): string | null {
  if (Object.keys(ssml).length === 0) return own ? JSON.stringify(own) : null;
  const snapshot: SnapshotWithSsml = { voice: own ?? null, ssml_voices: { ...ssml } };
  return JSON.stringify(snapshot);
}

function readSnapshot(json: string | null): unknown {
  if (json === null) return undefined;
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

const isVoice = (value: unknown): value is CustomVoice => Value.Check(CustomVoiceSchema, value);
const isWithSsml = (value: unknown): value is Partial<SnapshotWithSsml> =>
  typeof value === 'object' && value !== null && 'ssml_voices' in value;

/** A request's snapshot (requests.custom_voice) read back; undefined for null or a damaged one. */
export function parseCustomVoiceSnapshot(json: string | null): CustomVoice | undefined {
  const value = readSnapshot(json);
  if (isVoice(value)) return value;
  return isWithSsml(value) && isVoice(value.voice) ? value.voice : undefined;
}

/** The custom voices a request's SSML names, from its snapshot ({} for none or a damaged one). */
export function parseSsmlVoicesSnapshot(json: string | null): Record<string, CustomVoice> {
  const value = readSnapshot(json);
  if (!isWithSsml(value) || typeof value.ssml_voices !== 'object' || value.ssml_voices === null) return {};
  return Object.fromEntries(Object.entries(value.ssml_voices).filter(([, voice]) => isVoice(voice)));
}

/** What speaks a custom voice's base, from what is installed (the voice library, per model). */
export interface CustomVoiceSpeakers {
  /** The neural voice of a catalogue code (VoiceLibrary.neuralVoice with the request's model). */
  neuralVoice(voiceCode: string): Promise<NeuralVoice | undefined>;
  /** One speaker of an installed pack (VoiceLibrary.packVoice); undefined when not installed. */
  packVoice(packId: string, speaker: string | undefined): Promise<NeuralVoice | undefined>;
  /** A Kokoro mix's spelling spoken by an installed Kokoro pack (VoiceLibrary.kokoroVoice). */
  kokoroVoice(mix: string): Promise<NeuralVoice | undefined>;
}

import { composeProsody, type RequestProsody } from '../../shared/custom-voice-rules';

export { composeProsody, type RequestProsody };

/** The voice's entries first, then the global lexicon's that no entry of the voice overrides. */
export function customLexicon(voice: CustomVoice, global: readonly LexiconRule[]): LexiconRule[] {
  const own: LexiconRule[] = voice.lexicon.map((e) => ({
    match: e.match,
    kind: e.kind,
    replacement: e.replacement,
    case_sensitive: e.case_sensitive ?? false,
    whole_word: e.whole_word ?? true,
  }));
  const language = voice.language;
  const keys = new Set(own.map((e) => entryKey({ ...e, language: language as never })));
  return [...own, ...global.filter((e) => !keys.has(entryKey({ ...e, language: language as never })))];
}

/** What a render of a custom voice takes. */
export interface ResolvedCustomVoice extends RequestProsody {
  /** The catalogue voice code it speaks as (text preparation, eSpeak, price). */
  voice_code: string;
  neuralVoice: NeuralVoice | undefined;
  /** True when the base is a pack or blend that is not installed: voice_code's voice speaks. */
  fallback: boolean;
}

/**
 * What speaks `voice` for a request with `prosody`: a code base as that code speaks (its
 * neural voice and character, or eSpeak); a pack speaker or a Kokoro blend when installed (with
 * no character of a catalogue voice), else the voice_code's voice, `fallback` saying so.
 */
export async function resolveCustomVoice(
  voice: CustomVoice,
  prosody: RequestProsody,
  speakers: CustomVoiceSpeakers,
): Promise<ResolvedCustomVoice> {
  const { base } = voice;
  const own =
    base.kind === 'pack'
      ? await speakers.packVoice(base.pack_id, base.speaker)
      : base.kind === 'kokoro_blend'
        ? await speakers.kokoroVoice(blendText(base.parts))
        : undefined;
  const neuralVoice = own ?? (await speakers.neuralVoice(voice.voice_code));
  return {
    ...composeProsody(voice.prosody, prosody),
    voice_code: voice.voice_code,
    neuralVoice,
    fallback: base.kind !== 'code' && own === undefined,
  };
}

/** The speakers of `library` for a request of `modelId`. */
export function librarySpeakers(
  library: Pick<VoiceLibrary, 'neuralVoice' | 'packVoice' | 'kokoroVoice'>,
  modelId: ModelId,
): CustomVoiceSpeakers {
  return {
    neuralVoice: (code) => library.neuralVoice(code, modelId),
    packVoice: (packId, speaker) => library.packVoice(packId, speaker),
    kokoroVoice: async (text) => {
      const mix = parseKokoroVoice(text);
      return mix ? (await library.kokoroVoice(mix))?.voice : undefined;
    },
  };
}

/**
 * Whose custom voices a caller reaches (issue 36): the studio (the signed-in session, the CLI)
 * sees, speaks with and changes every voice, and what it makes is the studio's (owner null); a
 * key sees and speaks with its own and the studio's, and changes only its own. Another key's
 * voice does not exist for it.
 */
export type CustomVoiceAccess = { readonly studio: true } | { readonly keyId: string | null };

/** The studio's access: every custom voice. */
export const STUDIO_ACCESS: CustomVoiceAccess = { studio: true };

/** A key's access: its own voices and the studio's. */
export const keyAccess = (keyId: string): CustomVoiceAccess => ({ keyId });

/** A caller without a key (a public list): the studio's voices only. */
export const PUBLIC_ACCESS: CustomVoiceAccess = { keyId: null };

/** True when `access` may see and speak with a voice made by `owner` (null: the studio's). */
export function maySpeakWith(owner: string | null | undefined, access: CustomVoiceAccess): boolean {
  return 'studio' in access || owner === null || owner === undefined || owner === access.keyId;
}

/** True when `access` may change or delete a voice made by `owner` (the studio's: the studio only). */
function mayChange(owner: string | null, access: CustomVoiceAccess): boolean {
  return 'studio' in access || (access.keyId !== null && owner === access.keyId);
}

/** The custom voices of an instance (its database), checked against what is installed. */
export interface CustomVoices {
  /** The voices `access` sees, by code. */
  list(access: CustomVoiceAccess): Promise<CustomVoice[]>;
  /**
   * A page of them, by code: at most `limit` (CUSTOM_VOICE_LIST.page; default pageDefault) after
   * the voice `cursor` names (a `next_cursor` of an earlier page; INVALID_FIELD for any other).
   */
  page(access: CustomVoiceAccess, page?: { cursor?: string; limit?: number }): Promise<CustomVoiceList>;
  /** Undefined when there is none with this code that `access` may speak with. */
  find(code: string, access: CustomVoiceAccess): Promise<CustomVoice | undefined>;
  /** Throws CUSTOM_VOICE_NOT_FOUND (also for a voice `access` may not see). */
  get(code: string, access: CustomVoiceAccess): Promise<CustomVoice>;
  /**
   * Stores a new voice owned by the key of `access` (the studio's for the studio). Throws
   * INVALID_FIELD, MISSING_FIELD or CUSTOM_VOICE_CONFLICT (code taken or reserved; the owner
   * holds MAX_CUSTOM_VOICES already).
   */
  create(input: unknown, access: CustomVoiceAccess): Promise<CustomVoice>;
  /**
   * Replaces `code`'s definition (input.code must be `code`; the owner stays); throws as create,
   * CUSTOM_VOICE_NOT_FOUND, and CUSTOM_VOICE_READ_ONLY for a key and one of the studio's voices.
   */
  replace(code: string, input: unknown, access: CustomVoiceAccess): Promise<CustomVoice>;
  /** Throws CUSTOM_VOICE_NOT_FOUND, or CUSTOM_VOICE_READ_ONLY as replace does. */
  delete(code: string, access: CustomVoiceAccess): Promise<void>;
}

export interface CustomVoicesOptions {
  store: Pick<Store, 'customVoices'>;
  checks: CustomVoiceChecks | (() => CustomVoiceChecks);
  /** ISO time now. */
  now: () => string;
}

/** The tag of the list's cursors: `["after", <code>]`, the last voice of the page (one the caller saw). */
const VOICE_CURSOR = 'after';

function decodeVoiceCursor(cursor: string): string {
  return decodeListCursor(cursor, VOICE_CURSOR, ([code, ...rest]) =>
    rest.length === 0 && typeof code === 'string' && CODE_RE.test(code) ? code : undefined,
  );
}

const notFound = (code: string) =>
  new AppError('CUSTOM_VOICE_NOT_FOUND', `No custom voice "${code}" (GET /api/v1/custom-voices).`, {
    id: code,
  });

export function createCustomVoices(options: CustomVoicesOptions): CustomVoices {
  const { store, now } = options;
  const checks = () => (typeof options.checks === 'function' ? options.checks() : options.checks);
  /** The row of `code` when `access` may see it. */
  const visible = async (code: string, access: CustomVoiceAccess) => {
    const row = await store.customVoices.get(code);
    return row && maySpeakWith(row.owner_key_id, access) ? row : undefined;
  };
  /** The row of `code` when `access` may change it; throws when it may not. */
  const changeable = async (code: string, access: CustomVoiceAccess) => {
    const row = await visible(code, access);
    if (!row) throw notFound(code);
    if (!mayChange(row.owner_key_id, access))
      throw new AppError(
        'CUSTOM_VOICE_READ_ONLY',
        `The custom voice "${code}" is the studio's: only the signed-in studio may change or delete it.`,
      );
    return row;
  };
  const find = async (code: string, access: CustomVoiceAccess) => {
    const row = await visible(code, access);
    return row && fromCustomVoiceRow(row);
  };
  const visibleTo = (access: CustomVoiceAccess) => ('studio' in access ? undefined : access.keyId);
  return {
    list: async (access) => (await store.customVoices.list(visibleTo(access))).map(fromCustomVoiceRow),
    async page(access, page = {}) {
      const limit = Math.min(page.limit ?? CUSTOM_VOICE_LIST.pageDefault, CUSTOM_VOICE_LIST.page);
      const after = page.cursor === undefined ? undefined : decodeVoiceCursor(page.cursor);
      // One more than the page tells whether another follows.
      const rows = await store.customVoices.page(visibleTo(access), { after, limit: limit + 1 });
      const voices = rows.slice(0, limit).map(fromCustomVoiceRow);
      return {
        voices,
        next_cursor:
          rows.length > limit ? encodeListCursor(VOICE_CURSOR, voices[voices.length - 1]!.code) : null,
        total: await store.customVoices.countVisible(visibleTo(access)),
      };
    },
    find,
    async get(code, access) {
      const voice = await find(code, access);
      if (!voice) throw notFound(code);
      return voice;
    },
    async create(input, access) {
      if (!('studio' in access) && access.keyId === null)
        throw new AppError(
          'UNAUTHORIZED',
          'Only an API key or the signed-in studio may create a custom voice.',
        );
      const owner = 'studio' in access ? null : access.keyId;
      const voice = { ...(await checkCustomVoiceInput(input, checks(), now())), owner_key_id: owner };
      if ((await store.customVoices.count(owner)) >= MAX_CUSTOM_VOICES)
        throw new AppError(
          'CUSTOM_VOICE_CONFLICT',
          `There are ${MAX_CUSTOM_VOICES} custom voices of ${owner === null ? 'the studio' : 'this key'} already: delete one first.`,
        );
      // A code another key took reads as taken, not as whose: codes are one namespace.
      if (!(await store.customVoices.insert(toCustomVoiceRow(voice))))
        throw new AppError('CUSTOM_VOICE_CONFLICT', `The code "${voice.code}" is taken: choose another.`, {
          field: 'code',
          id: voice.code,
        });
      return voice;
    },
    async replace(code, input, access) {
      const existing = await changeable(code, access);
      const voice = await checkCustomVoiceInput(input, checks(), now());
      if (voice.code !== code)
        throw invalid('code', `code "${voice.code}" must be the code of the voice replaced ("${code}").`);
      const stored = { ...voice, owner_key_id: existing.owner_key_id, created_at: existing.created_at };
      if (!(await store.customVoices.replace(toCustomVoiceRow(stored)))) throw notFound(code);
      return stored;
    },
    async delete(code, access) {
      await changeable(code, access);
      if (!(await store.customVoices.delete(code))) throw notFound(code);
    },
  };
}
