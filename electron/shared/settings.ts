/**
 * The app's settings: one schema, defaults and migration, used by the desktop shell
 * (electron-store) and headless mode (the file itself) alike. Pure: no Node, no electron.
 */

import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import {
  AUDIO_TYPES,
  BITRATES,
  DEFAULT_SYNTHESIS,
  MODEL_IDS,
  RATE_MAX,
  RATE_MIN,
  VOLUME_MAX,
  VOLUME_MIN,
} from './options';
import { UnknownVoicePolicySchema, VoiceAliasesSchema, type VoiceMapping } from './voice-mapping';
import { checkAllowedOrigin } from './origins';

/** Bumped whenever a stored layout needs a migration step (see `SETTINGS_MIGRATIONS`). */
export const SETTINGS_VERSION = 1;
export const DEFAULT_PORT = 8787;

const Literals = <T extends readonly (string | number)[]>(values: T) =>
  Type.Union(values.map((v) => Type.Literal(v)));
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const WindowBoundsSchema = Type.Object({
  x: Type.Integer(),
  y: Type.Integer(),
  width: Type.Integer({ minimum: 200 }),
  height: Type.Integer({ minimum: 150 }),
  maximized: Type.Boolean(),
});
export type WindowBounds = Static<typeof WindowBoundsSchema>;

export const OutputDefaultsSchema = Type.Object({
  model_id: Literals(MODEL_IDS),
  audio_type: Literals(AUDIO_TYPES),
  bitrate: Literals(BITRATES),
  speed_rate: Type.Number({ minimum: RATE_MIN, maximum: RATE_MAX }),
  pitch_rate: Type.Number({ minimum: RATE_MIN, maximum: RATE_MAX }),
  volume: Type.Integer({ minimum: VOLUME_MIN, maximum: VOLUME_MAX }),
});

/** Port of the local API; 0 picks a free one each run. */
export const PortSchema = Type.Integer({ minimum: 0, maximum: 65535 });

/** An absolute path on any platform: `/…`, `C:\…`, `C:/…` or `\\server\…`. Pure (no node:path). */
export const AbsolutePathSchema = Type.String({ pattern: '^(/|[A-Za-z]:[\\\\/]|\\\\\\\\)' });

/** Origins of pages and extensions allowed to call the API from a browser (see origins.ts). */
export const AllowedOriginsSchema = Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
  maxItems: 100,
});

/** True when every entry is an origin in its normal form (what `checkAllowedOrigin` answers). */
function areNormalOrigins(value: unknown): boolean {
  return (
    Value.Check(AllowedOriginsSchema, value) &&
    value.every((origin) => {
      const check = checkAllowedOrigin(origin);
      return check.ok && check.origin === origin;
    })
  );
}

/** The first-run offer of natural voices: not answered yet, accepted, or skipped. */
export const FirstRunVoiceOfferSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('accepted'),
  Type.Literal('skipped'),
]);
export type FirstRunVoiceOffer = Static<typeof FirstRunVoiceOfferSchema>;
export const FIRST_RUN_VOICE_OFFER_STATES: readonly FirstRunVoiceOffer[] = FirstRunVoiceOfferSchema.anyOf.map(
  (literal) => literal.const,
);

