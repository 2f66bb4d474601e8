/**
 * Open neural voice models of one engine, shared by its renders: a model file is read and its
 * session created once, on first use, and kept until the engine closes. Configuration files
 * (a Piper voice's `.onnx.json`, a Kokoro vocabulary and style file) are read per render:
 * they are small, and a pack replaced on disk then takes effect at the next render.
 */

import { readFile } from 'node:fs/promises';
import { openKokoroModel, type KokoroModel } from './kokoro-model';
import type { OnnxModelOptions } from './onnx-session';
import { openPiperModel, type PiperModel } from './piper-model';

export interface NeuralModels {
  piper(modelPath: string): Promise<PiperModel>;
  kokoro(modelPath: string): Promise<KokoroModel>;
  /** Releases every session. */
  close(): Promise<void>;
}

/** `options`: the session settings of every model opened (default: one intra-op thread). */
export function createNeuralModels(options: { intraOpNumThreads?: number | undefined } = {}): NeuralModels {
  const session: OnnxModelOptions =
    options.intraOpNumThreads === undefined ? {} : { intraOpNumThreads: options.intraOpNumThreads };
  const open = new Map<string, Promise<PiperModel | KokoroModel>>();
  const get = <T extends PiperModel | KokoroModel>(key: string, load: () => Promise<T>): Promise<T> => {
    let model = open.get(key) as Promise<T> | undefined;
    if (!model) {
      model = load();
      open.set(key, model);
      // A model that failed to open is not kept: the next render tries again (e.g. after a reinstall).
      model.catch(() => open.delete(key));
    }
    return model;
  };
  return {
    piper: (path) => get(`piper:${path}`, () => openPiperModel(path, session)),
    kokoro: (path) => get(`kokoro:${path}`, () => openKokoroModel(path, session)),
    async close() {
      const models = [...open.values()];
      open.clear();
      await Promise.allSettled(models.map(async (m) => (await m).close()));
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
