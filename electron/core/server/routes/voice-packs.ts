/**
 * The voice library over HTTP. GET /api/v1/voice-packs (any key or the session): installed
 * packs and the catalogue with their state, and per voice code what speaks it under std-v1.6
 * now and with its default pack installed. Studio session only: install (in the background,
 * progress on the event stream), cancel, remove, assignments, and import of a .zip / .tar.gz
 * sent as the raw body (streamed to a temp file in the data folder, removed afterwards).
 * GET /api/v1/voice-packs/<id>/sample?speaker=n (any key or the session): the publisher's sample
 * recording of a catalogue pack, fetched once from the sample host and kept in the data folder.
 */

import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AppError, isAppError } from '../../../shared/errors';
import { VOICES, findVoice } from '../../../shared/voices';
import {
  VoicePackListSchema,
  VoicePackInfoSchema,
  AssignVoiceResultSchema,
  AssignVoiceBodySchema,
  InstallVoicePackBodySchema,
  MANIFEST_FORMAT,
  type AssignVoiceResult,
  type CatalogueEntry,
  type PackManifest,
  type PackSpeed,
  type SpeakerGenderCoverage,
  type VoiceEngineInfo,
  type VoicePackInfo,
  type VoicePackList,
} from '../../../shared/voice-packs';
import type { AssignmentOverrides } from '../../../shared/voice-packs';
import {
  DEFAULT_ASSIGNMENTS,
  checkAssignment,
  engineLabel,
  findCatalogueEntry,
  resolveEngineVoice,
  speakerGenderCoverage,
  speakerLabel,
  type VoiceLibrary,
} from '../../voices';
import type { Auth } from '../auth';
import { requireSession } from '../auth';
import { sendResult } from '../reply';
import type { Wording } from '../route-validation';
import type { VoiceInstalls } from '../voice-installs';
import { apiRoute, binary, KEY, pathParams, SESSION, typed } from '../openapi';

/** Default limit on an imported archive, bytes (the largest Kokoro export with its voices fits). */
const DEFAULT_IMPORT_LIMIT = 1024 * 1024 * 1024;

/** Content types the import route takes, and the file name ending the installer expects. */
const IMPORT_TYPES: Record<string, string> = {
  'application/zip': '.zip',
  'application/x-zip-compressed': '.zip',
  'application/gzip': '.tar.gz',
  'application/x-gzip': '.tar.gz',
  'application/x-tar': '.tar',
};

/** A body that breaks its schema: INVALID_FIELD naming the field in the sentence. */
const packBodyWording: Wording = ({ part, field, message }) =>
  part === 'body' ? new AppError('INVALID_FIELD', `Invalid field ${field}: ${message}.`) : undefined;

/** A sample's speaker that is not a number from 0. */
const speakerWording: Wording = ({ part, field }) =>
  part === 'querystring' && field === 'speaker'
    ? new AppError('INVALID_FIELD', 'Invalid field speaker: a speaker number from 0.', { field })
    : undefined;

export interface VoicePackRouteOptions {
  auth: Auth;
  voices: VoiceLibrary;
  installs: VoiceInstalls;
  /** Bytes of an imported archive at most (default 1 GiB). */
  importLimit?: number;
}

export function registerVoicePackRoutes(app: FastifyInstance, options: VoicePackRouteOptions): void {
  registerPackRoutes(app, options);
  registerAssignmentRoute(app, options);
  registerPackImportRoute(app, options);
}

