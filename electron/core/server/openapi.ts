/**
 * The API reference: `GET /openapi.json` (OpenAPI 3.1, written by @fastify/swagger from the
 * `schema` every route carries) and `GET /api-docs` (swagger-ui, served from this machine by
 * @fastify/swagger-ui, under the studio's content security policy). Both are public: they
 * describe the routes, hold no one's data, and apps and developers read them before they have
 * a key; the Host and Origin checks still apply.
 *
 * A route with `validate` has its body, query string and path parameters checked by fastify
 * against the same TypeBox schemas the document shows (route-validation.ts: one formatter gives
 * the API's error answers), and its handler receives them typed (register the route on
 * `typed(app)`). Routes without it (not converted yet) keep their schema as documentation and
 * check by hand. The serializer is plain JSON (answers are not checked against their schemas).
 *
 * A new route gets its schema with `apiRoute` (or `openAiRoute` under /v1): an operationId,
 * a tag, a summary, who may call it (`PUBLIC`, `KEY`, `SESSION`), and the TypeBox schemas of
 * its body, query, path parameters and result. test/core/server/openapi.test.ts fails for a
 * registered route the document lacks.
 */

import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Type, type TObject, type TSchema, type TString } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { ErrorBodySchema, OpenAiErrorBodySchema, STUDIO_SESSION_HEADER } from '../../shared/api';
import { publicBase } from './public-url';
import { STUDIO_CSP } from './security';
import { formatSchemaProblem, validated, validatorCompiler, type Validation } from './route-validation';

/** The document's address. */
export const OPENAPI_PATH = '/openapi.json';
/** The reference page's address (its assets live below it). */
export const API_DOCS_PATH = '/api-docs';

/** Who may call a route: OpenAPI security requirements. */
export type RouteSecurity = ReadonlyArray<Record<string, string[]>>;
/** No key: the public catalogue, health, downloads by their link's token, the documents. */
export const PUBLIC: RouteSecurity = [];
/** A bearer key, or the signed-in studio (which acts with its own key). */
export const KEY: RouteSecurity = [{ bearerKey: [] }, { studioSession: [] }];
/** The signed-in studio only; a bearer key is refused. */
export const SESSION: RouteSecurity = [{ studioSession: [] }];

const TAGS = {
  tts: 'Speech requests',
  exports: 'Audiobook exports',
  manuscripts: 'Manuscripts',
  projects: 'Book projects',
  voices: 'Voices',
  customVoices: 'Custom voices',
  voicePacks: 'Voice packs',
  lexicon: 'Pronunciation lexicon',
  reading: 'Reading',
  openai: 'OpenAI-compatible',
  files: 'Downloads',
  events: 'Events',
  server: 'Server',
  studio: 'Studio',
} as const;

const TAG_DESCRIPTIONS: Record<keyof typeof TAGS, string> = {
  tts: "The cloud service's API (docs/spec/tts-service-api.md) and its extensions: submit, status, history, callbacks.",
  exports: 'Whole books rendered to M4B, MP3 with chapters, or a folder of chapter files.',
  manuscripts: 'Manuscript files (DOCX, EPUB, ODT, HTML, Markdown, text, PDF) read into chapters and text.',
  projects:
    'Books kept as projects: imported manuscripts, chapters and segments, a cast of voices, undo and redo, archives.',
  voices: 'The voice catalogue and auditions.',
  customVoices:
    'Your own voices: a code and a name over a catalogue voice, a pack speaker or a Kokoro blend, with its own prosody and lexicon; usable wherever a voice code is taken.',
  voicePacks: 'Neural voice packs (Piper, Kokoro): install, import, assign to voice codes.',
  lexicon: 'How words are pronounced: entries, import, export, previews.',
  reading: 'How a text will be read (numbers, dates, money, units, abbreviations…), before it is rendered.',
  openai: "OpenAI's speech API: the `openai` package and apps made for it work with this base URL plus /v1.",
  files: 'Results by the links in the records; the token in the link is the credential.',
  events: 'Server-sent events of requests, callbacks, exports and voice-pack installs.',
  server: 'Health, usage, the sentence cache and this document.',
  studio: "The studio's own routes: sign-in, keys, settings (a signed-in studio session only).",
};

