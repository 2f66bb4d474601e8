/**
 * GET and PUT /api/v1/settings (session only): the port, data folder, voice mapping and allowed
 * origins of the next start, in the shared settings file, beside the ones this run uses; and
 * the answer to the studio's first-run offer of natural voices (applies at once).
 */

import { isAbsolute, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  ServerSettingsSchema,
  UpdateServerSettingsBodySchema,
  type ServerSettings,
} from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import { normalizeAllowedOrigins } from '../../../shared/origins';
import {
  allowedOriginsProblem,
  FIRST_RUN_VOICE_OFFER_STATES,
  SERVER_SETTING_RULES,
  type Settings,
} from '../../../shared/settings';
import { defaultDataDir } from '../../platform/paths';
import type { SettingsStore } from '../../platform/settings-store';
import { requireSession } from '../auth';
import { sendResult } from '../reply';
import { isPlainObject } from '../validation';
import type { Wording } from '../route-validation';
import { apiRoute, SESSION, typed } from '../openapi';
import { ALIAS_CODE_PATTERN, checkAliasTarget, type VoiceMapping } from '../../../shared/voice-mapping';

export interface SettingsRouteOptions {
  /** The shared settings file; without it these routes answer NOT_FOUND. */
  settings: SettingsStore | undefined;
  port(): number;
  /** The data folder this run uses, when known. */
  dataDir: string | undefined;
  /** The data folder a null `dataDir` setting means (default: the per-user app data folder). */
  defaultDataDir: string | undefined;
  /** The voice mapping this run uses. */
  voiceMapping: VoiceMapping;
  /** The origins this run allows (normal forms). */
  allowedOrigins: readonly string[];
}

export function registerSettingsRoutes(app: FastifyInstance, options: SettingsRouteOptions): void {
  const serverSettings = (stored: Settings, file: SettingsStore): ServerSettings => {
    const runningPort = options.port();
    const runningDataDir = options.dataDir ?? null;
    const nextDataDir = resolve(stored.dataDir ?? options.defaultDataDir ?? defaultDataDir());
    const portChanges = stored.port !== 0 && stored.port !== runningPort;
    const dataDirChanges = runningDataDir !== null && nextDataDir !== resolve(runningDataDir);
    const running = options.voiceMapping;
    const mappingChanges =
      stored.unknownVoices !== running.unknownVoices || !sameAliases(stored.voiceAliases, running.aliases);
    const runningOrigins = [...options.allowedOrigins].sort();
    const originsChange =
      JSON.stringify([...stored.allowedOrigins].sort()) !== JSON.stringify(runningOrigins);
    return {
      port: stored.port,
      data_dir: stored.dataDir,
      keep_running_when_closed: stored.keepRunningWhenClosed,
      unknown_voices: stored.unknownVoices,
      voice_aliases: stored.voiceAliases,
      allowed_origins: stored.allowedOrigins,
      first_run_voice_offer: stored.firstRunVoiceOffer,
      running_port: runningPort,
      running_data_dir: runningDataDir,
      running_unknown_voices: running.unknownVoices,
      running_voice_aliases: { ...running.aliases },
      running_allowed_origins: [...options.allowedOrigins],
      restart_required: portChanges || dataDirChanges || mappingChanges || originsChange,
      settings_file: file.path,
    };
  };
  const requireSettings = (): SettingsStore => {
    if (!options.settings) throw new AppError('NOT_FOUND', 'This server has no settings file.');
    return options.settings;
  };

  app.get(
    '/api/v1/settings',
    {
      schema: apiRoute({
        operationId: 'getSettings',
        tag: 'studio',
        summary: "The server's settings (what the next start uses, and what this run uses)",
        security: SESSION,
        result: ServerSettingsSchema,
      }),
    },
    async (request, reply) => {
      requireSession(request);
      const settings = requireSettings();
      return sendResult(reply, serverSettings(settings.get(), settings));
    },
  );

  typed(app).put(
    '/api/v1/settings',
    {
      schema: apiRoute({
        operationId: 'updateSettings',
        tag: 'studio',
        summary: "Change the server's settings (they apply at the next start)",
        security: SESSION,
        body: UpdateServerSettingsBodySchema,
        result: ServerSettingsSchema,
        validate: { wording: settingsWording, emptyBodyIsObject: true },
      }),
    },
    async (request, reply) => {
      requireSession(request);
      const settings = requireSettings();
      const { body } = request;
      const {
        port,
        data_dir,
        keep_running_when_closed,
        unknown_voices,
        voice_aliases,
        allowed_origins,
        first_run_voice_offer,
      } = body;
      // The schema checks each row's form and target; a code of ours needs no alias.
      if (voice_aliases) {
        const problem = aliasProblem(body);
        if (problem) throw new AppError('INVALID_FIELD', problem, { field: 'voice_aliases' });
      }
      if (allowed_origins !== undefined) {
        const problem = allowedOriginsProblem(allowed_origins);
        if (problem) throw new AppError('INVALID_FIELD', problem, { field: 'allowed_origins' });
      }
      const dataDir = data_dir === undefined ? undefined : data_dir === null ? null : data_dir.trim();
      // The schema takes an absolute path of any platform; this one runs here.
      if (typeof dataDir === 'string' && !isAbsolute(dataDir))
        throw new AppError('INVALID_FIELD', 'Data folder must be an absolute path on this computer.', {
          field: 'data_dir',
        });
      const stored = settings.update({
        ...(port !== undefined ? { port } : {}),
        ...(dataDir !== undefined ? { dataDir } : {}),
        ...(keep_running_when_closed !== undefined
          ? { keepRunningWhenClosed: keep_running_when_closed }
          : {}),
        ...(unknown_voices !== undefined ? { unknownVoices: unknown_voices } : {}),
        ...(voice_aliases !== undefined ? { voiceAliases: voice_aliases } : {}),
        ...(allowed_origins !== undefined
          ? { allowedOrigins: normalizeAllowedOrigins(allowed_origins, 'allowed_origins') }
          : {}),
        ...(first_run_voice_offer !== undefined ? { firstRunVoiceOffer: first_run_voice_offer } : {}),
      });
      return sendResult(reply, serverSettings(stored, settings));
    },
  );
}

