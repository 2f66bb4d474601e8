/**
 * The API reference: GET /openapi.json over real HTTP from a real core is a valid OpenAPI 3.1
 * document (checked by @readme/openapi-parser, which also refuses undefined path parameters
 * and duplicate operationIds), public, with the security of each kind of route; every route
 * the app registers (fastify's onRoute hook) is in it, apart from the exclusions below; and the
 * reference page at /api-docs is served from this machine under the studio's CSP.
 *
 * A route missing from the document: give it a `schema` built with `apiRoute` (or
 * `openAiRoute` under /v1) from electron/core/server/openapi.ts, with the TypeBox schemas it
 * validates with.
 */

import { validate, compileErrors } from '@readme/openapi-parser';
import type { RouteOptions } from 'fastify';
// fastify's `swagger()` decorator is typed by @fastify/swagger's augmentation of fastify.
import type {} from '@fastify/swagger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLexiconStore } from '../../../electron/core/lexicon/lexicon-store';
import { API_DOCS_PATH, OPENAPI_PATH } from '../../../electron/core/server/openapi';
import { STUDIO_CSP } from '../../../electron/core/server/security';
import { createVoiceLibrary } from '../../../electron/core/voices';
import { checkOnnxHeader } from '../../fixtures/onnx-header';
import { fetchUrl, startTestCore, type TestCore } from './helpers';
import { buildTestApp } from './inject';

/**
 * Registered routes that are not API and so not in the document: the studio's page and its
 * built assets, and the reference page's own files (swagger-ui).
 */
const NOT_API = [/^\/$/, /^\/assets\/\*$/, /^\/favicon\.svg$/, new RegExp(`^${API_DOCS_PATH}(/.*)?$`)];

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string; security?: Record<string, string[]>[] }>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
}

/** fastify's `/a/:id` as OpenAPI's `/a/{id}`, as @fastify/swagger writes it. */
function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}

/**
 * Every METHOD path of the document that a route's own schema describes (an operationId: only
 * the schemas of openapi.ts's apiRoute and openAiRoute give one).
 */
function operations(document: OpenApiDocument): Set<string> {
  return new Set(
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => typeof operation.operationId === 'string')
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    ),
  );
}

describe('the OpenAPI document', () => {
  let t: TestCore;
  let document: OpenApiDocument;

  beforeAll(async () => {
    t = await startTestCore();
    const answer = await fetchUrl(`${t.core.url}${OPENAPI_PATH}`, 'GET');
    expect(answer.status).toBe(200);
    document = answer.json as OpenApiDocument;
  });
  afterAll(async () => t?.close());

  it('is valid OpenAPI 3.1, served without a key', async () => {
    expect(document.openapi).toBe('3.1.0');
    // The parser dereferences its argument in place: give it a copy.
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['bearerKey', 'studioSession']);
  });

  it('says who may call each route', () => {
    const security = (method: string, path: string) => document.paths[path]![method]!.security;
    expect(security('post', '/api/v1/tts')).toEqual([{ bearerKey: [] }, { studioSession: [] }]);
    expect(security('post', '/v1/audio/speech')).toEqual([{ bearerKey: [] }, { studioSession: [] }]);
    expect(security('post', '/api/v1/keys')).toEqual([{ studioSession: [] }]);
    expect(security('get', '/api/v1/voices')).toEqual([]);
    expect(security('get', '/v1/audio/voices')).toEqual([]);
    expect(security('get', '/files/{id}/{token}/{name}')).toEqual([]);
  });

  it('holds the schemas the routes validate with, and the error shapes', () => {
    const submit = document.paths['/api/v1/tts']!.post as unknown as {
      requestBody: { content: { 'application/json': { schema: { required: string[] } } } };
      responses: Record<string, { content: Record<string, { schema: { $ref?: string } }> }>;
    };
    expect(submit.requestBody.content['application/json'].schema.required).toEqual([
      'input_text',
      'voice_code',
    ]);
    expect(submit.responses['4XX']!.content['application/json']!.schema.$ref).toBe(
      '#/components/schemas/ErrorBody',
    );
    const speech = document.paths['/v1/audio/speech']!.post as unknown as typeof submit;
    expect(speech.responses['4XX']!.content['application/json']!.schema.$ref).toBe(
      '#/components/schemas/OpenAiErrorBody',
    );
  });

  it('lists every route the app registers (apart from the studio page and the reference page)', async () => {
    // The app with every optional part (studio, voice packs, lexicon, sentence cache), its routes
    // collected as fastify adds them.
    const registered: string[] = [];
    const app = await buildTestApp({
      voices: (dataDir) => createVoiceLibrary({ dataDir, validateModel: checkOnnxHeader }),
      lexicon: (dataDir) => createLexiconStore({ dataDir }),
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) registered.push(`${method} ${route.url}`);
      },
    });
    try {
      const own = operations(app.app.swagger() as unknown as OpenApiDocument);
      const documented = operations(document);
      // fastify adds a HEAD route for each GET: the document has the GET.
      const api = registered.filter((route) => {
        const [method, url] = route.split(' ') as [string, string];
        if (NOT_API.some((pattern) => pattern.test(url))) return false;
        return method !== 'HEAD' || !registered.includes(`GET ${url}`);
      });
      const missing = api.filter((route) => {
        const [method, url] = route.split(' ') as [string, string];
        return !documented.has(`${method} ${openApiPath(url)}`);
      });
      expect(
        missing,
        `Routes missing from ${OPENAPI_PATH}; give each a schema (apiRoute/openAiRoute, electron/core/server/openapi.ts):\n  ${missing.join('\n  ')}`,
      ).toEqual([]);
      // The served document and the one of an app built with the same parts agree.
      expect([...own].sort()).toEqual([...documented].sort());
      console.log(
        `openapi: ${api.length} API routes of ${registered.length} registered, ${documented.size} operations in ${Object.keys(document.paths).length} paths`,
      );
    } finally {
      await app.close();
    }
  });

  it('serves the reference page from this machine under the studio CSP', async () => {
    const page = await fetchUrl(`${t.core.url}${API_DOCS_PATH}`, 'GET');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toBe(STUDIO_CSP);
    expect(page.text).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    const script = await fetchUrl(`${t.core.url}${API_DOCS_PATH}/static/swagger-ui-bundle.js`, 'GET');
    expect(script.status).toBe(200);
    expect(script.headers['content-security-policy']).toBe(STUDIO_CSP);
  });
});
