/**
 * The installed voice packs of a data directory: list them, read one, remove one; and
 * `createVoiceLibrary`, the one object the composition roots wire (catalogue, installs, packs,
 * assignments and the engine voice of a request).
 *
 * Removing renames the pack's folder aside first (`voices/.trash-…`) and then deletes it: new
 * requests stop seeing the pack at once, while a render that already opened its model keeps
 * reading it (on Linux and macOS the open files live until closed).
 */

import { voiceCharacter, type NeuralVoice } from '../engine';
import { manifestSpeaker, toKokoroMixVoice, toNeuralVoice } from './neural-voice';
import { kokoroPackFor, type KokoroMix } from './kokoro-names';
import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import type { ModelId } from '../../shared/options';
import {
  isValidPackId,
  type AssignmentOverrides,
  type CatalogueEntry,
  type EngineVoice,
  type NeuralModelId,
  type PackManifest,
  type PackSpeed,
  type VoiceAssignment,
} from '../../shared/voice-packs';
import type { Clock } from '../platform/clock';
import { silentLog, type Log } from '../platform/log';
import { outputFailedError } from '../platform/staged-file';
import { loadAssignments, precisionRank, resolveEngineVoice, setAssignment } from './assignment';
import { CATALOGUE, DEFAULT_SAMPLE_MIRROR, DEFAULT_VOICE_MIRROR } from './catalogue';
import { readPackSpeed } from './pack-speed';
import type { Sample } from './samples';
import type { HttpOptions } from './download';
import type { InstallProgress, InstallResult, InstallSource } from './install';
import { SAMPLES_FOLDER, TRASH_PREFIX, packDir, voicesDir } from './layout';
import { readManifest } from './manifest';
import type { ValidateModel } from './pack-contents';

/** The installed packs, by id. Folders that are not readable packs are skipped (and logged). */
export async function listPacks(dataDir: string, log: Log = silentLog): Promise<PackManifest[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(voicesDir(dataDir), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const packs: PackManifest[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    // Dot folders are installs in progress and removals; files are e.g. assignments.json.
    if (!entry.isDirectory() || entry.name.startsWith('.') || !isValidPackId(entry.name)) continue;
    if (entry.name === SAMPLES_FOLDER) continue;
    try {
      const manifest = await readManifest(packDir(dataDir, entry.name));
      if (manifest.id === entry.name) packs.push(manifest);
      else log.warn(`${packDir(dataDir, entry.name)}: its manifest names another pack; skipped`);
    } catch (error) {
      log.warn(`${error instanceof Error ? error.message : String(error)} Skipped.`);
    }
  }
  return packs;
}

/** The installed pack `id`; VOICE_PACK_NOT_FOUND when it is not installed. */
export async function getPack(dataDir: string, id: string): Promise<PackManifest> {
  if (!isValidPackId(id)) throw notInstalled(id);
  try {
    return await readManifest(packDir(dataDir, id));
  } catch (error) {
    throw notInstalled(id, error);
  }
}

function notInstalled(id: string, cause?: unknown): AppError {
  return new AppError('VOICE_PACK_NOT_FOUND', `The voice pack "${id}" is not installed.`, { id }, { cause });
}

/**
 * Removes the pack `id`: renamed aside (new requests no longer find it), then deleted. Returns
 * its manifest. VOICE_PACK_NOT_FOUND when it is not installed.
 */
export async function removePack(dataDir: string, id: string, log: Log = silentLog): Promise<PackManifest> {
  const manifest = await getPack(dataDir, id);
  const aside = join(voicesDir(dataDir), `${TRASH_PREFIX}${id}-${randomBytes(4).toString('hex')}`);
  try {
    await rename(packDir(dataDir, id), aside);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw notInstalled(id, error);
    // Windows refuses to rename a folder with open files.
    if (code === 'EBUSY' || code === 'EPERM' || code === 'EACCES') {
      throw new AppError(
        'OUTPUT_FAILED',
        `The voice pack "${id}" is in use; try again when no render is using it.`,
        { id },
        { cause: error },
      );
    }
    throw outputFailedError('the voice pack', packDir(dataDir, id), 'rename', error);
  }
  try {
    await rm(aside, { recursive: true, force: true, maxRetries: 3 });
  } catch (error) {
    log.warn(
      `${aside} could not be deleted yet (${(error as Error).message}); it is deleted at the next install or removal of a pack`,
    );
  }
  await sweepRemovedPacks(dataDir);
  return manifest;
}

/**
 * Deletes what earlier removals could not (folders set aside while their files were open); run
 * at each removal and install. One still in use stays for the next.
 */
export async function sweepRemovedPacks(dataDir: string): Promise<void> {
  const names = await readdir(voicesDir(dataDir)).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith(TRASH_PREFIX))) {
    await rm(join(voicesDir(dataDir), name), { recursive: true, force: true }).catch(() => undefined);
  }
}

