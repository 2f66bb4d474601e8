/**
 * Neural voice packs (Piper, Kokoro) as both sides see them: the catalogue of downloadable
 * packs, the manifest of an installed pack, the user's voice assignments and the engine voice
 * a request resolves to. TypeBox schemas, used as types; pure (no Node).
 *
 * Catalogue entries and manifests keep snake_case field names like the other wire records;
 * assignments and engine voices are the app's own camelCase objects (like settings.json).
 */

import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { MODEL_IDS } from './options';
import { ErrorDetailsSchema } from './api';
import { LicenceTermsSchema } from './licence-terms';

/** A union of string literals whose static type is the literal union itself. */
const Literals = <T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v))));
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const VOICE_PACK_FAMILIES = ['piper', 'kokoro'] as const;
export type VoicePackFamily = (typeof VOICE_PACK_FAMILIES)[number];

/** Piper's quality tiers, slowest last (x_low and low: 16 kHz; medium and high: 22.05 kHz). */
export const VOICE_PACK_QUALITIES = ['x_low', 'low', 'medium', 'high'] as const;
export type VoicePackQuality = (typeof VOICE_PACK_QUALITIES)[number];

/** Kokoro-82M v1.0 ONNX exports offered by the catalogue. */
export const KOKORO_PRECISIONS = ['fp32', 'fp16', 'q8'] as const;
export type KokoroPrecision = (typeof KOKORO_PRECISIONS)[number];

/** A Kokoro voice file: 510 rows × 256 float32 (one style vector per token count). */
export const KOKORO_VOICE_ROWS = 510;
export const KOKORO_STYLE_DIM = 256;
export const KOKORO_VOICE_BYTES = KOKORO_VOICE_ROWS * KOKORO_STYLE_DIM * 4; // 522,240
export const KOKORO_SAMPLE_RATE = 24000;

/** Pack ids double as folder names: letters, digits, `_`, `-`, `.`, not starting with a dot. */
export const PACK_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$';
const PACK_ID_RE = new RegExp(PACK_ID_PATTERN);
export function isValidPackId(id: string): boolean {
  return PACK_ID_RE.test(id) && !id.includes('..');
}

export const PackDigestSchema = Type.Object({
  algorithm: Literals(['md5', 'sha256'] as const),
  hex: Type.String({ pattern: '^[0-9a-f]{32}([0-9a-f]{32})?$' }),
});
export type PackDigest = Static<typeof PackDigestSchema>;

/** What a file of a pack is for. */
export const PACK_FILE_ROLES = ['model', 'config', 'vocab', 'voice', 'card', 'extra'] as const;
export type PackFileRole = (typeof PACK_FILE_ROLES)[number];

export const CatalogueFileSchema = Type.Object({
  /** Where the file lives inside the pack folder, `/`-separated. */
  path: Type.String({ minLength: 1 }),
  /** Where to download it, relative to the mirror's base URL (no leading `/`). */
  url: Type.String({ minLength: 1 }),
  size: Type.Integer({ minimum: 0 }),
  /** Null where no public digest was found: the size alone is verified. */
  digest: Nullable(PackDigestSchema),
  role: Literals(PACK_FILE_ROLES),
});
export type CatalogueFile = Static<typeof CatalogueFileSchema>;

/** One voice of a Kokoro pack (a `voices/<name>.bin` file). */
export const KokoroVoiceSchema = Type.Object({
  /** The file's base name, e.g. `af_heart`. */
  name: Type.String({ minLength: 1 }),
  /** e.g. `en_US`, `en_GB`, `ja_JP`; `und` when the name's prefix is unknown. */
  locale: Type.String(),
  /** Two-letter language, e.g. `en`. */
  language: Type.String(),
  gender: Nullable(Literals(['female', 'male'] as const)),
  /** Inside the pack folder, e.g. `voices/af_heart.bin`. */
  file: Type.String(),
});
export type KokoroVoice = Static<typeof KokoroVoiceSchema>;

