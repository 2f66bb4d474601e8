/**
 * What every book-project route file shares (routes/projects.ts composes them): the options, the
 * project id's path parameter, the key a request acts with, and how a query that breaks its
 * schema is worded.
 */

import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../shared/errors';
import type { ProjectService } from '../../projects';
import type { Store } from '../../store';
import type { Auth } from '../auth';
import type { Wording } from '../route-validation';

export interface ProjectRouteOptions {
  store: Store;
  auth: Auth;
  projects: ProjectService;
}

/** The project id's path parameter (with its description). */
export const PROJECT_ID = { id: 'The project id.' };

/** The id of the key `request` acts with (its key, or the studio's). */
export function requestKeyId(auth: Auth): (request: FastifyRequest) => Promise<string> {
  return async (request) => (await auth.requireKey(request)).id;
}

/** A query that breaks its schema: MISSING_FIELD for an absent file_name, else INVALID_FIELD naming the parameter. */
export const projectQueryWording: Wording = ({ part, field, message, missing }) =>
  part === 'querystring'
    ? new AppError(
        field === 'file_name' && missing ? 'MISSING_FIELD' : 'INVALID_FIELD',
        `${field || 'query'}: ${message}.`,
        { field },
      )
    : undefined;
