/**
 * Installing a voice pack, atomically: everything is written into `voices/.tmp-<random>/`,
 * every file is verified (size and digest against the catalogue, Piper config keys, Kokoro voice
 * shapes, and the caller's `validateModel`), `manifest.json` is written, and one `rename` makes
 * it `voices/<pack id>/`. A failed or cancelled install removes its folder; only a process that
 * dies mid-download leaves one, which the next install of the same pack adopts and resumes.
 *
 * Sources: a catalogue id (downloaded from the mirror), files on disk (a Piper `.onnx` with its
 * `.onnx.json`, a Kokoro model with voices and vocabulary, a folder holding either, or a `.zip` /
 * `.tar.gz` of one), or an http(s) URL of such a file or archive.
 *
 * Two installs of the same pack: in one process the second waits for the first and gets its
 * result; across processes both download, the first rename wins, and the other returns the
 * installed pack (its own folder is discarded), so the library never holds a mixed pack.
 */

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { AppError, isAppError } from '../../shared/errors';
import {
  KOKORO_SAMPLE_RATE,
  MANIFEST_FORMAT,
  VOICE_PACK_QUALITIES,
  isValidPackId,
  type CatalogueEntry,
  type CatalogueFile,
  type KokoroVoice,
  type ManifestFile,
  type PackFileRole,
  type PackManifest,
} from '../../shared/voice-packs';
import { isoTime, systemClock, type Clock } from '../platform/clock';
import { silentLog, type Log } from '../platform/log';
import { pathInside } from '../platform/outside-names';
import { outputFailedError } from '../platform/staged-file';
import { archiveKind, extractArchive, unpackFolder, type ArchiveLimits } from './archive';
import {
  CATALOGUE,
  DEFAULT_VOICE_MIRROR,
  KOKORO_MODEL_FILE,
  catalogueFileUrl,
  findCatalogueEntry,
  kokoroVoiceInfo,
} from './catalogue';
import { createHttpClient, downloadFile, type HttpOptions } from './download';
import { OWNER_FILE, PART_SUFFIX, TEMP_PREFIX, TRASH_PREFIX, packDir, voicesDir } from './layout';
import { readManifest, writeManifest } from './manifest';
import {
  checkKokoroVocab,
  checkKokoroVoiceFile,
  findPackFiles,
  hashFile,
  licenceFromModelCard,
  readPiperConfig,
  type FileDigests,
  type FoundPack,
  type ValidateModel,
} from './pack-contents';

export interface InstallProgress {
  packId: string;
  phase: 'download' | 'unpack' | 'verify' | 'install';
  /** The file being downloaded or checked. */
  file?: string;
  /** Bytes of the whole pack done so far, and the pack's total when known. */
  bytesDone: number;
  bytesTotal: number | undefined;
}

export interface InstallOptions {
  dataDir: string;
  /** Checks the ONNX model before the pack is renamed into place (the engine's real check). */
  validateModel: ValidateModel;
  /** Base URL catalogue files are relative to (default https://huggingface.co). */
  mirror?: string;
  catalogue?: readonly CatalogueEntry[];
  signal?: AbortSignal;
  onProgress?: (progress: InstallProgress) => void;
  http?: HttpOptions;
  /** Bytes that must stay free beyond the pack (default 32 MiB). */
  reserveBytes?: number;
  /** What an imported archive may unpack to (default `DEFAULT_ARCHIVE_LIMITS`). */
  archiveLimits?: ArchiveLimits;
  /** Imports only: the pack id to use instead of the one derived from the files. */
  id?: string;
  clock?: Clock;
  log?: Log;
}

export type InstallSource =
  { kind: 'catalogue'; id: string } | { kind: 'path'; path: string } | { kind: 'url'; url: string };

export interface InstallResult {
  manifest: PackManifest;
  /** `already-installed` when the pack was there before (nothing was changed). */
  status: 'installed' | 'already-installed';
}

const DEFAULT_RESERVE_BYTES = 32 * 1024 * 1024;
/** A temporary folder whose owner is gone is adopted by the same pack, or removed after this. */
const STALE_TEMP_MS = 3 * 24 * 3600_000;
/** A temporary folder without an owner file is removed after this (it never got started). */
const ORPHAN_TEMP_MS = 3600_000;