/** What catalogue entries and manifests both say about a pack. */
const PackTraits = {
  /** The pack id: Piper's file base name (`vi_VN-vais1000-medium`) or `kokoro-v1.0-<precision>`. */
  id: Type.String({ pattern: PACK_ID_PATTERN }),
  family: Literals(VOICE_PACK_FAMILIES),
  /** Two-letter languages the pack speaks, e.g. `['vi']`. */
  languages: Type.Array(Type.String()),
  /** Locales, e.g. `['vi_VN']`. */
  locales: Type.Array(Type.String()),
  quality: Literals(VOICE_PACK_QUALITIES),
  /** Kokoro only. */
  precision: Type.Optional(Literals(KOKORO_PRECISIONS)),
  sample_rate: Type.Integer({ minimum: 1 }),
  num_speakers: Type.Integer({ minimum: 1 }),
  /** Kokoro voice files; empty for Piper. */
  voices: Type.Array(KokoroVoiceSchema),
  /** Sum of the file sizes in bytes. */
  size: Type.Integer({ minimum: 0 }),
  /** SPDX id or a short sentence; "unknown, see model card" when not established. */
  licence: Type.String(),
};

export const SPEAKER_GENDER_COVERAGES = ['single', 'known', 'partial', 'unknown'] as const;
export type SpeakerGenderCoverage = (typeof SPEAKER_GENDER_COVERAGES)[number];

export const CatalogueEntrySchema = Type.Object({
  ...PackTraits,
  /** Piper speaker names in id order, where known and few; null otherwise (the config has them). */
  speakers: Nullable(Type.Array(Type.String())),
  files: Type.Array(CatalogueFileSchema),
  /** `licence` as stable codes (shared/licence-terms.ts): what a client words in its language. */
  licence_terms: Type.Optional(LicenceTermsSchema),
  /** Where the licence statement was found. */
  licence_source: Type.String(),
  /** The public page of the pack (always on the original host, never the mirror). */
  source_url: Type.String(),
  /**
   * The voice's own model card at the pinned revision (Piper: its MODEL_CARD file; Kokoro: the
   * repository's README, its Hugging Face model card). Absent on packs made for tests.
   */
  model_card_url: Type.Optional(Type.String()),
  /**
   * Where the publisher's sample recordings of the pack lie, relative to the sample base URL
   * (`<base>/<samples>speaker_<n>.mp3`); null when none are published (Kokoro).
   */
  samples: Type.Optional(Nullable(Type.String())),
  /**
   * What is known of the speakers' genders from the dataset's public metadata
   * (core/voices/speaker-metadata.ts): `single` one speaker, `known` every speaker, `partial`
   * some, `unknown` none (codes then get speakers by index, labelled "gender unknown").
   * Absent: not stated (treated as unknown for several speakers).
   */
  speaker_genders: Type.Optional(Literals(SPEAKER_GENDER_COVERAGES)),
});
export type CatalogueEntry = Static<typeof CatalogueEntrySchema>;

export const ManifestFileSchema = Type.Object({
  path: Type.String({ minLength: 1 }),
  size: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  /** Kept when the source published an md5 (Piper) and it was checked. */
  md5: Type.Optional(Type.String({ pattern: '^[0-9a-f]{32}$' })),
  role: Literals(PACK_FILE_ROLES),
});
export type ManifestFile = Static<typeof ManifestFileSchema>;

export const MANIFEST_FORMAT = 1;

/** `voices/<id>/manifest.json`: what an installed pack holds, written last before the rename. */
export const PackManifestSchema = Type.Object({
  format: Type.Literal(MANIFEST_FORMAT),
  ...PackTraits,
  /** Piper: speaker name → id (`speaker_id_map` of the config); empty for single-speaker voices. */
  speakers: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
  /** The ONNX model, relative to the pack folder. */
  model: Type.String({ minLength: 1 }),
  /** Piper: `<id>.onnx.json`; Kokoro: the vocabulary (`tokenizer.json` or `config.json`). */
  config: Type.String({ minLength: 1 }),
  files: Type.Array(ManifestFileSchema),
  /** `catalogue`, `file` (an import from disk) or `url`. */
  origin: Literals(['catalogue', 'file', 'url'] as const),
  /** The catalogue page, the imported path or the downloaded URL. */
  source: Type.String(),
  /** The mirror a catalogue pack came from. */
  mirror: Type.Optional(Type.String()),
  installed_at: Type.String(),
});
export type PackManifest = Static<typeof PackManifestSchema>;

/** The model ids that may use a neural voice (`std-v1` is always eSpeak). */
export const NEURAL_MODEL_IDS = MODEL_IDS.filter((m) => m !== 'std-v1') as Exclude<
  (typeof MODEL_IDS)[number],
  'std-v1'