export const SettingsSchema = Type.Object({
  version: Type.Integer({ minimum: 1 }),
  /** Port of the local API; 0 picks a free one each run. */
  port: PortSchema,
  /** Database and audio files; null means the per-user app data folder. */
  dataDir: Nullable(Type.String({ minLength: 1 })),
  theme: Literals(['system', 'light', 'dark'] as const),
  output: OutputDefaultsSchema,
  /** Last position of the main window; null until it has been closed once. */
  windowBounds: Nullable(WindowBoundsSchema),
  /**
   * Desktop app: closing the window keeps the local API running in the tray (true) or quits
   * (false); null: the OS's default (`keepsRunningWhenClosed`).
   */
  keepRunningWhenClosed: Nullable(Type.Boolean()),
  /**
   * A voice_code that is not ours, at the next start (`serve --unknown-voices`): refused
   * (`refuse`, the spec's) or spoken by the closest of our voices (`closest`).
   */
  unknownVoices: UnknownVoicePolicySchema,
  /** Exact mappings at the next start (`serve --voice-alias CODE=OURCODE`): a code → our voice code. */
  voiceAliases: VoiceAliasesSchema,
  /**
   * Origins of other sites' pages and of browser extensions that may call the API with a key
   * (`serve --allow-origin`); read at start.
   */
  allowedOrigins: AllowedOriginsSchema,
  /**
   * The studio's first-run offer of natural voices: not answered yet (`pending`, offered when
   * the studio opens), `accepted` (downloads started) or `skipped`; once answered, never again.
   */
  firstRunVoiceOffer: FirstRunVoiceOfferSchema,
});
export type Settings = Static<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  version: SETTINGS_VERSION,
  port: DEFAULT_PORT,
  dataDir: null,
  theme: 'system',
  output: { ...DEFAULT_SYNTHESIS },
  windowBounds: null,
  keepRunningWhenClosed: null,
  unknownVoices: 'refuse',
  voiceAliases: {},
  allowedOrigins: [],
  // A settings file written before the offer existed has no such field: it reads as pending
  // (migrateSettings fills missing fields with these defaults), and the studio does not offer
  // voices to a library that has some already.
  firstRunVoiceOffer: 'pending',
};

/**
 * Whether closing the desktop window leaves the app running in the tray. Never without a tray
 * icon (nothing would show that the app still holds its port and data). Unless the user chose,
 * macOS and Windows keep running (their trays always work); Linux quits, since a desktop
 * without a tray host (GNOME without the AppIndicator extension) drops the icon silently.
 */
export function keepsRunningWhenClosed(choice: boolean | null, platform: string, hasTray: boolean): boolean {
  if (!hasTray) return false;
  return choice ?? platform !== 'linux';
}

/** A step from version `n` to `n + 1`, on raw stored data. */
export type SettingsMigration = (raw: Record<string, unknown>) => Record<string, unknown>;

/**
 * Steps keyed by the version they upgrade from. Empty while version 1 is the only layout
 * ever written; a new layout adds `1: (raw) => …` and bumps SETTINGS_VERSION.
 */
export const SETTINGS_MIGRATIONS: Readonly<Record<number, SettingsMigration>> = {};