/** `install <catalogue id|path|url>`: an http(s) URL, a catalogue id, else a path. */
export function parseInstallSource(
  text: string,
  catalogue: readonly CatalogueEntry[] = CATALOGUE,
): InstallSource {
  if (/^https?:\/\//i.test(text)) return { kind: 'url', url: text };
  if (findCatalogueEntry(text, catalogue)) return { kind: 'catalogue', id: text };
  return { kind: 'path', path: text };
}

/** In-process installs by pack folder: a second install of the same pack waits for the first. */
const inFlight = new Map<string, Promise<InstallResult>>();

function once(dataDir: string, id: string, run: () => Promise<InstallResult>): Promise<InstallResult> {
  const key = resolve(packDir(dataDir, id));
  const running = inFlight.get(key);
  if (running) return running;
  const promise = run().finally(() => inFlight.delete(key));
  inFlight.set(key, promise);
  return promise;
}

/** Installs a pack from the catalogue, from files on disk, or from a URL. */
export async function installPack(source: InstallSource, options: InstallOptions): Promise<InstallResult> {
  switch (source.kind) {
    case 'catalogue':
      return installFromCatalogue(source.id, options);
    case 'path':
      return importFromPath(source.path, options);
    case 'url':
      return importFromUrl(source.url, options);
  }
}

/** The installed pack `id`, or undefined when there is none (or it is unreadable). */
async function installedManifest(dataDir: string, id: string): Promise<PackManifest | undefined> {
  try {
    return await readManifest(packDir(dataDir, id));
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// The temporary folder

interface Owner {
  pid: number;
  host: string;
  pack_id: string | null;
  /** What is being installed: `catalogue:<mirror>` or the path / URL. */
  source: string;
  started_at: string;
}

class Staging {
  private constructor(
    readonly dir: string,
    readonly voices: string,
  ) {}

  /**
   * A new temporary folder, or, for a catalogue pack, the folder a dead process left while
   * installing the same pack from the same mirror (its finished and `.part` files are kept).
   */
  static async open(
    dataDir: string,
    owner: Omit<Owner, 'pid' | 'host' | 'started_at'>,
    clock: Clock,
    log: Log,
  ) {
    const voices = voicesDir(dataDir);
    try {
      await mkdir(voices, { recursive: true });
    } catch (error) {
      throw outputFailedError('the voices folder', voices, 'create', error);
    }
    const dir = join(voices, `${TEMP_PREFIX}${randomBytes(6).toString('hex')}`);
    const adopted = await sweepTemporaryFolders(voices, owner, clock, log, dir);
    if (!adopted) {
      try {
        await mkdir(dir);
      } catch (error) {
        throw outputFailedError('the voices folder', dir, 'create', error);
      }
    }
    const full: Owner = { ...owner, pid: process.pid, host: hostname(), started_at: isoTime(clock.now()) };
    await writeFile(join(dir, OWNER_FILE), JSON.stringify(full)).catch((error: unknown) => {
      throw outputFailedError('the voices folder', dir, 'write', error);
    });
    return new Staging(dir, voices);
  }

  /** Where the pack file `relativePath` (`/`-separated, from a catalogue or an import) goes. */
  path(relativePath: string): string {
    return pathInside(
      this.dir,
      relativePath,
      (problem) =>
        new AppError(
          'VOICE_PACK_INVALID',
          `"${relativePath}" cannot be a voice pack file: the name ${problem}.`,
          {
            path: relativePath,
          },
        ),
      { nested: true },
    );
  }

  /** Removes the folder and everything in it. */
  async discard(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true, maxRetries: 3 });
  }

  /**
   * Writes the manifest and renames the folder to `voices/<id>`. When another install got there
   * first, discards this folder and returns that pack instead.
   */
  async commit(manifest: PackManifest, dataDir: string): Promise<InstallResult> {
    await rm(join(this.dir, OWNER_FILE), { force: true });
    await rm(unpackFolder(this.dir), { recursive: true, force: true });
    await rm(downloadFolder(this.dir), { recursive: true, force: true });
    await writeManifest(this.dir, manifest);
    const target = packDir(dataDir, manifest.id);
    try {
      await rename(this.dir, target);
      return { manifest, status: 'installed' };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EPERM' && code !== 'EACCES') {
        throw outputFailedError('the voice pack', target, 'rename to', error);
      }
    }
    // Another install got there first: that pack stands. A folder that is no pack (a broken
    // earlier copy) is set aside and replaced.
    const existing = await installedManifest(dataDir, manifest.id);
    if (existing) {
      await this.discard();
      return { manifest: existing, status: 'already-installed' };
    }
    const aside = join(this.voices, `${TRASH_PREFIX}${manifest.id}-${randomBytes(4).toString('hex')}`);
    try {
      await rename(target, aside);
      await rename(this.dir, target);
    } catch (error) {
      await this.discard();
      throw outputFailedError('the voice pack', target, 'rename to', error);
    }
    await rm(aside, { recursive: true, force: true }).catch(() => undefined);
    return { manifest, status: 'installed' };
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Looks at the temporary folders other installs left: adopts (renames to `adoptAs`) one whose
 * dead owner was downloading the same catalogue pack from the same mirror, removes those dead
 * for days or never started, and leaves the rest. Returns whether one was adopted.
 */
async function sweepTemporaryFolders(
  voices: string,
  owner: Pick<Owner, 'pack_id' | 'source'>,
  clock: Clock,
  log: Log,
  adoptAs: string,
): Promise<boolean> {
  let adopted = false;
  const names = (await readdir(voices)).filter((n) => n.startsWith(TEMP_PREFIX));
  for (const name of names) {
    const dir = join(voices, name);
    const found = await readOwner(dir);
    const age = await ageOf(dir, clock);
    if (!found) {
      if (age > ORPHAN_TEMP_MS) await rm(dir, { recursive: true, force: true });
      continue;
    }
    const dead = found.host === hostname() && !processAlive(found.pid);
    if (!dead) continue;
    if (
      !adopted &&
      owner.source.startsWith('catalogue:') &&
      found.pack_id === owner.pack_id &&
      found.source === owner.source
    ) {
      try {
        await rename(dir, adoptAs);
        adopted = true;
        log.info(`resuming the interrupted download of ${owner.pack_id}`);
        continue;
      } catch {
        // Another install took it first.
      }
    }
    if (age > STALE_TEMP_MS) await rm(dir, { recursive: true, force: true });
  }
  return adopted;
}

/** The owner file of a temporary folder, or undefined when it has none (or it is unreadable). */
async function readOwner(dir: string): Promise<Owner | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, OWNER_FILE), 'utf8')) as Owner;
  } catch {
    return undefined;
  }
}

