/**
 * The studio's key management (session only): list, create and revoke API keys, add credits to
 * one, and rotate a key's signing secret. Secrets are shown to the signed-in studio only, never to a bearer key
 * (its own included: whoever holds an app's key should not also be able to forge its callbacks).
 */

import type { FastifyInstance } from 'fastify';
import { Value } from '@sinclair/typebox/value';
import { CreateKeyBodySchema, type CreateKeyBody, type CreatedKey } from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import { addCredits, createApiKey, revokeApiKey, rotateSigningSecret } from '../../jobs';
import type { Clock } from '../../platform/clock';
import type { Store } from '../../store';
import { requireSession, type Auth } from '../auth';
import { sendResult } from '../reply';
import { toKeyInfo } from '../views';
import { Type } from '@sinclair/typebox';
import { AddCreditsBodySchema, ApiKeyInfoSchema, CreatedKeySchema } from '../../../shared/api';
import { apiRoute, pathParams, SESSION } from '../openapi';

export interface KeyRouteOptions {
  store: Store;
  /** Told of a revocation (the throttle forgets the key's prefix). */
  auth: Auth;
  clock: Clock;
  /** Balance of a new key, milli-credits. */
  defaultBalanceMilli: number | undefined;
}

export function registerKeyRoutes(
  app: FastifyInstance,
  { store, auth, clock, defaultBalanceMilli }: KeyRouteOptions,
): void {
  app.get(
    '/api/v1/keys',
    {
      schema: apiRoute({
        operationId: 'listKeys',
        tag: 'studio',
        summary: 'Every API key',
        security: SESSION,
        result: Type.Object({ items: Type.Array(ApiKeyInfoSchema) }),
      }),
    },
    async (request, reply) => {
      requireSession(request);
      return sendResult(reply, { items: (await store.keys.list()).map(toKeyInfo) });
    },
  );

  app.post(
    '/api/v1/keys',
    {
      schema: apiRoute({
        operationId: 'createKey',
        tag: 'studio',
        summary: 'Create an API key (the key is shown once)',
        security: SESSION,
        body: CreateKeyBodySchema,
        result: CreatedKeySchema,
      }),
    },
    async (request, reply) => {
      requireSession(request);
      const body = (request.body ?? {}) as CreateKeyBody;
      if (!Value.Check(CreateKeyBodySchema, body))
        throw new AppError('INVALID_FIELD', 'name must be 1 to 100 characters.', { field: 'name' });
      const created = await createApiKey(store, clock, {
        ...(body.name ? { name: body.name } : {}),
        ...(defaultBalanceMilli !== undefined ? { balanceMilli: defaultBalanceMilli } : {}),
      });
      const result: CreatedKey = { key: created.key, info: toKeyInfo(created.row) };
      return sendResult(reply, result);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/v1/keys/:id/revoke',
    {
      schema: apiRoute({
        operationId: 'revokeKey',
        tag: 'studio',
        summary: 'Revoke an API key by its id',
        security: SESSION,
        params: pathParams({ id: 'The key id.' }),
        result: ApiKeyInfoSchema,
      }),
    },
    async (request, reply) => {
      requireSession(request);
      const row = await store.keys.findById(request.params.id);
      if (!row)
        throw new AppError('KEY_NOT_FOUND', `No API key "${request.params.id}".`, { id: request.params.id });
      if (row.revoked_at) return sendResult(reply, toKeyInfo(row));
      const revoked = await revokeApiKey(store, clock, row.id);
      auth.forgetKey(revoked);
      return sendResult(reply, toKeyInfo(revoked));
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/v1/keys/:id/credits',
    {
      schema: apiRoute({
        operationId: 'addKeyCredits',
        tag: 'studio',
        summary: "Add credits to a live key's balance (a grant in its ledger)",
        security: SESSION,
        params: pathParams({ id: 'The key id.' }),
        body: AddCreditsBodySchema,
        result: ApiKeyInfoSchema,
      }),
    },
    async (request, reply) => {
      requireSession(request);
      const credits = (request.body as { credits?: unknown } | undefined)?.credits;
      if (typeof credits !== 'number')
        throw new AppError('INVALID_FIELD', 'credits must be a whole number of credits to add.', {
          field: 'credits',
        });
      return sendResult(reply, toKeyInfo(await addCredits(store, clock, request.params.id, credits)));
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/v1/keys/:id/rotate-secret',
    {
      schema: apiRoute({
        operationId: 'rotateKeySecret',
        tag: 'studio',
        summary: 'Give a key a new signing secret (callbacks delivered afterwards are signed with it)',
        security: SESSION,
        params: pathParams({ id: 'The key id.' }),
        result: ApiKeyInfoSchema,
      }),
    },
    async (request, reply) => {
      requireSession(request);
      return sendResult(reply, toKeyInfo(await rotateSigningSecret(store, request.params.id)));
    },
  );
}