export interface VoiceLibraryOptions {
  dataDir: string;
  /** The engine's model check (see `ValidateModel`). */
  validateModel: ValidateModel;
  /** Base URL of the catalogue's files (default https://huggingface.co). */
  mirror?: string;
  /** Base URL of the catalogue's sample recordings (default https://raw.githubusercontent.com). */
  sampleMirror?: string;
  /** Bytes a sample recording may have at most (default 4 MiB). */
  sampleLimit?: number;
  catalogue?: readonly CatalogueEntry[];
  http?: HttpOptions;
  reserveBytes?: number;
  clock?: Clock;
  log?: Log;
}

export interface VoiceLibrary {
  /** `<dataDir>/voices`. */
  readonly dir: string;
  readonly mirror: string;
  readonly sampleMirror: string;
  readonly catalogue: readonly CatalogueEntry[];
  list(): Promise<PackManifest[]>;
  /**
   * The publisher's sample recording of a catalogue pack's speaker, fetched once and kept under
   * `voices/samples/` (see samples.ts).
   */
  sample(id: string, speaker: number): Promise<Sample>;
  /** The pack's speed measured on its first use, or null (see pack-speed.ts). */
  speed(id: string): Promise<PackSpeed | null>;
  get(id: string): Promise<PackManifest>;
  /** A catalogue id, a path or an http(s) URL (or a parsed source). */
  install(
    source: InstallSource | string,
    options?: { signal?: AbortSignal; onProgress?: (p: InstallProgress) => void; id?: string },
  ): Promise<InstallResult>;
  remove(id: string): Promise<PackManifest>;
  assignments(): Promise<AssignmentOverrides>;
  /** Sets or (with null) clears a code's override, for one model id or all. */
  assign(
    voiceCode: string,
    assignment: VoiceAssignment | null,
    modelId?: NeuralModelId,
  ): Promise<AssignmentOverrides>;
  /** The engine voice of a request, from what is installed now. */
  resolve(voiceCode: string, modelId: ModelId): Promise<EngineVoice>;
  /**
   * What the engine opens for a request's voice code and model, with the code's character
   * (engine/voice-character.ts); undefined: eSpeak speaks it.
   */
  neuralVoice(voiceCode: string, modelId: ModelId): Promise<NeuralVoice | undefined>;
  /**
   * A Kokoro voice or mix (Kokoro-FastAPI's names, kokoro-names.ts) spoken by an installed
   * Kokoro pack holding all its parts, with the label the render will record; undefined when
   * no pack holds them all.
   */
  kokoroVoice(mix: KokoroMix): Promise<{ voice: NeuralVoice; label: string } | undefined>;
  /**
   * One speaker of an installed pack (a custom voice's pack base): a Piper speaker by name or
   * number (the first when undefined), or a Kokoro voice by name (the first when undefined);
   * undefined when the pack is not installed or has no such speaker.
   */
  packVoice(packId: string, speaker: string | undefined): Promise<NeuralVoice | undefined>;
}

/**
 * Margin under which a folder's timestamp is not trusted to show a change: coarse file systems
 * (FAT: 2 s) could give a change right after a read the same timestamp.
 */
const TIMESTAMP_MARGIN_MS = 2000;

/** What is installed: the packs, and which pack speaks which voice code. Read-only. */
interface Installed {
  packs: PackManifest[];
  assignments: AssignmentOverrides;
}

/**
 * The installed packs and the assignments, read again only when the voices folder changed.
 * Every change the library makes (a pack moved in or aside, assignments written through a
 * staged file) creates or renames an entry of that folder, which sets its modification time,
 * also when another process (the CLI) makes it. Renders and auditions ask on every request;
 * this spares them reading every manifest each time.
 */