/** Milliseconds since `path` was last modified (0 when it cannot be read). */
async function ageOf(path: string, clock: Clock): Promise<number> {
  return stat(path).then(
    (s) => clock.now() - s.mtimeMs,
    () => 0,
  );
}

async function ensureFreeSpace(dir: string, needed: number, reserve: number, what: string): Promise<void> {
  let available: number;
  try {
    const fs = await statfs(dir);
    available = fs.bavail * fs.bsize;
  } catch {
    return; // no statfs here: the writes themselves will report a full disk
  }
  if (available < needed + reserve) {
    const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
    throw new AppError(
      'OUTPUT_FAILED',
      `Not enough free disk space for ${what}: it needs ${mb(needed)} (plus ${mb(reserve)} to spare), ${mb(available)} are free.`,
      { needed_bytes: needed, available_bytes: available, path: dir },
    );
  }
}

async function sizeOrZero(path: string): Promise<number> {
  return stat(path).then(
    (s) => s.size,
    () => 0,
  );
}

/** Where a URL import downloads inside the temporary folder. */
function downloadFolder(tempDir: string): string {
  return join(tempDir, '.download');
}

function cancelled(): AppError {
  return new AppError('CANCELLED', 'The voice install was cancelled.');
}

/** A failed install: its folder removed, and a cancel reported as CANCELLED whatever broke. */
async function failed(
  staging: Staging | undefined,
  signal: AbortSignal | undefined,
  error: unknown,
): Promise<never> {
  await staging?.discard();
  if (signal?.aborted && !(isAppError(error) && error.code === 'CANCELLED')) throw cancelled();
  throw error;
}

// ---------------------------------------------------------------------------------------------
// Catalogue downloads

function digestMismatch(file: CatalogueFile, digests: FileDigests): AppError | undefined {
  if (digests.size !== file.size) {
    return new AppError(
      'VOICE_PACK_INVALID',
      `${file.path} is ${digests.size} bytes; the catalogue says ${file.size}. Nothing was installed.`,
      { file: file.path },
    );
  }
  if (!file.digest) return undefined;
  const actual = file.digest.algorithm === 'md5' ? digests.md5 : digests.sha256;
  if (actual === file.digest.hex) return undefined;
  return new AppError(
    'VOICE_PACK_INVALID',
    `${file.path} does not match the catalogue (${file.digest.algorithm} ${actual}, expected ${file.digest.hex}): ` +
      'the mirror serves a different or damaged file. Nothing was installed.',
    { file: file.path, algorithm: file.digest.algorithm, actual, expected: file.digest.hex },
  );
}

async function installFromCatalogue(id: string, options: InstallOptions): Promise<InstallResult> {
  const entry = findCatalogueEntry(id, options.catalogue ?? CATALOGUE);
  if (!entry) {
    throw new AppError('VOICE_PACK_NOT_FOUND', `There is no voice pack "${id}" in the catalogue.`, { id });
  }
  const existing = await installedManifest(options.dataDir, id);
  if (existing) return { manifest: existing, status: 'already-installed' };
  return once(options.dataDir, id, async () => {
    const again = await installedManifest(options.dataDir, id);
    if (again) return { manifest: again, status: 'already-installed' };
    return downloadCataloguePack(entry, options);
  });
}