/** The packs: list, install from the catalogue, cancel an install, remove, a speaker's sample. */
function registerPackRoutes(app: FastifyInstance, { auth, voices, installs }: VoicePackRouteOptions): void {
  const routes = typed(app);
  routes.get(
    '/api/v1/voice-packs',
    {
      schema: apiRoute({
        operationId: 'listVoicePacks',
        tag: 'voicePacks',
        summary: 'Installed and available packs, and what speaks each voice code',
        security: KEY,
        result: VoicePackListSchema,
      }),
    },
    async (request, reply) => {
      await auth.requireKey(request);
      return sendResult(reply, await listing(voices, installs));
    },
  );

  routes.post(
    '/api/v1/voice-packs/install',
    {
      schema: apiRoute({
        operationId: 'installVoicePack',
        tag: 'voicePacks',
        summary: 'Install a pack of the catalogue (progress on the event stream)',
        security: SESSION,
        body: InstallVoicePackBodySchema,
        validate: { wording: packBodyWording, emptyBodyIsObject: true },
        result: VoicePackInfoSchema,
      }),
    },
    async (request, reply) => {
      requireSession(request);
      const { body } = request;
      const entry = findCatalogueEntry(body.id, voices.catalogue);
      if (!entry)
        throw new AppError('VOICE_PACK_NOT_FOUND', `The catalogue has no voice pack "${body.id}".`, {
          field: 'id',
          id: body.id,
        });
      const installed = await voices.get(body.id).catch(() => undefined);
      if (!installed) installs.start(body.id);
      return sendResult(reply, await packState(voices, installs, body.id));
    },
  );

  routes.post(
    '/api/v1/voice-packs/:id/cancel',
    {
      schema: apiRoute({
        operationId: 'cancelVoicePackInstall',
        tag: 'voicePacks',
        summary: 'Cancel an install',
        security: SESSION,
        params: pathParams({ id: 'The voice pack id.' }),
        result: VoicePackInfoSchema,
      }),
    },
    async (request, reply) => {
      requireSession(request);
      const { id } = request.params;
      installs.cancel(id);
      return sendResult(reply, await packState(voices, installs, id));
    },
  );

  routes.post(
    '/api/v1/voice-packs/:id/remove',
    {
      schema: apiRoute({
        operationId: 'removeVoicePack',
        tag: 'voicePacks',
        summary: 'Remove an installed pack',
        security: SESSION,
        params: pathParams({ id: 'The voice pack id.' }),
        result: VoicePackInfoSchema,
      }),
    },
    async (request, reply) => {
      requireSession(request);
      const { id } = request.params;
      await voices.remove(id);
      const entry = findCatalogueEntry(id, voices.catalogue);
      return sendResult(reply, entry ? await packState(voices, installs, id) : { id, state: 'removed' });
    },
  );

  routes.get(
    '/api/v1/voice-packs/:id/sample',
    {
      schema: apiRoute({
        operationId: 'voicePackSample',
        tag: 'voicePacks',
        summary: "The publisher's sample recording of a pack's speaker (MP3), heard before downloading",
        security: KEY,
        params: pathParams({ id: 'The voice pack id (catalogue).' }),
        querystring: Type.Object({
          speaker: Type.Optional(
            Type.String({ pattern: '^[0-9]{1,4}$', description: 'The speaker number, from 0 (default 0).' }),
          ),
        }),
        result: binary('The sample recording (MP3)', ['audio/mpeg']),
        validate: { wording: speakerWording },
      }),
      // An audio element cannot send the session header: the studio's address carries it.
      config: { sessionInQuery: true },
    },
    async (request, reply) => {
      await auth.requireKey(request);
      const { id } = request.params;
      const sample = await voices.sample(id, Number(request.query.speaker ?? '0'));
      return reply
        .header('content-type', 'audio/mpeg')
        .header('content-length', String(sample.size))
        .header('cache-control', 'private, max-age=86400')
        .header('x-sample-cache', sample.cached ? 'hit' : 'miss')
        .send(createReadStream(sample.path));
    },
  );
}

/** Which pack and speaker speak a voice code. */
function registerAssignmentRoute(app: FastifyInstance, { voices }: VoicePackRouteOptions): void {
  const routes = typed(app);
  routes.put(
    '/api/v1/voice-packs/assignments/:code',
    {
      schema: apiRoute({
        operationId: 'assignVoice',
        tag: 'voicePacks',
        summary: 'Choose the pack and speaker of a voice code',
        security: SESSION,
        params: pathParams({ code: 'A voice code (GET /api/v1/voices).' }),
        body: AssignVoiceBodySchema,
        validate: { wording: packBodyWording, emptyBodyIsObject: true },
        result: AssignVoiceResultSchema,
      }),
    },
    async (request, reply) => {
      requireSession(request);
      const { code } = request.params;
      if (!findVoice(code))
        throw new AppError('UNKNOWN_VOICE', `Unknown voice_code "${code}".`, {
          field: 'voice_code',
          voice_code: code,
        });
      const { body } = request;
      if (body.pack === null) {
        await voices.assign(code, null, body.model_id);
      } else {
        const assignment = { packId: body.pack, ...(body.speaker ? { speaker: body.speaker } : {}) };
        const pack: PackManifest | CatalogueEntry | undefined =
          (await voices.get(body.pack).catch(() => undefined)) ??
          findCatalogueEntry(body.pack, voices.catalogue);
        if (!pack)
          throw new AppError(
            'VOICE_PACK_NOT_FOUND',
            `The voice pack "${body.pack}" is neither installed nor in the catalogue.`,
            { field: 'pack' },
          );
        checkAssignment(code, assignment, pack);
        await voices.assign(code, assignment, body.model_id);
      }
      const result: AssignVoiceResult = {
        voice_code: code,
        engine: engineLabel(await voices.resolve(code, body.model_id ?? 'std-v1.6')),
      };
      return sendResult(reply, result);
    },
  );
}

