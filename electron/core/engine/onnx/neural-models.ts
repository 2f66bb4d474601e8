/**
 * Open neural voice models of one engine, shared by its renders: a model file is read and its
 * session created on first use, and released after `idleMs` without a run (a model's weights
 * and onnxruntime's arena, tens to hundreds of MB each); the next run opens it again. The
 * models handed out stay usable across a release: each run reopens what was released.
 * Configuration files (a Piper voice's `.onnx.json`, a Kokoro vocabulary and style file) are
 * read per render: they are small, and a pack replaced on disk then takes effect at the next
 * render.
 */

import { readFile } from 'node:fs/promises';
import { AppError } from '../../../shared/errors';
import { collectGarbage } from '../threads/release-memory';
import { openKokoroModel, type KokoroModel } from './kokoro-model';
import type { OnnxModelOptions } from './onnx-session';
import { openPiperModel, type PiperModel } from './piper-model';

export interface NeuralModels {
  /** The Piper model of `modelPath`, opened now if it is not open. Rejects as openPiperModel does. */
  piper(modelPath: string): Promise<PiperModel>;
  /** The Kokoro model of `modelPath`, opened now if it is not open. Rejects as openKokoroModel does. */
  kokoro(modelPath: string): Promise<KokoroModel>;
  /** Model sessions open now. */
  readonly open: number;
  /** Releases every session; models handed out fail with SHUTTING_DOWN afterwards. */
  close(): Promise<void>;
}

export interface NeuralModelsOptions {
  /** Threads of one model run (onnxruntime's intra-op threads); default: onnxruntime's. */
  intraOpNumThreads?: number | undefined;
  /** A session without a run for this long is released, ms; default 60 000, 0: kept until close(). */
  idleMs?: number | undefined;
}

type AnyModel = PiperModel | KokoroModel;

/** One model file: its session while open, and the runs using it. */
interface Entry<T extends AnyModel> {
  model: Promise<T> | undefined;
  running: number;
  timer: NodeJS.Timeout | undefined;
  /** What renders hold: runs through whatever session is open, reopening a released one. */
  handle: Promise<T> | undefined;
}

export function createNeuralModels(options: NeuralModelsOptions = {}): NeuralModels {
  const session: OnnxModelOptions =
    options.intraOpNumThreads === undefined ? {} : { intraOpNumThreads: options.intraOpNumThreads };
  const idleMs = options.idleMs ?? 60_000;
  const entries = new Map<string, Entry<AnyModel>>();
  let closed = false;

  const release = async (entry: Entry<AnyModel>): Promise<void> => {
    const model = entry.model;
    entry.model = undefined;
    clearTimeout(entry.timer);
    entry.timer = undefined;
    if (!model) return;
    await model.then((m) => m.close()).catch(() => undefined);
    await collectGarbage();
  };

  const idle = (entry: Entry<AnyModel>): void => {
    clearTimeout(entry.timer);
    entry.timer = undefined;
    if (idleMs <= 0 || entry.running > 0 || !entry.model) return;
    entry.timer = setTimeout(() => void release(entry), idleMs);
    // A model waiting to be released must not keep the process alive.
    entry.timer.unref();
  };

  /** The entry's session, opened if released; a failed open is not kept (the next call tries again). */
  const opened = <T extends AnyModel>(entry: Entry<T>, load: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new AppError('SHUTTING_DOWN', 'the engine is shutting down'));
    if (!entry.model) {
      const model = load();
      entry.model = model;
      model.catch(() => {
        if (entry.model === model) entry.model = undefined;
      });
    }
    return entry.model;
  };

  const get = <T extends AnyModel>(key: string, load: () => Promise<T>): Promise<T> => {
    let entry = entries.get(key) as Entry<T> | undefined;
    if (!entry) {
      entry = { model: undefined, running: 0, timer: undefined, handle: undefined };
      entries.set(key, entry as Entry<AnyModel>);
    }
    const own = entry;
    if (own.handle && own.model) return own.handle;
    const first = opened(own, load);
    const handle = first.then((model): T => {
      const run = async (request: never) => {
        own.running++;
        clearTimeout(own.timer);
        try {
          const current = await opened(own, load);
          return await (current.run as (r: never) => Promise<unknown>)(request);
        } finally {
          own.running--;
          idle(own as Entry<AnyModel>);
        }
      };
      return { ...model, run, close: () => release(own as Entry<AnyModel>) } as T;
    });
    own.handle = handle;
    handle.catch(() => {
      if (own.handle === handle) own.handle = undefined;
    });
    void first.then(
      () => idle(own as Entry<AnyModel>),
      () => undefined,
    );
    return handle;
  };

  return {
    piper: (path) => get(`piper:${path}`, () => openPiperModel(path, session)),
    kokoro: (path) => get(`kokoro:${path}`, () => openKokoroModel(path, session)),
    get open() {
      let count = 0;
      for (const entry of entries.values()) if (entry.model) count++;
      return count;
    },
    async close() {
      closed = true;
      const all = [...entries.values()];
      entries.clear();
      await Promise.allSettled(
        all.map(async (entry) => {
          const model = entry.model;
          entry.model = undefined;
          clearTimeout(entry.timer);
          await (await model)?.close();
        }),
      );
    },
  };
}

/** A Kokoro voice file: 510 rows of a 256-float style vector (row = token count), little-endian float32. */
export async function readKokoroStyles(path: string): Promise<Float32Array> {
  const bytes = await readFile(path);
  const floats = new Float32Array(bytes.byteLength / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < floats.length; i++) floats[i] = view.getFloat32(i * 4, true);
  return floats;
}
