/**
 * The studio's key management (session only): list, create and revoke API keys, add credits to
 * one, and rotate a key's signing secret. Secrets are shown to the signed-in studio only, never to a bearer key
 * (its own included: whoever holds an app's key should not also be able to forge its callbacks).
 */

import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  AddCreditsBodySchema,
  ApiKeyInfoSchema,
  CreateKeyBodySchema,
  CreatedKeySchema,
  type CreatedKey,
} from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import { addCredits, createApiKey, creditsToAddError, revokeApiKey, rotateSigningSecret } from '../../jobs';
import type { Clock } from '../../platform/clock';
import type { Store } from '../../store';
import { requireSession, type Auth } from '../auth';
import { sendResult } from '../reply';
import { isPlainObject, type Wording } from '../route-validation';
import { toKeyInfo } from '../views';
import { apiRoute, pathParams, SESSION, typed } from '../openapi';

export interface KeyRouteOptions {
  store: Store;
  /** Told of a revocation (the throttle forgets the key's prefix). */
  auth: Auth;
  clock: Clock;
  /** Balance of a new key, milli-credits. */
  defaultBalanceMilli: number | undefined;
}

/** A new key's body that breaks its schema: its one rule, on the name. */
const keyNameWording: Wording = ({ part }) =>
  part === 'body'
    ? new AppError('INVALID_FIELD', 'name must be 1 to 100 characters.', { field: 'name' })
    : undefined;

/** Credits to add that break their schema (absent, not a number, out of range): credits.ts's rule. */
const creditsWording: Wording = ({ part, value }) =>
  part === 'body' ? creditsToAddError(isPlainObject(value) ? value.credits : undefined) : undefined;

export function registerKeyRoutes(
  app: FastifyInstance,
  { store, auth, clock, defaultBalanceMilli }: KeyRouteOptions,
): void {
  const routes = typed(app);
  routes.get(
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

  routes.post(
    '/api/v1/keys',
    {
      schema: apiRoute({
        operationId: 'createKey',
        tag: 'studio',
        summary: 'Create an API key (the key is shown once)',
        security: SESSION,
        body: CreateKeyBodySchema,
        validate: { wording: keyNameWording, emptyBodyIsObject: true },
        result: CreatedKeySchema,
      }),
    },
    async (request, reply) => {
      requireSession(request);
      const { name } = request.body;
      const created = await createApiKey(store, clock, {
        ...(name ? { name } : {}),
        ...(defaultBalanceMilli !== undefined ? { balanceMilli: defaultBalanceMilli } : {}),
      });
      const result: CreatedKey = { key: created.key, info: toKeyInfo(created.row) };
      return sendResult(reply, result);
    },
  );

  routes.post(
    '/api/v1/keys/:id/revoke',
    {
      schema: apiRoute({
        operationId: 'revokeKey',
        tag: 'studio',
        summary: 'Revoke an API key by its id',
        security: SESSION,
        params: pathParams({ id: 'The key id.' }),
        validate: {},
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

  routes.post(
    '/api/v1/keys/:id/credits',
    {
      schema: apiRoute({
        operationId: 'addKeyCredits',
        tag: 'studio',
        summary: "Add credits to a live key's balance (a grant in its ledger)",
        security: SESSION,
        params: pathParams({ id: 'The key id.' }),
        body: AddCreditsBodySchema,
        validate: { wording: creditsWording },
        result: ApiKeyInfoSchema,
      }),
    },
    async (request, reply) => {
      requireSession(request);
      const { credits } = request.body;
      return sendResult(reply, toKeyInfo(await addCredits(store, clock, request.params.id, credits)));
    },
  );

  routes.post(
    '/api/v1/keys/:id/rotate-secret',
    {
      schema: apiRoute({
        operationId: 'rotateKeySecret',
        tag: 'studio',
        summary: 'Give a key a new signing secret (callbacks delivered afterwards are signed with it)',
        security: SESSION,
        params: pathParams({ id: 'The key id.' }),
        validate: {},
        result: ApiKeyInfoSchema,
      }),
    },
    async (request, reply) => {
      requireSession(request);
      return sendResult(reply, toKeyInfo(await rotateSigningSecret(store, request.params.id)));
    },
  );
}
