/**
 * GET and PUT /api/v1/settings (session only): the port and data folder of the next start, in
 * the shared settings file, beside the ones this run uses.
 */

import { isAbsolute, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  ServerSettingsSchema,
  UpdateServerSettingsBodySchema,
  type ServerSettings,
  type UpdateServerSettingsBody,
} from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import { SERVER_SETTING_RULES, type Settings } from '../../../shared/settings';
import { defaultDataDir } from '../../platform/paths';
import type { SettingsStore } from '../../platform/settings-store';
import { requireSession } from '../auth';
import { sendResult } from '../reply';
import { firstSchemaProblem } from '../validation';
import { apiRoute, SESSION } from '../openapi';

export interface SettingsRouteOptions {
  /** The shared settings file; without it these routes answer NOT_FOUND. */
  settings: SettingsStore | undefined;
  port(): number;
  /** The data folder this run uses, when known. */
  dataDir: string | undefined;
  /** The data folder a null `dataDir` setting means (default: the per-user app data folder). */
  defaultDataDir: string | undefined;
}

export function registerSettingsRoutes(app: FastifyInstance, options: SettingsRouteOptions): void {
  const serverSettings = (stored: Settings, file: SettingsStore): ServerSettings => {
    const runningPort = options.port();
    const runningDataDir = options.dataDir ?? null;
    const nextDataDir = resolve(stored.dataDir ?? options.defaultDataDir ?? defaultDataDir());
    const portChanges = stored.port !== 0 && stored.port !== runningPort;
    const dataDirChanges = runningDataDir !== null && nextDataDir !== resolve(runningDataDir);
    return {
      port: stored.port,
      data_dir: stored.dataDir,
      keep_running_when_closed: stored.keepRunningWhenClosed,
      running_port: runningPort,
      running_data_dir: runningDataDir,
      restart_required: portChanges || dataDirChanges,
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
        summary: "The server's settings (port and data folder of the next start)",
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

  app.put(
    '/api/v1/settings',
    {
      schema: apiRoute({
        operationId: 'updateSettings',
        tag: 'studio',
        summary: "Change the server's settings",
        security: SESSION,
        body: UpdateServerSettingsBodySchema,
        result: ServerSettingsSchema,
      }),
    },
    async (request, reply) => {
      requireSession(request);
      const settings = requireSettings();
      const body = request.body ?? {};
      const problem = firstSchemaProblem(UpdateServerSettingsBodySchema, body);
      if (problem) {
        const { field } = problem;
        if (field === '')
          throw new AppError(
            'INVALID_FIELD',
            'The body must be a JSON object with port, data_dir and/or keep_running_when_closed.',
          );
        if (field === 'port' || field === 'data_dir')
          throw new AppError('INVALID_FIELD', SERVER_SETTING_RULES[field], { field });
        if (field === 'keep_running_when_closed')
          throw new AppError('INVALID_FIELD', 'keep_running_when_closed must be true, false or null.', {
            field,
          });
        throw new AppError(
          'INVALID_FIELD',
          `Unknown setting "${field}"; only port, data_dir and keep_running_when_closed can be set.`,
          { field },
        );
      }
      const { port, data_dir, keep_running_when_closed } = body as UpdateServerSettingsBody;
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
      });
      return sendResult(reply, serverSettings(stored, settings));
    },
  );
}