async function downloadCataloguePack(entry: CatalogueEntry, options: InstallOptions): Promise<InstallResult> {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLog;
  const mirror = (options.mirror ?? DEFAULT_VOICE_MIRROR).replace(/\/+$/, '');
  const { signal } = options;
  const staging = await Staging.open(
    options.dataDir,
    { pack_id: entry.id, source: `catalogue:${mirror}` },
    clock,
    log,
  );
  const client = createHttpClient(options.http, mirror);
  const progress = (phase: InstallProgress['phase'], bytesDone: number, file?: string) =>
    options.onProgress?.({
      packId: entry.id,
      phase,
      bytesDone,
      bytesTotal: entry.size,
      ...(file ? { file } : {}),
    });
  try {
    // Bytes already here (an adopted folder) do not travel again.
    const present = await bytesPresent(staging, entry);
    await ensureFreeSpace(
      staging.voices,
      entry.size - present,
      options.reserveBytes ?? DEFAULT_RESERVE_BYTES,
      entry.id,
    );
    const { digests, done } = await downloadCatalogueFiles(
      staging,
      entry,
      { mirror, client, progress },
      options,
    );
    progress('install', done);
    const manifest = await checkedManifest(staging, entry, digests, options, mirror);
    return await staging.commit(manifest, options.dataDir);
  } catch (error) {
    return await failed(staging, signal, error);
  } finally {
    await client.close();
  }
}

/** Bytes of `entry`'s files already in the staging folder, finished or `.part` (an adopted folder's). */
async function bytesPresent(staging: Staging, entry: CatalogueEntry): Promise<number> {
  let present = 0;
  for (const file of entry.files) {
    present += Math.min(
      file.size,
      Math.max(
        await sizeOrZero(staging.path(file.path)),
        await sizeOrZero(staging.path(file.path) + PART_SUFFIX),
      ),
    );
  }
  return present;
}

/** Reports a catalogue install's progress: its phase, the pack's bytes done, the file. */
type CatalogueProgress = (phase: InstallProgress['phase'], bytesDone: number, file?: string) => void;

/**
 * Downloads `entry`'s files into the staging folder, in order, each checked against the
 * catalogue (size and digest) before it takes its name; a file already there whole and intact
 * is kept. Resolves to each file's digests and the bytes done.
 */
async function downloadCatalogueFiles(
  staging: Staging,
  entry: CatalogueEntry,
  from: { mirror: string; client: ReturnType<typeof createHttpClient>; progress: CatalogueProgress },
  options: InstallOptions,
): Promise<{ digests: Map<string, FileDigests>; done: number }> {
  const { mirror, client, progress } = from;
  const { signal } = options;
  const digests = new Map<string, FileDigests>();
  let done = 0;
  for (const file of entry.files) {
    if (signal?.aborted) throw cancelled();
    const target = staging.path(file.path);
    await mkdir(dirname(target), { recursive: true });
    const kept = await keptFile(target, file, signal);
    if (kept) {
      digests.set(file.path, kept);
      done += file.size;
      progress('download', done, file.path);
      continue;
    }
    const part = target + PART_SUFFIX;
    await downloadFile({
      url: catalogueFileUrl(mirror, file),
      partPath: part,
      expectedSize: file.size,
      name: file.path,
      client,
      ...(signal ? { signal } : {}),
      ...(options.http ? { http: options.http } : {}),
      onBytes: (bytes) => progress('download', done + bytes, file.path),
    });
    progress('verify', done + file.size, file.path);
    const found = await hashFile(part, signal);
    const mismatch = digestMismatch(file, found);
    if (mismatch) throw mismatch;
    await rename(part, target);
    digests.set(file.path, found);
    done += file.size;
  }
  return { digests, done };
}

/**
 * The digests of `target` when it is `file` whole and as the catalogue lists it (an adopted
 * folder's finished download); otherwise undefined, and a damaged file there is removed.
 */
async function keptFile(
  target: string,
  file: CatalogueFile,
  signal: AbortSignal | undefined,
): Promise<FileDigests | undefined> {
  if ((await sizeOrZero(target)) !== file.size) return undefined;
  const found = await hashFile(target, signal);
  if (!digestMismatch(file, found)) return found;
  await rm(target, { force: true });
  return undefined;
}