function installedSnapshots(dataDir: string, log: Log): () => Promise<Installed> {
  let last: { mtimeNs: bigint; value: Promise<Installed> } | undefined;
  return async () => {
    const mtimeNs = await stat(voicesDir(dataDir), { bigint: true }).then(
      (s) => s.mtimeNs,
      () => undefined,
    );
    if (last && mtimeNs !== undefined && last.mtimeNs === mtimeNs) return last.value;
    const value = Promise.all([listPacks(dataDir, log), loadAssignments(dataDir, log)]).then(
      ([packs, assignments]) => ({ packs, assignments }),
    );
    const settled = mtimeNs !== undefined && mtimeNs / 1_000_000n < BigInt(Date.now() - TIMESTAMP_MARGIN_MS);
    last = settled ? { mtimeNs, value } : undefined;
    value.catch(() => {
      if (last?.value === value) last = undefined;
    });
    return value;
  };
}

export function createVoiceLibrary(options: VoiceLibraryOptions): VoiceLibrary {
  const { dataDir } = options;
  const log = options.log ?? silentLog;
  const catalogue = options.catalogue ?? CATALOGUE;
  const mirror = options.mirror ?? DEFAULT_VOICE_MIRROR;
  const sampleMirror = options.sampleMirror ?? DEFAULT_SAMPLE_MIRROR;
  const installed = installedSnapshots(dataDir, log);
  return {
    dir: voicesDir(dataDir),
    mirror,
    sampleMirror,
    catalogue,
    list: () => listPacks(dataDir, log),
    async sample(id, speaker) {
      const entry = catalogue.find((e) => e.id === id);
      if (!entry)
        throw new AppError('VOICE_PACK_NOT_FOUND', `The catalogue has no voice pack "${id}".`, { id });
      // Loaded on first use, like installs: the download client is not needed before.
      const { voiceSample } = await import('./samples');
      return voiceSample(entry, speaker, {
        dataDir,
        mirror: sampleMirror,
        ...(options.http ? { http: options.http } : {}),
        ...(options.sampleLimit !== undefined ? { limit: options.sampleLimit } : {}),
      });
    },
    speed: (id) => readPackSpeed(dataDir, id),
    get: (id) => getPack(dataDir, id),
    async install(source, extra = {}) {
      // Loaded on first use: downloads and archives (undici, tar, yauzl) cost a headless `say`
      // or a server that never installs a voice ~200 ms of start-up.
      const { installPack, parseInstallSource } = await import('./install');
      await sweepRemovedPacks(dataDir);
      return installPack(typeof source === 'string' ? parseInstallSource(source, catalogue) : source, {
        dataDir,
        validateModel: options.validateModel,
        mirror,
        catalogue,
        log,
        ...(options.http ? { http: options.http } : {}),
        ...(options.reserveBytes !== undefined ? { reserveBytes: options.reserveBytes } : {}),
        ...(options.clock ? { clock: options.clock } : {}),
        ...extra,
      });
    },
    remove: (id) => removePack(dataDir, id, log),
    assignments: () => loadAssignments(dataDir, log),
    assign: (voiceCode, assignment, modelId) => setAssignment(dataDir, voiceCode, assignment, modelId, log),
    resolve: async (voiceCode, modelId) => {
      const { packs, assignments } = await installed();
      return resolveEngineVoice(voiceCode, modelId, packs, assignments);
    },
    async kokoroVoice(mix) {
      const { packs } = await installed();
      const found = kokoroPackFor(mix, packs, precisionRank);
      if (!found) return undefined;
      return {
        voice: toKokoroMixVoice(dataDir, found.pack, found.voices, mix),
        label: `kokoro:${found.pack.id}#${mix.text}`,
      };
    },
    async packVoice(packId, speaker) {
      const { packs } = await installed();
      const pack = packs.find((p) => p.id === packId);
      if (!pack) return undefined;
      if (pack.family === 'kokoro') {
        const voice = speaker === undefined ? pack.voices[0] : pack.voices.find((v) => v.name === speaker);
        return (
          voice &&
          toKokoroMixVoice(dataDir, pack, [voice], {
            parts: [{ name: voice.name, weight: 1 }],
            text: voice.name,
          })
        );
      }
      const number = manifestSpeaker(pack, speaker);
      return number === undefined
        ? undefined
        : toNeuralVoice(dataDir, { kind: 'piper', packId: pack.id, speaker: number }, pack);
    },
    async neuralVoice(voiceCode, modelId) {
      const { packs, assignments } = await installed();
      const voice = resolveEngineVoice(voiceCode, modelId, packs, assignments);
      const neural =
        voice.kind === 'espeak'
          ? undefined
          : toNeuralVoice(
              dataDir,
              voice,
              packs.find((p) => p.id === voice.packId),
            );
      // The code's own pitch, pace and timbre, so codes sharing a pack still sound apart.
      const character = voiceCharacter(voiceCode);
      return neural && character ? { ...neural, character } : neural;
    },
  };
}