/** A pack installed from an archive sent as the body. */
function registerPackImportRoute(
  app: FastifyInstance,
  { voices, installs, importLimit = DEFAULT_IMPORT_LIMIT }: VoicePackRouteOptions,
): void {
  // The import takes a raw archive body: its own parsers and limit, in its own context.
  void app.register(async (scope) => {
    scope.addContentTypeParser(Object.keys(IMPORT_TYPES), (_request, payload, done) => done(null, payload));
    typed(scope).post(
      '/api/v1/voice-packs/import',
      {
        schema: apiRoute({
          operationId: 'importVoicePack',
          tag: 'voicePacks',
          summary: 'Install a pack from an archive (.zip, .tar.gz or .tar as the body)',
          security: SESSION,
          querystring: ImportQuerySchema,
          rawBody: Object.keys(IMPORT_TYPES),
          result: VoicePackInfoSchema,
          validate: {},
        }),
      },
      async (request, reply) => {
        requireSession(request);
        const fileName = request.query.file_name;
        const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        const ending = IMPORT_TYPES[type];
        if (!ending)
          throw new AppError(
            'UNSUPPORTED_MEDIA_TYPE',
            'Send the archive as application/zip or application/gzip.',
          );
        const declared = Number(request.headers['content-length']);
        if (Number.isFinite(declared) && declared > importLimit)
          throw new AppError('BODY_TOO_LARGE', `The archive is larger than ${importLimit} bytes.`, {
            limit_bytes: importLimit,
          });
        await mkdir(voices.dir, { recursive: true });
        const path = join(voices.dir, `.import-${randomBytes(6).toString('hex')}${ending}`);
        try {
          await pipeline(request.body as Readable, limitBytes(importLimit), createWriteStream(path));
          const { manifest } = await voices.install({ kind: 'path', path });
          return sendResult(reply, await packState(voices, installs, manifest.id));
        } catch (error) {
          throw namedAsSent(error, path, fileName);
        } finally {
          await rm(path, { force: true });
        }
      },
    );
  });
}

/** Query of POST /api/v1/voice-packs/import: the archive's own name, for its error messages. */
const ImportQuerySchema = Type.Object({
  file_name: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: "The archive's own name (e.g. kokoro.zip), used in error messages; default: the archive.",
    }),
  ),
});

/**
 * An import's error as the sender knows the file: the temporary file the body was written to
 * (`.import-<random>.zip` in the voices folder) becomes its own name, or "the archive".
 */
function namedAsSent(error: unknown, path: string, fileName: string | undefined): unknown {
  if (!isAppError(error)) return error;
  const shown = fileName === undefined ? 'the archive' : `"${fileName}"`;
  const message = error.message
    .replaceAll(`The archive ${path}`, fileName === undefined ? 'The archive' : `The archive ${shown}`)
    .replaceAll(path, shown)
    .replace(/^the archive/, 'The archive');
  if (message === error.message && error.details?.path !== path) return error;
  const { path: _temporary, ...details } = error.details ?? {};
  return new AppError(
    error.code,
    message,
    { ...details, ...(fileName === undefined ? {} : { file: fileName }) },
    { cause: error },
  );
}

/** Passes bytes through; fails with BODY_TOO_LARGE past `limit`. */
function limitBytes(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit)
        callback(
          new AppError('BODY_TOO_LARGE', `The archive is larger than ${limit} bytes.`, {
            limit_bytes: limit,
          }),
        );
      else callback(null, chunk);
    },
  });
}

/** The whole library: packs with their state, and what speaks each voice code. */
export async function listing(voices: VoiceLibrary, installs: VoiceInstalls): Promise<VoicePackList> {
  const installed = await voices.list();
  const assignments = await voices.assignments();
  const ids = new Set(installed.map((p) => p.id));
  const speeds = await Promise.all(installed.map((p) => voices.speed(p.id)));
  const packs: VoicePackInfo[] = [
    ...installed.map((p, i) => installedInfo(p, voices.catalogue, speeds[i] ?? null)),
    ...voices.catalogue.filter((e) => !ids.has(e.id)).map((e) => catalogueInfo(e, installs)),
  ];
  return { packs, voices: VOICES.map((v) => engineInfo(v.voice_code, installed, assignments, voices)) };
}

async function packState(voices: VoiceLibrary, installs: VoiceInstalls, id: string): Promise<VoicePackInfo> {
  const installed = await voices.get(id).catch(() => undefined);
  if (installed) return installedInfo(installed, voices.catalogue, await voices.speed(id));
  const entry = findCatalogueEntry(id, voices.catalogue);
  if (!entry) throw new AppError('VOICE_PACK_NOT_FOUND', `There is no voice pack "${id}".`, { id });
  return catalogueInfo(entry, installs);
}