/** Validates the downloaded files (config, voices, model) and builds the manifest. */
async function checkedManifest(
  staging: Staging,
  entry: CatalogueEntry,
  digests: Map<string, FileDigests>,
  options: InstallOptions,
  mirror: string,
): Promise<PackManifest> {
  const role = (r: PackFileRole) => entry.files.filter((f) => f.role === r).map((f) => f.path);
  const model = role('model')[0]!;
  const files: ManifestFile[] = entry.files.map((f) => ({
    path: f.path,
    size: f.size,
    sha256: digests.get(f.path)!.sha256,
    ...(f.digest?.algorithm === 'md5' ? { md5: digests.get(f.path)!.md5 } : {}),
    role: f.role,
  }));
  const base = {
    format: MANIFEST_FORMAT as typeof MANIFEST_FORMAT,
    id: entry.id,
    family: entry.family,
    quality: entry.quality,
    ...(entry.precision ? { precision: entry.precision } : {}),
    model,
    files,
    size: entry.size,
    licence: entry.licence,
    origin: 'catalogue' as const,
    source: entry.source_url,
    mirror,
    installed_at: isoTime((options.clock ?? systemClock).now()),
    languages: entry.languages,
    locales: entry.locales,
  };
  if (entry.family === 'piper') {
    const configPath = role('config')[0]!;
    const config = await readPiperConfig(staging.path(configPath));
    await validate(options.validateModel, staging.path(model), 'piper');
    return {
      ...base,
      sample_rate: config.sampleRate,
      num_speakers: config.numSpeakers,
      speakers: config.speakerIdMap,
      voices: [],
      config: configPath,
    };
  }
  const vocab = role('vocab')[0]!;
  await checkKokoroVocab(staging.path(vocab));
  for (const voice of entry.voices) await checkKokoroVoiceFile(staging.path(voice.file));
  await validate(options.validateModel, staging.path(model), 'kokoro');
  return {
    ...base,
    sample_rate: entry.sample_rate,
    num_speakers: entry.voices.length,
    speakers: {},
    voices: entry.voices,
    config: vocab,
  };
}

