/**
 * The session side the Piper and Kokoro loaders share: onnxruntime-node loaded on first use
 * (the eSpeak-only path never loads it), a model file read and inspected, its session
 * created, run and released, and every way a voice file can be unusable turned into one
 * VOICE_PACK_INVALID AppError that names the file's base name (never its absolute path).
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { release } from 'node:os';
import { basename } from 'node:path';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { AppError } from '../../../shared/errors';
import { OnnxFormatError, inspectModel, type ModelInfo } from './model-proto';

/** The onnxruntime-node module. */
export type Runtime = typeof import('onnxruntime-node');

/** Session settings of a voice model. */
export interface OnnxModelOptions {
  /** Threads one inference may use (default 1: the engine runs one model per worker thread). */
  intraOpNumThreads?: number;
}

let runtime: Promise<Runtime> | undefined;

/** The Visual C++ runtime onnxruntime's Windows binaries import (MSVCP140, VCRUNTIME140). */
export const VC_REDIST_URL = {
  x64: 'https://aka.ms/vs/17/release/vc_redist.x64.exe',
  arm64: 'https://aka.ms/vs/17/release/vc_redist.arm64.exe',
} as const;

/** Darwin 22.5 is macOS 13.4, the oldest both onnxruntime darwin binaries run on. */
const OLDEST_DARWIN = [22, 5] as const;

/** Where the runtime runs: node's platform and arch, and `os.release()`. */
export interface RuntimeHost {
  platform: NodeJS.Platform;
  arch: string;
  release: string;
}

const thisHost = (): RuntimeHost => ({ platform: process.platform, arch: process.arch, release: release() });

/**
 * Why natural voices cannot run on this computer, said so that a person can act on it, or
 * undefined when nothing is known to stop them. Before loading: macOS older than 13.4. After
 * a failed load (`error`): on Windows, onnxruntime.dll missing beside the binding (a broken
 * install), else a missing or too old Visual C++ runtime; anything else, the loader's own words.
 */
export function runtimeProblem(
  host: RuntimeHost,
  error?: unknown,
  exists: (path: string) => boolean = existsSync,
): string | undefined {
  if (host.platform === 'darwin') {
    const [major = 0, minor = 0] = host.release.split('.').map(Number);
    if (major < OLDEST_DARWIN[0] || (major === OLDEST_DARWIN[0] && minor < OLDEST_DARWIN[1]))
      return 'Natural voices need macOS 13.4 or later; this Mac runs an older version. eSpeak voices work on it.';
  }
  if (error === undefined) return undefined;
  const message = (error as Error).message ?? String(error);
  // Windows' loader: a DLL the binding imports is missing ("module"), or is too old to have
  // what it needs ("procedure": a Visual C++ runtime older than the one onnxruntime was built with).
  if (
    host.platform === 'win32' &&
    /specified (module|procedure) could not be found|MSVCP140|VCRUNTIME140/i.test(message)
  ) {
    const binding = /([A-Za-z]:\\[^\r\n]*onnxruntime_binding\.node)/.exec(message)?.[1];
    const dll = binding ? `${binding.slice(0, binding.lastIndexOf('\\'))}\\onnxruntime.dll` : undefined;
    if (dll && !exists(dll))
      return `Natural voices cannot load: ${dll} is missing. Reinstall Narration Studio. eSpeak voices work without it.`;
    const url = host.arch === 'arm64' ? VC_REDIST_URL.arm64 : VC_REDIST_URL.x64;
    return `Natural voices need the Microsoft Visual C++ Redistributable (2015–2022, version 14.40 or later), which this computer lacks or has in an older version. Install it from ${url}, then restart Narration Studio. eSpeak voices work without it.`;
  }
  return `The neural voice runtime (onnxruntime-node) could not be loaded: ${message}`;
}

/** onnxruntime-node, imported once on first use; what stops it is said by `runtimeProblem`. */
export function loadRuntime(host: RuntimeHost = thisHost()): Promise<Runtime> {
  const before = runtimeProblem(host);
  if (before) return Promise.reject(new AppError('ENGINE_FAILED', before));
  runtime ??= import('onnxruntime-node').catch((error: unknown) => {
    runtime = undefined;
    throw new AppError('ENGINE_FAILED', runtimeProblem(host, error)!, undefined, { cause: error });
  });
  return runtime;
}

/** The VOICE_PACK_INVALID error for the model file `fileName` (a base name). */
export function invalidModel(kind: string, fileName: string, why: string, cause?: unknown): AppError {
  const message = `${kind} voice model "${fileName}" is not usable: ${why}`;
  return new AppError('VOICE_PACK_INVALID', message, undefined, { cause });
}

/** A model file's bytes and what they hold. */
export interface ModelFile {
  /** The file's base name, for messages. */
  readonly fileName: string;
  readonly bytes: Uint8Array;
  readonly info: ModelInfo;
}

/** Reads and inspects a model file; any failure is VOICE_PACK_INVALID. */
export async function readModelFile(kind: string, modelPath: string): Promise<ModelFile> {
  const fileName = basename(modelPath);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(modelPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'the file is missing'
        : code === 'EISDIR'
          ? 'it is a folder'
          : `it cannot be read (${code})`;
    throw invalidModel(kind, fileName, why, error);
  }
  try {
    return { fileName, bytes, info: inspectModel(bytes) };
  } catch (error) {
    if (error instanceof OnnxFormatError) throw invalidModel(kind, fileName, error.message, error);
    throw error;
  }
}

/** Creates the session on the CPU provider; a model onnxruntime refuses is VOICE_PACK_INVALID. */
export async function createSession(
  kind: string,
  file: Pick<ModelFile, 'fileName' | 'bytes'>,
  options: OnnxModelOptions,
): Promise<InferenceSession> {
  const ort = await loadRuntime();
  try {
    return await ort.InferenceSession.create(file.bytes, {
      executionProviders: ['cpu'],
      intraOpNumThreads: options.intraOpNumThreads ?? 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      logSeverityLevel: 3,
    });
  } catch (error) {
    throw invalidModel(kind, file.fileName, `onnxruntime refused it (${(error as Error).message})`, error);
  }
}

/** Runs the session; a failure inside onnxruntime is ENGINE_FAILED naming the file. */
export async function runSession(
  session: InferenceSession,
  fileName: string,
  feeds: Record<string, Tensor>,
  fetches: readonly string[],
): Promise<Record<string, Tensor | undefined>> {
  try {
    return await session.run(feeds, [...fetches]);
  } catch (error) {
    const message = `"${fileName}" failed to synthesize: ${(error as Error).message}`;
    throw new AppError('ENGINE_FAILED', message, undefined, { cause: error });
  }
}

/** A close() that releases the session once; later calls resolve at once. */
export function releaseOnce(session: InferenceSession): { close(): Promise<void>; readonly closed: boolean } {
  let released: Promise<void> | undefined;
  return {
    close: () => (released ??= session.release()),
    get closed() {
      return released !== undefined;
    },
  };
}
