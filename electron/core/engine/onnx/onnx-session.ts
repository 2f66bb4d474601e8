/**
 * The session side the Piper and Kokoro loaders share: onnxruntime-node loaded on first use
 * (the eSpeak-only path never loads it), a model file read and inspected, its session
 * created, run and released, and every way a voice file can be unusable turned into one
 * VOICE_PACK_INVALID AppError that names the file's base name (never its absolute path).
 */

import { readFile } from 'node:fs/promises';
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

/** onnxruntime-node, imported once on first use. */
export function loadRuntime(): Promise<Runtime> {
  runtime ??= import('onnxruntime-node').catch((error: unknown) => {
    runtime = undefined;
    throw new AppError(
      'ENGINE_FAILED',
      `The neural voice runtime (onnxruntime-node) could not be loaded: ${(error as Error).message}`,
      undefined,
      { cause: error },
    );
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