>[];
export type NeuralModelId = (typeof NEURAL_MODEL_IDS)[number];

/**
 * A voice code's neural voice: a pack and, for multi-speaker packs, a speaker (Piper: a name
 * from the config's `speaker_id_map` or a numeric id; Kokoro: a voice file name such as
 * `af_heart`).
 */
export const VoiceAssignmentSchema = Type.Object({
  packId: Type.String({ pattern: PACK_ID_PATTERN }),
  speaker: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});
export type VoiceAssignment = Static<typeof VoiceAssignmentSchema>;

export const ASSIGNMENTS_FORMAT = 1;

/** `voices/assignments.json`: the user's overrides of the default table, per voice code. */
export const AssignmentOverridesSchema = Type.Object({
  format: Type.Literal(ASSIGNMENTS_FORMAT),
  voices: Type.Record(
    Type.String(),
    Type.Object({
      /** For every neural model id (std-v1.6 uses it whenever it is installed). */
      all: Type.Optional(VoiceAssignmentSchema),
      /** For one model id, ahead of `all`. */
      models: Type.Optional(
        Type.Object({
          'std-v1.6': Type.Optional(VoiceAssignmentSchema),
          'std-v1.5': Type.Optional(VoiceAssignmentSchema),
          'std-v1.5-turbo': Type.Optional(VoiceAssignmentSchema),
        }),
      ),
    }),
  ),
});
export type AssignmentOverrides = Static<typeof AssignmentOverridesSchema>;

/** What synthesises a request: eSpeak, or a neural pack with its speaker. */
export type EngineVoice =
  | { kind: 'espeak' }
  | { kind: 'piper'; packId: string; speaker: number }
  | {
      kind: 'kokoro';
      packId: string;
      /** Relative to the pack folder, e.g. `voices/af_heart.bin`. */
      voiceFile: string;
      /** The voice's name, e.g. `af_heart`. */
      voice: string;
    };

/** Quality tiers in order, for ranking. */
export function qualityRank(quality: VoicePackQuality): number {
  return VOICE_PACK_QUALITIES.indexOf(quality);
}

// ---------------------------------------------------------------------------------------------
// The voice-pack API (`/api/v1/voice-packs`): what the studio's Voice library shows and sends.

/**
 * A pack's speed on this machine, measured on its first use (`voices/<id>/speed.json`): the
 * first render that spoke with it alone.
 */
export const PackSpeedSchema = Type.Object({
  /** Real-time factor: wall time of the render ÷ duration of its audio (below 1: faster). */
  rtf: Type.Number({ minimum: 0 }),
  /** Time to first audio: from the render's start to its first written samples, ms. */
  ttfa_ms: Type.Number({ minimum: 0 }),
  /** The measured render: its wall time and audio duration, ms, and characters. */
  wall_ms: Type.Number({ minimum: 0 }),
  audio_ms: Type.Number({ minimum: 0 }),
  characters: Type.Integer({ minimum: 0 }),
  /** The engine label that spoke, e.g. `piper:vi_VN-vais1000-medium#0`. */
  engine: Type.String(),
  measured_at: Type.String(),
});
export type PackSpeed = Static<typeof PackSpeedSchema>;

export const VOICE_PACK_STATES = ['installed', 'installing', 'available'] as const;
export type VoicePackState = (typeof VOICE_PACK_STATES)[number];

/** Bytes of an install in progress (`total` null while the size is not known). */
export const VoicePackProgressSchema = Type.Object({
  phase: Literals(['download', 'unpack', 'verify', 'install'] as const),
  bytes: Type.Integer({ minimum: 0 }),
  total: Nullable(Type.Integer({ minimum: 0 })),
});
export type VoicePackProgress = Static<typeof VoicePackProgressSchema>;