/** Path parameters, each a string with its description. */
export function pathParams<K extends string>(params: Record<K, string>): TObject<Record<K, TString>> {
  return Type.Object(
    Object.fromEntries(
      Object.entries<string>(params).map(([name, description]) => [name, Type.String({ description })]),
    ) as Record<K, TString>,
  );
}

/** The spec's success envelope around a result. */
function envelope(result: TSchema): TSchema {
  return Type.Object({ status: Type.Literal(1), result });
}

/** An answer that is not JSON (audio, subtitles, an archive, an event stream). */
export interface BinaryAnswer {
  description: string;
  content: Record<string, { schema: TSchema }>;
}

/** A binary answer of the given content types. */
export function binary(description: string, contentTypes: readonly string[]): BinaryAnswer {
  return {
    description,
    content: Object.fromEntries(
      contentTypes.map((type) => [type, { schema: Type.String({ format: 'binary' }) }]),
    ),
  };
}

export interface RouteDoc<
  B extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
  P extends TSchema | undefined = TSchema | undefined,
> {
  operationId: string;
  tag: keyof typeof TAGS;
  summary: string;
  description?: string;
  security: RouteSecurity;
  body?: B;
  /** A body of raw bytes (an archive) in one of these content types, instead of JSON. */
  rawBody?: readonly string[];
  querystring?: Q;
  params?: P;
  /**
   * Fastify checks body, query string and path parameters against their schemas before the
   * handler (route-validation.ts), worded as the route's `wording` says.
   */
  validate?: Validation;
  /** The result inside `{status: 1, result}`, or a whole answer of another kind (`binary`). */
  result?: TSchema | BinaryAnswer;
  /** When the answer is not the spec's envelope (a plain JSON body). */
  plain?: boolean;
}

function isBinary(result: TSchema | BinaryAnswer): result is BinaryAnswer {
  return 'content' in result && typeof result.description === 'string' && !('type' in result);
}

/** The schema fastify gets: the route's own, typed for the type provider. */
export type RouteSchema<B, Q, P> = FastifySchema & { body: B; querystring: Q; params: P };

function checked<T extends TSchema | undefined>(schema: T, validation: Validation | undefined): T {
  return schema && validation ? validated(schema, validation) : schema;
}

function build<B extends TSchema | undefined, Q extends TSchema | undefined, P extends TSchema | undefined>(
  doc: RouteDoc<B, Q, P>,
  errorRef: string,
): RouteSchema<B, Q, P> {
  const { result, validate } = doc;
  const body = checked(doc.body, validate);
  const querystring = checked(doc.querystring, validate);
  const params = checked(doc.params, validate);
  const success =
    result === undefined
      ? { description: 'Success' }
      : isBinary(result)
        ? result
        : doc.plain
          ? (result as TSchema)
          : envelope(result as TSchema);
  return {
    operationId: doc.operationId,
    tags: [TAGS[doc.tag]],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    security: doc.security as Array<Record<string, string[]>>,
    ...(body ? { body } : {}),
    ...(doc.rawBody ? { body: { content: binary('', doc.rawBody).content } } : {}),
    ...(querystring ? { querystring } : {}),
    ...(params ? { params } : {}),
    response: {
      200: success,
      '4xx': Type.Ref(errorRef),
      '5xx': Type.Ref(errorRef),
    },
  } as RouteSchema<B, Q, P>;
}

/** The schema of a route that answers the spec's envelope and error shape (everything but /v1). */
export function apiRoute<
  B extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  P extends TSchema | undefined = undefined,
>(doc: RouteDoc<B, Q, P>): RouteSchema<B, Q, P> {
  return build(doc, 'ErrorBody');
}

/** The schema of a /v1 route (OpenAI's error shape). */
export function openAiRoute<
  B extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  P extends TSchema | undefined = undefined,