async function validate(validateModel: ValidateModel, path: string, family: 'piper' | 'kokoro') {
  try {
    await validateModel(path, family);
  } catch (error) {
    if (isAppError(error) && error.code === 'VOICE_PACK_INVALID') throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new AppError(
      'VOICE_PACK_INVALID',
      `${basename(path)} is not a usable ${family === 'piper' ? 'Piper' : 'Kokoro'} model: ${reason}`,
      { path },
      { cause: error },
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Imports: files, folders, archives, URLs

/** `.onnx`, `.onnx.json` or a folder: the pack files it names; undefined for an archive. */
async function locate(path: string): Promise<FoundPack | undefined> {
  const info = await stat(path).catch((error: unknown) => {
    throw new AppError('VOICE_PACK_NOT_FOUND', `${path} does not exist.`, { path }, { cause: error });
  });
  if (info.isDirectory()) return findPackFiles(path);
  if (await archiveKind(path)) return undefined;
  const lower = path.toLowerCase();
  const model = lower.endsWith('.onnx.json') ? path.slice(0, -'.json'.length) : path;
  if (!model.toLowerCase().endsWith('.onnx')) {
    throw new AppError(
      'VOICE_PACK_INVALID',
      `${path} is not a voice file: give a Piper .onnx (with its .onnx.json beside it), a Kokoro model folder, a folder, a .zip or a .tar.gz.`,
      { path },
    );
  }
  const isFile = (file: string) =>
    stat(file).then(
      (s) => s.isFile(),
      () => false,
    );
  if (!(await isFile(model))) {
    throw new AppError('VOICE_PACK_INVALID', `${basename(model)} is missing beside ${basename(path)}.`, {
      path,
    });
  }
  if (await isFile(`${model}.json`)) {
    const card = join(dirname(model), 'MODEL_CARD');
    return { family: 'piper', model, config: `${model}.json`, card: (await isFile(card)) ? card : undefined };
  }
  // A Kokoro model: its voices and vocabulary sit beside it (or one folder up, the export's layout).
  return findPackFiles(dirname(model), model).catch(() => findPackFiles(dirname(dirname(model)), model));
}

/**
 * The pack id of imported files: `--id`, Piper's file name, or the Kokoro catalogue export it
 * matches. A Piper id that names a catalogue pack is kept only when the model and config are
 * the catalogue's bytes (size and digest); other files are never that pack: they get an id of
 * their own, `<id>-own-<first 8 hex of the model's sha256>` (and so no catalogue licence).
 */
async function importedId(
  found: FoundPack,
  options: InstallOptions,
  signal: AbortSignal | undefined,
): Promise<string> {
  if (options.id !== undefined) {
    if (!isValidPackId(options.id)) {
      throw new AppError(
        'VOICE_PACK_INVALID',
        `"${options.id}" cannot be a pack id (letters, digits, _ - . only).`,
      );
    }
    return ownIdUnlessCatalogue(options.id, found, options, signal);
  }
  if (found.family === 'piper') {
    const id = basename(found.model).replace(/\.onnx$/i, '');
    if (!isValidPackId(id)) {
      throw new AppError('VOICE_PACK_INVALID', `"${id}" cannot be a pack id; rename the files or give --id.`);
    }
    return ownIdUnlessCatalogue(id, found, options, signal);
  }
  const catalogue = options.catalogue ?? CATALOGUE;
  const modelDigests = await hashFile(found.model, signal);
  const match = catalogue.find((entry) => {
    const model = entry.family === 'kokoro' ? entry.files.find((f) => f.role === 'model') : undefined;
    return (
      model && model.size === modelDigests.size && (!model.digest || model.digest.hex === modelDigests.sha256)
    );
  });
  if (match) return match.id;
  const name = basename(found.model)
    .replace(/\.onnx$/i, '')
    .replace(/[^A-Za-z0-9_.-]/g, '_');
  return `kokoro-${name}`;
}

/** The suffix `ownIdUnlessCatalogue` gives. */
const OWN_ID = /-own-[0-9a-f]{8}$/;
const UNKNOWN_LICENCE = 'unknown, see model card';

/** `id`, or `<id>-own-<sha256 prefix>` when `id` is a catalogue pack's and the files are not its bytes. */
async function ownIdUnlessCatalogue(
  id: string,
  found: FoundPack,
  options: InstallOptions,
  signal: AbortSignal | undefined,
): Promise<string> {
  const entry = findCatalogueEntry(id, options.catalogue ?? CATALOGUE);
  if (!entry) return id;
  const model = await hashFile(found.model, signal);
  const same = async (role: 'model' | 'config', from: string, got?: FileDigests): Promise<boolean> => {
    const listed = entry.files.find((f) => f.role === role);
    if (!listed || entry.family !== found.family) return false;
    const digests = got ?? (await hashFile(from, signal));
    if (listed.size !== digests.size) return false;
    return (
      !listed.digest ||
      (listed.digest.algorithm === 'md5' ? digests.md5 : digests.sha256) === listed.digest.hex
    );
  };
  const identical =
    (await same('model', found.model, model)) &&
    (found.family !== 'piper' || (await same('config', found.config)));
  if (identical) return id;
  const own = `${id}-own-${model.sha256.slice(0, 8)}`;
  (options.log ?? silentLog).info(
    `${basename(found.model)} claims the catalogue pack ${id} but its files differ from the catalogue's: installed as ${own}, licence unknown`,
  );
  return own;
}

interface PlacedFile {
  /** Inside the pack. */
  path: string;
  from: string;
  role: PackFileRole;
}

/** Where each found file goes inside the pack. */
function placeFiles(found: FoundPack, id: string): PlacedFile[] {
  if (found.family === 'piper') {
    return [
      { path: `${id}.onnx`, from: found.model, role: 'model' },
      { path: `${id}.onnx.json`, from: found.config, role: 'config' },
      ...(found.card ? [{ path: 'MODEL_CARD', from: found.card, role: 'card' as const }] : []),
    ];
  }
  const seen = new Set<string>();
  const voices = found.voices.map((from) => {
    const path = `voices/${basename(from)}`;
    if (seen.has(path)) {
      throw new AppError('VOICE_PACK_INVALID', `Two voice files are named ${basename(from)}; keep one.`, {
        path: from,
      });
    }
    seen.add(path);
    return { path, from, role: 'voice' as const };
  });
  return [
    { path: KOKORO_MODEL_FILE, from: found.model, role: 'model' },
    { path: basename(found.vocab), from: found.vocab, role: 'vocab' },
    ...found.extras.map((from) => ({ path: basename(from), from, role: 'extra' as const })),
    ...(found.card ? [{ path: 'MODEL_CARD', from: found.card, role: 'card' as const }] : []),
    ...voices,
  ];
}

async function importFromPath(
  path: string,
  options: InstallOptions,
  origin?: { url: string; staging: Staging },
): Promise<InstallResult> {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLog;
  const { signal } = options;
  let staging = origin?.staging;
  try {
    let found = await locate(path);
    // Files of a download or an archive already sit in the temporary folder: they are moved.
    let moveFiles = origin !== undefined;
    if (!found) {
      // An archive: unpack it inside the temporary folder, then take the files from there.
      staging ??= await Staging.open(
        options.dataDir,
        { pack_id: null, source: origin?.url ?? resolve(path) },
        clock,
        log,
      );
      found = await unpackArchive(path, staging, options);
      moveFiles = true;
    }
    const id = await importedId(found, options, signal);
    const existing = await installedManifest(options.dataDir, id);
    if (existing) {
      await staging?.discard();
      return { manifest: existing, status: 'already-installed' };
    }
    const placed = placeFiles(found, id);
    const total = (await Promise.all(placed.map((p) => sizeOrZero(p.from)))).reduce((a, b) => a + b, 0);
    staging ??= await Staging.open(options.dataDir, { pack_id: id, source: resolve(path) }, clock, log);
    if (!moveFiles)
      await ensureFreeSpace(staging.voices, total, options.reserveBytes ?? DEFAULT_RESERVE_BYTES, id);

    const { digests, done } = await placeIntoStaging(placed, staging, { id, total, moveFiles }, options);
    const manifest = await importedManifest(
      staging,
      found.family,
      id,
      placed,
      digests,
      options,
      origin?.url ?? resolve(path),
    );
    options.onProgress?.({ packId: id, phase: 'install', bytesDone: done, bytesTotal: total });
    return await staging.commit(manifest, options.dataDir);
  } catch (error) {
    return await failed(staging, signal, error);
  }
}

/**
 * Unpacks the archive at `path` into the staging folder (within the free space but the reserve,
 * and the archive limits), and finds the pack files in it.
 */
async function unpackArchive(path: string, staging: Staging, options: InstallOptions): Promise<FoundPack> {
  const { signal } = options;
  const into = unpackFolder(staging.dir);
  await mkdir(into, { recursive: true });
  const free = await statfs(staging.voices).then(
    (s) => s.bavail * s.bsize,
    () => Number.MAX_SAFE_INTEGER,
  );
  options.onProgress?.({ packId: basename(path), phase: 'unpack', bytesDone: 0, bytesTotal: undefined });
  await extractArchive(path, into, {
    maxBytes: Math.max(0, free - (options.reserveBytes ?? DEFAULT_RESERVE_BYTES)),
    ...(options.archiveLimits ? { limits: options.archiveLimits } : {}),
    ...(signal ? { signal } : {}),
  });
  return findPackFiles(into);
}

/**
 * Copies (or, for files already in the temporary folder, moves) each placed file into the staging
 * folder, in order, hashing each. Resolves to each file's digests and the bytes done.
 */
async function placeIntoStaging(
  placed: readonly PlacedFile[],
  staging: Staging,
  pack: { id: string; total: number; moveFiles: boolean },
  options: InstallOptions,
): Promise<{ digests: Map<string, FileDigests>; done: number }> {
  const { signal } = options;
  let done = 0;
  const digests = new Map<string, FileDigests>();
  for (const file of placed) {
    if (signal?.aborted) throw cancelled();
    const target = staging.path(file.path);
    await mkdir(dirname(target), { recursive: true });
    try {
      if (pack.moveFiles) await rename(file.from, target);
      else await copyFile(file.from, target);
    } catch (error) {
      throw outputFailedError('the voice file', target, 'write', error);
    }
    const got = await hashFile(target, signal);
    digests.set(file.path, got);
    done += got.size;
    options.onProgress?.({
      packId: pack.id,
      phase: 'verify',
      file: file.path,
      bytesDone: done,
      bytesTotal: pack.total,
    });
  }
  return { digests, done };
}

async function importedManifest(
  staging: Staging,
  family: 'piper' | 'kokoro',
  id: string,
  placed: PlacedFile[],
  digests: Map<string, FileDigests>,
  options: InstallOptions,
  source: string,
): Promise<PackManifest> {
  const entry = findCatalogueEntry(id, options.catalogue ?? CATALOGUE);
  // The catalogue's metadata (licence, page) applies only to byte-identical files.
  const sameAsCatalogue =
    entry !== undefined &&
    entry.family === family &&
    placed
      .filter((p) => p.role === 'model' || p.role === 'config')
      .every((p) => {
        const listed = entry.files.find((f) => f.path === p.path);
        const got = digests.get(p.path)!;
        if (!listed || listed.size !== got.size) return false;
        return (
          !listed.digest || (listed.digest.algorithm === 'md5' ? got.md5 : got.sha256) === listed.digest.hex
        );
      });
  const card = placed.find((p) => p.role === 'card');
  const cardLicence = card
    ? licenceFromModelCard(await readFile(staging.path(card.path), 'utf8'))
    : undefined;
  // Files that claimed a catalogue pack they are not (`ownIdUnlessCatalogue`): no licence is known.
  const renamed =
    OWN_ID.test(id) && findCatalogueEntry(id.replace(OWN_ID, ''), options.catalogue ?? CATALOGUE);
  const licence = sameAsCatalogue
    ? entry!.licence
    : renamed
      ? UNKNOWN_LICENCE
      : (cardLicence ?? UNKNOWN_LICENCE);
  const files: ManifestFile[] = placed.map((p) => ({
    path: p.path,
    size: digests.get(p.path)!.size,
    sha256: digests.get(p.path)!.sha256,
    ...(sameAsCatalogue && entry!.files.find((f) => f.path === p.path)?.digest?.algorithm === 'md5'
      ? { md5: digests.get(p.path)!.md5 }
      : {}),
    role: p.role,
  }));
  const model = placed.find((p) => p.role === 'model')!.path;
  const base = {
    format: MANIFEST_FORMAT as typeof MANIFEST_FORMAT,
    id,
    family,
    model,
    files,
    size: files.reduce((sum, f) => sum + f.size, 0),
    licence,
    origin: /^https?:/i.test(source) ? ('url' as const) : ('file' as const),
    source,
    installed_at: isoTime((options.clock ?? systemClock).now()),
  };
  if (family === 'piper') {
    const configPath = placed.find((p) => p.role === 'config')!.path;
    const config = await readPiperConfig(staging.path(configPath));
    await validate(options.validateModel, staging.path(model), 'piper');
    const locale = config.locale ?? /^([a-z]{2,3}_[A-Z]{2})-/.exec(id)?.[1];
    // The config's tier, else the name's (`…-medium`), else medium.
    const stated = [config.quality, /-(x_low|low|medium|high)$/.exec(id)?.[1]];
    const quality =
      stated.map((q) => VOICE_PACK_QUALITIES.find((known) => known === q)).find(Boolean) ?? 'medium';
    return {
      ...base,
      languages: [config.language],
      locales: locale ? [locale] : [],
      quality,
      sample_rate: config.sampleRate,
      num_speakers: config.numSpeakers,
      speakers: config.speakerIdMap,
      voices: [],
      config: configPath,
    };
  }
  const vocab = placed.find((p) => p.role === 'vocab')!.path;
  await checkKokoroVocab(staging.path(vocab));
  const voices: KokoroVoice[] = [];
  for (const p of placed.filter((f) => f.role === 'voice')) {
    await checkKokoroVoiceFile(staging.path(p.path));
    voices.push(kokoroVoiceInfo(basename(p.path).replace(/\.bin$/i, ''), p.path));
  }
  await validate(options.validateModel, staging.path(model), 'kokoro');
  const known = voices.filter((v) => v.locale !== 'und');
  return {
    ...base,
    languages: [...new Set(known.map((v) => v.language))].sort(),
    locales: [...new Set(known.map((v) => v.locale))].sort(),
    quality: 'high',
    ...(sameAsCatalogue && entry?.precision ? { precision: entry.precision } : {}),
    sample_rate: KOKORO_SAMPLE_RATE,
    num_speakers: voices.length,
    speakers: {},
    voices,
    config: vocab,
  };
}

function unusableUrlName(url: string, name: string, problem: string): AppError {
  return new AppError(
    'VOICE_PACK_INVALID',
    `The URL ${url} does not end in a usable file name: "${name}" ${problem}. Nothing was downloaded.`,
    { url },
  );
}

/** The file name a URL ends in (its last path segment, decoded once), `download` when none. */
function urlFileName(url: string): string {
  const segment = new URL(url).pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment) || 'download';
  } catch {
    throw unusableUrlName(url, segment, 'is not valid percent-encoding');
  }
}

/** A file a URL import fetches: from where, its name, where it goes. */
interface UrlDownload {
  url: string;
  file: string;
  target: string;
}

/**
 * What a URL import fetches into `folder`: a Piper model and its config (whichever of the two the
 * URL names), else the one file. Every name is checked before the first byte is fetched.
 */
function urlDownloads(url: string, folder: string): UrlDownload[] {
  const name = urlFileName(url);
  const lower = name.toLowerCase();
  const piperModel = lower.endsWith('.onnx.json')
    ? url.slice(0, -'.json'.length)
    : lower.endsWith('.onnx')
      ? url
      : undefined;
  const model = name.replace(/\.json$/i, '');
  return (
    piperModel
      ? [
          { url: piperModel, file: model },
          { url: `${piperModel}.json`, file: `${model}.json` },
        ]
      : [{ url, file: name }]
  ).map((d) => ({
    ...d,
    target: pathInside(folder, d.file, (problem) => unusableUrlName(url, d.file, problem)),
  }));
}

/** Downloads each file in order, each checked against the free space once its size is known. */
async function downloadUrlFiles(
  downloads: readonly UrlDownload[],
  staging: Staging,
  client: ReturnType<typeof createHttpClient>,
  options: InstallOptions,
): Promise<void> {
  const { signal } = options;
  const reserve = options.reserveBytes ?? DEFAULT_RESERVE_BYTES;
  let done = 0;
  for (const d of downloads) {
    const part = d.target + PART_SUFFIX;
    const result = await downloadFile({
      url: d.url,
      partPath: part,
      name: d.file,
      client,
      ...(signal ? { signal } : {}),
      ...(options.http ? { http: options.http } : {}),
      onTotal: async (total) => {
        if (total !== undefined) await ensureFreeSpace(staging.voices, total, reserve, d.file);
      },
      onBytes: (bytes, total) =>
        options.onProgress?.({
          packId: d.file,
          phase: 'download',
          file: d.file,
          bytesDone: done + bytes,
          bytesTotal: total === undefined ? undefined : done + total,
        }),
    });
    done += result.size;
    await rename(part, d.target);
  }
}

async function importFromUrl(url: string, options: InstallOptions): Promise<InstallResult> {
  const clock = options.clock ?? systemClock;
  const { signal } = options;
  const staging = await Staging.open(
    options.dataDir,
    { pack_id: null, source: url },
    clock,
    options.log ?? silentLog,
  );
  const client = createHttpClient(options.http, options.mirror);
  try {
    const downloads = urlDownloads(url, downloadFolder(staging.dir));
    await mkdir(downloadFolder(staging.dir), { recursive: true });
    await downloadUrlFiles(downloads, staging, client, options);
    return await importFromPath(downloads[0]!.target, options, { url, staging });
  } catch (error) {
    return await failed(staging, signal, error);
  } finally {
    await client.close();
  }
}