/** One pack as the library lists it: installed, being installed, or in the catalogue. */
export const VoicePackInfoSchema = Type.Object({
  id: Type.String(),
  family: Literals(VOICE_PACK_FAMILIES),
  state: Literals(VOICE_PACK_STATES),
  /** In the catalogue (false: imported from disk or a URL). */
  in_catalogue: Type.Boolean(),
  /** Present while `installing`. */
  progress: Type.Optional(VoicePackProgressSchema),
  size: Type.Integer({ minimum: 0 }),
  quality: Literals(VOICE_PACK_QUALITIES),
  languages: Type.Array(Type.String()),
  locales: Type.Array(Type.String()),
  licence: Type.String(),
  sample_rate: Type.Integer({ minimum: 1 }),
  num_speakers: Type.Integer({ minimum: 1 }),
  /** Piper speaker names or Kokoro voice names, where known. */
  speakers: Type.Array(Type.String()),
  /**
   * Each speaker as the Voice library names it, in id order: `VIVOSSPK01, female` where the
   * dataset's metadata says, else `speaker 3, gender unknown`.
   */
  speaker_labels: Type.Array(Type.String()),
  /** See CatalogueEntry.speaker_genders. */
  speaker_genders: Literals(SPEAKER_GENDER_COVERAGES),
  source_url: Nullable(Type.String()),
  /** The voice's own model card (see CatalogueEntry.model_card_url); null when unknown. */
  model_card_url: Nullable(Type.String()),
  /** Where the licence statement was read (the catalogue's `licence_source`); null when unknown. */
  licence_source: Nullable(Type.String()),
  /**
   * `licence` as stable codes (the catalogue's `licence_terms`): a note's code, or a licence's
   * name with its qualifiers; null for a pack the catalogue does not state (imported, own files).
   */
  licence_terms: Nullable(LicenceTermsSchema),
  /** Speakers with a public sample recording (GET …/voice-packs/<id>/sample?speaker=n); 0: none. */
  sample_speakers: Type.Integer({ minimum: 0 }),
  /** Measured on this machine on first use; null until then (or not installed). */
  speed: Nullable(PackSpeedSchema),
  installed_at: Nullable(Type.String()),
});
export type VoicePackInfo = Static<typeof VoicePackInfoSchema>;

/** What speaks a voice code under std-v1.6 now, and with its default pack installed. */
export const VoiceEngineInfoSchema = Type.Object({
  voice_code: Type.String(),
  /** An engine label: `espeak`, `piper:<pack>#<speaker>` or `kokoro:<pack>#<voice>`. */
  engine: Type.String(),
  /** The first pack of the code's default list that the catalogue offers; null when none. */
  default_pack: Nullable(Type.String()),
  /** The engine label once `default_pack` is installed (equal to `engine` when it already is). */
  engine_with_default: Nullable(Type.String()),
});
export type VoiceEngineInfo = Static<typeof VoiceEngineInfoSchema>;

export const VoicePackListSchema = Type.Object({
  /** Installed packs first (by id), then the rest of the catalogue in catalogue order. */
  packs: Type.Array(VoicePackInfoSchema),
  /** Per voice code, for model_id std-v1.6. */
  voices: Type.Array(VoiceEngineInfoSchema),
});
export type VoicePackList = Static<typeof VoicePackListSchema>;

export const InstallVoicePackBodySchema = Type.Object(
  { id: Type.String({ pattern: PACK_ID_PATTERN }) },
  { additionalProperties: false },
);
export type InstallVoicePackBody = Static<typeof InstallVoicePackBodySchema>;

export const AssignVoiceBodySchema = Type.Object(
  {
    pack: Nullable(Type.String({ pattern: PACK_ID_PATTERN })),
    speaker: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    model_id: Type.Optional(Literals(NEURAL_MODEL_IDS)),
  },
  { additionalProperties: false },
);
export type AssignVoiceBody = Static<typeof AssignVoiceBodySchema>;

/** The answer of PUT /api/v1/voice-packs/assignments/<code>: the code's engine now. */
export const AssignVoiceResultSchema = Type.Object({
  voice_code: Type.String(),
  engine: Type.String(),
});
export type AssignVoiceResult = Static<typeof AssignVoiceResultSchema>;

/** `voice-pack` on the event stream: an install's progress and its end. */
export const VoicePackEventSchema = Type.Object({
  id: Type.String(),
  state: Literals(['installing', 'installed', 'failed', 'cancelled'] as const),
  progress: Type.Optional(VoicePackProgressSchema),
  /** When `failed`: the error's code and sentence. */
  error_code: Type.Optional(Type.String()),
  error_message: Type.Optional(Type.String()),
  /** When `failed`: the error's particulars, as `error_details` of an error body. */
  error_details: Type.Optional(ErrorDetailsSchema),
});
export type VoicePackEvent = Static<typeof VoicePackEventSchema>;