>(doc: Omit<RouteDoc<B, Q, P>, 'tag'>): RouteSchema<B, Q, P> {
  return build({ ...doc, tag: 'openai', plain: true }, 'OpenAiErrorBody');
}

/** The app whose routes' handlers receive bodies, queries and parameters typed from their schemas. */
export function typed(app: FastifyInstance) {
  return app.withTypeProvider<TypeBoxTypeProvider>();
}

/**
 * A plugin that fastify loads when the app starts, in the app's own context (what
 * fastify-plugin's skip-override does): its routes, hooks and decorators are the app's. Routes
 * are added this way so that the document's generator, loaded before them, sees them all.
 */
export function inAppContext(
  plugin: (app: FastifyInstance) => Promise<void>,
): (app: FastifyInstance) => Promise<void> {
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true });
}

/** Routes that are not API: the studio's page and assets, and this reference's own files. */
export const NOT_API: FastifySchema = { hide: true } as FastifySchema;

/**
 * Turns validation on (see above), registers the document's generator and the reference page.
 * Must run before any route is registered (the generator collects routes as they are added).
 */
export function registerOpenApi(app: FastifyInstance, publicUrl?: string): void {
  app.setValidatorCompiler(validatorCompiler);
  // Only reached by a validator that reports errors as a list (ours returns the AppError itself).
  app.setSchemaErrorFormatter((errors, dataVar) =>
    formatSchemaProblem({
      part: dataVar as 'body',
      field: (errors[0]?.instancePath ?? '').split('/')[1] ?? '',
      path: errors[0]?.instancePath ?? '',
      message: errors[0]?.message ?? 'is not valid',
      missing: false,
      value: {},
    }),
  );
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.addSchema({ $id: 'ErrorBody', ...ErrorBodySchema });
  app.addSchema({ $id: 'OpenAiErrorBody', ...OpenAiErrorBodySchema });
  void app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Narration Studio local API',
        // The API's version (its routes are /api/v1 and /v1), not the app's.
        version: '1.0.0',
        description:
          "Offline text to speech on this machine: the cloud TTS service's API (`/api/v1`), its extensions, and OpenAI's speech API (`/v1`). Keys: `narration-studio keys create`, or the studio's API page. Errors: `{status: 0, error_code, error_message}` under /api, OpenAI's `{error: {…}}` under /v1.",
        license: { name: 'GPL-3.0-or-later', identifier: 'GPL-3.0-or-later' },
      },
      // `--public-url` (with its sub-path, if any): where clients reach the routes. Without it the
      // document names no server, and clients take the address they read it from.
      ...(publicUrl ? { servers: [{ url: publicBase(publicUrl) }] } : {}),
      tags: Object.entries(TAGS).map(([key, name]) => ({
        name,
        description: TAG_DESCRIPTIONS[key as keyof typeof TAGS],
      })),
      components: {
        securitySchemes: {
          bearerKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key: `Authorization: Bearer nsk_…`.',
          },
          studioSession: {
            type: 'apiKey',
            in: 'header',
            name: STUDIO_SESSION_HEADER,
            description:
              'The signed-in studio: this header (the `session` of POST /api/v1/session/sign-in) together with the session cookie that sign-in sets.',
          },
        },
      },
    },
    // A route without a schema (so without tags) is left out rather than documented blank.
    hideUntagged: true,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });
  // Added when the app starts, once the generator collects routes (as every route is).
  void app.register(
    inAppContext(async (root) => {
      root.get(
        OPENAPI_PATH,
        {
          schema: apiRoute({
            operationId: 'getOpenApiDocument',
            tag: 'server',
            summary: 'This document (OpenAPI 3.1)',
            security: PUBLIC,
            plain: true,
          }),
        },
        async (_request, reply) => reply.type('application/json; charset=utf-8').send(root.swagger()),
      );
    }),
  );
  void app.register(swaggerUi, {
    routePrefix: API_DOCS_PATH,
    staticCSP: STUDIO_CSP,
    uiConfig: { deepLinking: true, tryItOutEnabled: false },
  });
}