/** What the catalogue says of a pack's facts: its card, licence source and samples. */
function catalogueFacts(
  entry: CatalogueEntry | undefined,
  licence: string | undefined = entry?.licence,
): Pick<VoicePackInfo, 'model_card_url' | 'licence_source' | 'licence_terms' | 'sample_speakers'> {
  return {
    model_card_url: entry?.model_card_url ?? null,
    licence_source: entry?.licence_source ?? null,
    // The catalogue's terms only where the pack states the catalogue's licence.
    licence_terms: entry && licence === entry.licence ? (entry.licence_terms ?? null) : null,
    sample_speakers: entry?.samples ? entry.num_speakers : 0,
  };
}

function installedInfo(
  p: PackManifest,
  catalogue: readonly CatalogueEntry[],
  speed: PackSpeed | null,
): VoicePackInfo {
  const entry = findCatalogueEntry(p.id, catalogue);
  return {
    id: p.id,
    family: p.family,
    state: 'installed',
    in_catalogue: entry !== undefined,
    size: p.size,
    quality: p.quality,
    languages: p.languages,
    locales: p.locales,
    licence: p.licence,
    sample_rate: p.sample_rate,
    num_speakers: p.num_speakers,
    speakers:
      p.family === 'kokoro'
        ? p.voices.map((v) => v.name)
        : Object.entries(p.speakers)
            .sort((a, b) => a[1] - b[1])
            .map(([name]) => name),
    ...speakerInfo(p, entry?.speaker_genders),
    source_url: entry?.source_url ?? (p.origin === 'url' ? p.source : null),
    // An installed pack's digest matched the catalogue's, so the catalogue's facts are its own.
    ...catalogueFacts(entry, p.licence),
    speed,
    installed_at: p.installed_at,
  };
}

/** Each speaker's label and what is known of their genders (see core/voices/speaker-metadata.ts). */
function speakerInfo(
  p: PackManifest,
  stated: SpeakerGenderCoverage | undefined,
): Pick<VoicePackInfo, 'speaker_labels' | 'speaker_genders'> {
  if (p.family === 'kokoro') {
    return {
      speaker_labels: p.voices.map((v) =>
        v.gender ? `${v.name}, ${v.gender}` : `${v.name}, gender unknown`,
      ),
      speaker_genders: p.voices.every((v) => v.gender) ? 'known' : 'partial',
    };
  }
  const names = Object.keys(p.speakers);
  return {
    speaker_labels: Array.from({ length: p.num_speakers }, (_, i) => speakerLabel(p, i)),
    speaker_genders:
      names.length > 0 || !stated ? speakerGenderCoverage(p.id, p.num_speakers, names) : stated,
  };
}

function catalogueInfo(e: CatalogueEntry, installs: VoiceInstalls): VoicePackInfo {
  const progress = installs.progress(e.id);
  return {
    id: e.id,
    family: e.family,
    state: progress ? 'installing' : 'available',
    in_catalogue: true,
    ...(progress ? { progress } : {}),
    size: e.size,
    quality: e.quality,
    languages: e.languages,
    locales: e.locales,
    licence: e.licence,
    sample_rate: e.sample_rate,
    num_speakers: e.num_speakers,
    speakers: e.family === 'kokoro' ? e.voices.map((v) => v.name) : (e.speakers ?? []),
    ...speakerInfo(asManifest(e), e.speaker_genders),
    source_url: e.source_url,
    ...catalogueFacts(e),
    speed: null,
    installed_at: null,
  };
}

/** A catalogue entry as if installed, to ask what would speak a code once it is. */
function asManifest(e: CatalogueEntry): PackManifest {
  return {
    format: MANIFEST_FORMAT,
    id: e.id,
    family: e.family,
    languages: e.languages,
    locales: e.locales,
    quality: e.quality,
    ...(e.precision ? { precision: e.precision } : {}),
    sample_rate: e.sample_rate,
    num_speakers: e.num_speakers,
    voices: e.voices,
    size: e.size,
    licence: e.licence,
    speakers: Object.fromEntries((e.speakers ?? []).map((name, i) => [name, i])),
    model: 'model.onnx',
    config: 'config.json',
    files: [],
    origin: 'catalogue',
    source: e.source_url,
    installed_at: '',
  };
}

function engineInfo(
  code: string,
  installed: readonly PackManifest[],
  assignments: AssignmentOverrides,
  voices: VoiceLibrary,
): VoiceEngineInfo {
  const engine = engineLabel(resolveEngineVoice(code, 'std-v1.6', installed, assignments));
  const entry = (DEFAULT_ASSIGNMENTS[code] ?? [])
    .map((a) => findCatalogueEntry(a.packId, voices.catalogue))
    .find((e) => e !== undefined);
  if (!entry) return { voice_code: code, engine, default_pack: null, engine_with_default: null };
  const withDefault = installed.some((p) => p.id === entry.id)
    ? engine
    : engineLabel(resolveEngineVoice(code, 'std-v1.6', [...installed, asManifest(entry)], assignments));
  return { voice_code: code, engine, default_pack: entry.id, engine_with_default: withDefault };
}