/** How a settings body that breaks UpdateServerSettingsBodySchema is refused: INVALID_FIELD with the setting's rule. */
const settingsWording: Wording = ({ part, field, value: body }) => {
  if (part !== 'body') return undefined;
  if (field === '')
    return new AppError(
      'INVALID_FIELD',
      'The body must be a JSON object with port, data_dir, keep_running_when_closed and/or allowed_origins.',
    );
  if (field === 'port' || field === 'data_dir')
    return new AppError('INVALID_FIELD', SERVER_SETTING_RULES[field], { field });
  if (field === 'keep_running_when_closed')
    return new AppError('INVALID_FIELD', 'keep_running_when_closed must be true, false or null.', { field });
  if (field === 'unknown_voices')
    return new AppError('INVALID_FIELD', 'unknown_voices must be "refuse" or "closest".', { field });
  if (field === 'voice_aliases')
    return new AppError(
      'INVALID_FIELD',
      aliasProblem(body) ?? 'voice_aliases must be an object of voice code → one of our voice codes.',
      { field },
    );
  if (field === 'allowed_origins')
    return new AppError('INVALID_FIELD', SERVER_SETTING_RULES.allowed_origins, { field });
  if (field === 'first_run_voice_offer')
    return new AppError(
      'INVALID_FIELD',
      `first_run_voice_offer must be ${FIRST_RUN_VOICE_OFFER_STATES.map((s) => `"${s}"`).join(', ')}.`,
      { field },
    );
  return new AppError(
    'INVALID_FIELD',
    `Unknown setting "${field}"; only port, data_dir, keep_running_when_closed, unknown_voices, voice_aliases, allowed_origins and first_run_voice_offer can be set.`,
    { field },
  );
};

function sameAliases(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && b[k] === a[k]);
}

/** The first wrong row of a voice_aliases table, in one sentence; undefined when none is. */
function aliasProblem(body: unknown): string | undefined {
  const table = (body as { voice_aliases?: unknown }).voice_aliases;
  if (!isPlainObject(table)) return 'voice_aliases must be an object of voice code → one of our voice codes.';
  for (const [code, target] of Object.entries(table)) {
    if (!new RegExp(ALIAS_CODE_PATTERN).test(code))
      return `voice_aliases: "${code}" must be 1–200 characters without spaces or "=".`;
    try {
      checkAliasTarget(code, String(target));
    } catch (error) {
      return `voice_aliases: ${(error as Error).message}.`;
    }
  }
  return undefined;
}