export interface MigrationResult {
  settings: Settings;
  /** True when the stored data differs from `settings` and should be written back. */
  changed: boolean;
  /** Human-readable notes: fields reset to their default, versions upgraded. */
  notes: string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Turns whatever is stored into valid settings: runs the numbered steps from the stored
 * version, then keeps each valid field and resets each missing or invalid one to its default
 * (one bad field never loses the others). Data without a version is treated as version 1.
 * Data from a newer app (higher version) is read the same way but reported, not downgraded.
 */
export function migrateSettings(
  stored: unknown,
  migrations: Readonly<Record<number, SettingsMigration>> = SETTINGS_MIGRATIONS,
  target: number = SETTINGS_VERSION,
): MigrationResult {
  const notes: string[] = [];
  let raw: Record<string, unknown> = isRecord(stored) ? { ...stored } : {};
  if (!isRecord(stored)) notes.push('settings were not an object: using defaults');
  let version = typeof raw.version === 'number' && Number.isInteger(raw.version) ? raw.version : 1;
  if (version > target)
    notes.push(`settings were written by a newer version (${version}); reading what fits`);
  while (version < target) {
    const step = migrations[version];
    if (step) raw = step(raw);
    version += 1;
    notes.push(`settings upgraded to version ${version}`);
  }

  const settings: Settings = { ...DEFAULT_SETTINGS, output: { ...DEFAULT_SETTINGS.output } };
  const fields = Object.keys(SettingsSchema.properties) as (keyof Settings)[];
  const out = settings as Record<keyof Settings, unknown>;
  for (const field of fields) {
    if (field === 'version') continue;
    const value = raw[field];
    if (field === 'output' && isRecord(value)) {
      // Field by field, so one bad option keeps the others.
      const output: Record<string, unknown> = { ...DEFAULT_SETTINGS.output };
      for (const [key, schema] of Object.entries(OutputDefaultsSchema.properties)) {
        if (Value.Check(schema, value[key])) output[key] = value[key];
        else if (key in value) notes.push(`output.${key} was invalid: reset to its default`);
      }
      out.output = output;
    } else if (
      value !== undefined &&
      Value.Check(SettingsSchema.properties[field], value) &&
      (field !== 'allowedOrigins' || areNormalOrigins(value))
    ) {
      out[field] = value;
    } else if (value !== undefined) {
      notes.push(`${field} was invalid: reset to its default`);
    }
  }
  settings.version = Math.max(version, target);
  const changed = JSON.stringify(stored) !== JSON.stringify(settings);
  return { settings, changed, notes };
}

/** A partial change; `output` may be given in part. */
export type SettingsPatch = Partial<Omit<Settings, 'version' | 'output'>> & {
  output?: Partial<Settings['output']>;
};

/** Applies a patch; throws a TypeError naming the first invalid field. */
export function applySettingsPatch(current: Settings, patch: SettingsPatch): Settings {
  const next: Settings = {
    ...current,
    ...patch,
    version: current.version,
    output: { ...current.output, ...patch.output },
  } as Settings;
  if (!Value.Check(SettingsSchema, next)) {
    const first = Value.Errors(SettingsSchema, next).First();
    throw new TypeError(`invalid setting ${first?.path.slice(1) ?? ''}: ${first?.message ?? 'bad value'}`);
  }
  if (!areNormalOrigins(next.allowedOrigins))
    throw new TypeError('invalid setting allowedOrigins: each must be an origin in its normal form');
  return next;
}

/** A problem with one server setting, named by its API field. */
export interface ServerSettingsProblem {
  field: 'port' | 'data_dir' | 'allowed_origins';
  message: string;
}

/**
 * What a port and a data folder must be, in the words of the Settings view and of
 * PUT /api/v1/settings (whose body schema, `UpdateServerSettingsBodySchema`, is built from
 * `PortSchema` and `AbsolutePathSchema`).
 */
export const SERVER_SETTING_RULES: Readonly<Record<ServerSettingsProblem['field'], string>> = {
  port: `Port must be a whole number from ${PortSchema.minimum} to ${PortSchema.maximum} (0 picks a free port each start).`,
  data_dir: 'Data folder must be an absolute path (or empty for the per-user app data folder).',
  allowed_origins: `Allowed origins: at most ${AllowedOriginsSchema.maxItems}, each scheme://host[:port].`,
};

/**
 * Checks a port and data folder by the settings schema's rules (port an integer 0–65535, 0
 * picking a free one; data folder an absolute path, or null for the per-user app data folder),
 * reporting every field that breaks them. For the Settings view, which marks each field.
 */
export function checkServerSettings(values: {
  port?: unknown;
  data_dir?: unknown;
  allowed_origins?: unknown;
}): ServerSettingsProblem[] {
  const problems: ServerSettingsProblem[] = [];
  if (values.port !== undefined && !Value.Check(PortSchema, values.port))
    problems.push({ field: 'port', message: SERVER_SETTING_RULES.port });
  if (
    values.data_dir !== undefined &&
    values.data_dir !== null &&
    !Value.Check(AbsolutePathSchema, values.data_dir)
  )
    problems.push({ field: 'data_dir', message: SERVER_SETTING_RULES.data_dir });
  if (values.allowed_origins !== undefined) {
    const problem = allowedOriginsProblem(values.allowed_origins);
    if (problem) problems.push({ field: 'allowed_origins', message: problem });
  }
  return problems;
}

/** The voice mapping the settings give the server at its start. */
export function voiceMappingOf(settings: Pick<Settings, 'unknownVoices' | 'voiceAliases'>): VoiceMapping {
  return { unknownVoices: settings.unknownVoices, aliases: { ...settings.voiceAliases } };
}

/**
 * Why a list of allowed origins is refused (the first bad entry's reason, as "Allowed origin
 * …"), or undefined when every entry is an origin. For the Settings view and PUT /api/v1/settings.
 */
export function allowedOriginsProblem(values: unknown): string | undefined {
  if (!Value.Check(AllowedOriginsSchema, values)) return SERVER_SETTING_RULES.allowed_origins;
  for (const value of values) {
    const check = checkAllowedOrigin(value);
    if (!check.ok) return `Allowed origin ${check.message}`;
  }
  return undefined;
}
