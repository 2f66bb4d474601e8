/**
 * GET and PUT /api/v1/settings (session only): the port, data folder and allowed origins of the
 * next start, in the shared settings file, beside the ones this run uses.
 */

import { isAbsolute, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  UpdateServerSettingsBodySchema,
  type ServerSettings,
  type UpdateServerSettingsBody,
} from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import { normalizeAllowedOrigins } from '../../../shared/origins';
import { allowedOriginsProblem, SERVER_SETTING_RULES, type Settings } from '../../../shared/settings';
import { defaultDataDir } from '../../platform/paths';
import type { SettingsStore } from '../../platform/settings-store';
import { requireSession } from '../auth';
import { sendResult } from '../reply';
import { firstSchemaProblem } from '../validation';

export interface SettingsRouteOptions {
  /** The shared settings file; without it these routes answer NOT_FOUND. */
  settings: SettingsStore | undefined;
  port(): number;
  /** The data folder this run uses, when known. */
  dataDir: string | undefined;
  /** The data folder a null `dataDir` setting means (default: the per-user app data folder). */
  defaultDataDir: string | undefined;
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
    const running = [...options.allowedOrigins].sort();
    const originsChange = JSON.stringify([...stored.allowedOrigins].sort()) !== JSON.stringify(running);
    return {
      port: stored.port,
      data_dir: stored.dataDir,
      keep_running_when_closed: stored.keepRunningWhenClosed,
      allowed_origins: stored.allowedOrigins,
      running_port: runningPort,
      running_data_dir: runningDataDir,
      running_allowed_origins: [...options.allowedOrigins],
      restart_required: portChanges || dataDirChanges || originsChange,
      settings_file: file.path,
    };
  };
  const requireSettings = (): SettingsStore => {
    if (!options.settings) throw new AppError('NOT_FOUND', 'This server has no settings file.');
    return options.settings;
  };

  app.get('/api/v1/settings', async (request, reply) => {
    requireSession(request);
    const settings = requireSettings();
    return sendResult(reply, serverSettings(settings.get(), settings));
  });

  app.put('/api/v1/settings', async (request, reply) => {
    requireSession(request);
    const settings = requireSettings();
    const body = request.body ?? {};
    const problem = firstSchemaProblem(UpdateServerSettingsBodySchema, body);
    if (problem) {
      const { field } = problem;
      if (field === '')
        throw new AppError(
          'INVALID_FIELD',
          'The body must be a JSON object with port, data_dir, keep_running_when_closed and/or allowed_origins.',
        );
      if (field === 'port' || field === 'data_dir')
        throw new AppError('INVALID_FIELD', SERVER_SETTING_RULES[field], { field });
      if (field === 'keep_running_when_closed')
        throw new AppError('INVALID_FIELD', 'keep_running_when_closed must be true, false or null.', {
          field,
        });
      if (field === 'allowed_origins')
        throw new AppError('INVALID_FIELD', SERVER_SETTING_RULES.allowed_origins, {
          field: 'allowed_origins',
        });
      throw new AppError(
        'INVALID_FIELD',
        `Unknown setting "${field}"; only port, data_dir, keep_running_when_closed and allowed_origins can be set.`,
        { field },
      );
    }
    const { port, data_dir, keep_running_when_closed, allowed_origins } = body as UpdateServerSettingsBody;
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
      ...(keep_running_when_closed !== undefined ? { keepRunningWhenClosed: keep_running_when_closed } : {}),
      ...(allowed_origins !== undefined
        ? { allowedOrigins: normalizeAllowedOrigins(allowed_origins, 'allowed_origins') }
        : {}),
    });
    return sendResult(reply, serverSettings(stored, settings));
  });
}
