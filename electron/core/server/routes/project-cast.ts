/**
 * A book project's cast over HTTP: add, change, remove, merge and split characters, and confirm
 * the suggested speakers of segments. Composed by routes/projects.ts.
 */

import type { FastifyInstance } from 'fastify';
import {
  CharacterBodySchema,
  CharacterMergeSchema,
  CharacterPatchSchema,
  CharacterRecordSchema,
  CharacterSplitSchema,
  ProjectDetailSchema,
  SuggestionsApplySchema,
} from '../../../shared/projects';
import { apiRoute, KEY, pathParams, typed } from '../openapi';
import { sendResult } from '../reply';
import { PROJECT_ID, requestKeyId, type ProjectRouteOptions } from './project-route-context';

const characterParams = pathParams({ ...PROJECT_ID, chid: 'The character id.' });

export function registerCastRoutes(app: FastifyInstance, { auth, projects }: ProjectRouteOptions): void {
  const routes = typed(app);
  const key = requestKeyId(auth);

  routes.post(
    '/api/v1/projects/:id/characters',
    {
      schema: apiRoute({
        operationId: 'addCharacter',
        tag: 'projects',
        summary: 'Add a character with its voice (answered 201)',
        security: KEY,
        params: pathParams(PROJECT_ID),
        body: CharacterBodySchema,
        validate: {},
        result: CharacterRecordSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const input = request.body;
      return sendResult(reply.code(201), await projects.addCharacter(keyId, request.params.id, input));
    },
  );

  routes.patch(
    '/api/v1/projects/:id/characters/:chid',
    {
      schema: apiRoute({
        operationId: 'updateCharacter',
        tag: 'projects',
        summary: 'Change a character; confirmed: true gives a suggested one its segments',
        security: KEY,
        params: characterParams,
        body: CharacterPatchSchema,
        validate: {},
        result: CharacterRecordSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const input = request.body;
      return sendResult(
        reply,
        await projects.updateCharacter(keyId, request.params.id, request.params.chid, input),
      );
    },
  );

  routes.delete(
    '/api/v1/projects/:id/characters/:chid',
    {
      schema: apiRoute({
        operationId: 'removeCharacter',
        tag: 'projects',
        summary: 'Remove a character (its segments go back to the narrator)',
        security: KEY,
        params: characterParams,
        result: ProjectDetailSchema,
      }),
    },
    async (request, reply) =>
      sendResult(
        reply,
        await projects.removeCharacter(await key(request), request.params.id, request.params.chid),
      ),
  );

  routes.post(
    '/api/v1/projects/:id/characters/:chid/merge',
    {
      schema: apiRoute({
        operationId: 'mergeCharacter',
        tag: 'projects',
        summary: "Merge a character into another (`into`): its segments and quotes become that one's",
        security: KEY,
        params: characterParams,
        body: CharacterMergeSchema,
        validate: {},
        result: ProjectDetailSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const { into } = request.body;
      return sendResult(
        reply,
        await projects.mergeCharacter(keyId, request.params.id, request.params.chid, into),
      );
    },
  );

  routes.post(
    '/api/v1/projects/:id/characters/:chid/split',
    {
      schema: apiRoute({
        operationId: 'splitCharacter',
        tag: 'projects',
        summary:
          'Split names out of a character: each becomes a character with the segments and quotes the text attributes to it',
        security: KEY,
        params: characterParams,
        body: CharacterSplitSchema,
        validate: {},
        result: ProjectDetailSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const { names } = request.body;
      return sendResult(
        reply,
        await projects.splitCharacter(keyId, request.params.id, request.params.chid, names),
      );
    },
  );

  routes.post(
    '/api/v1/projects/:id/suggestions/apply',
    {
      schema: apiRoute({
        operationId: 'applySuggestions',
        tag: 'projects',
        summary: 'Confirm the suggested speakers (of the given segments, or all)',
        security: KEY,
        params: pathParams(PROJECT_ID),
        body: SuggestionsApplySchema,
        validate: { emptyBodyIsObject: true },
        result: ProjectDetailSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const { segment_ids } = request.body;
      return sendResult(reply, await projects.applySuggestions(keyId, request.params.id, segment_ids));
    },
  );
}
