/**
 * A Kokoro-82M v1.0 ONNX model opened for inference. Two exports are accepted: the
 * onnx-community one (`input_ids`, `style`, `speed` → `waveform`; its "timestamped" variant
 * adds `durations`, one per token in frames of 600 samples) and kokoro-onnx's (`tokens`,
 * `style`, `speed` → `audio`). Audio is 24 kHz.
 */

import { AppError } from '../../../shared/errors';
import { ElemType } from './model-proto';
import {
  createSession,
  loadRuntime,
  readModelFile,
  releaseOnce,
  runSession,
  type OnnxModelOptions,
} from './onnx-session';
import { matchSignature } from './signature';
import { audioOf, idsTensor, requireNumber, samplesPerId, type NeuralAudio } from './tensors';

/** Hz of every Kokoro v1.0 model's audio. */
export const KOKORO_SAMPLE_RATE = 24000;
/** Most ids one inference takes, the two 0 pads included. */
export const KOKORO_MAX_IDS = 512;
/** Floats in one style vector (one row of a voice's 510×256 `.bin`). */
export const KOKORO_STYLE_SIZE = 256;
/** Samples per duration frame at 24 kHz. */
export const KOKORO_FRAME_SAMPLES = 600;

const KIND = 'Kokoro';

const KOKORO_SIGNATURE = {
  inputs: {
    ids: { names: ['input_ids', 'tokens'], elemTypes: [ElemType.int64], rank: 2 },
    style: { names: ['style'], elemTypes: [ElemType.float], rank: 2 },
    speed: { names: ['speed'], elemTypes: [ElemType.float], rank: 1 },
  },
  outputs: {
    audio: { names: ['waveform', 'audio'], elemTypes: [ElemType.float] },
    durations: { names: ['durations'], elemTypes: [ElemType.int64, ElemType.float], optional: true },
  },
};

export interface KokoroRunRequest {
  /** Token ids from the model's vocab with a 0 pad at both ends; 3 … KOKORO_MAX_IDS of them. */
  ids: ArrayLike<number>;
  /** The voice's style row for this length (row = ids without the pads), KOKORO_STYLE_SIZE floats. */
  style: Float32Array;
  /** Speaking rate, > 0 (1 = as trained, 2 = twice as fast). */
  speed: number;
}

/** An open Kokoro model. The opener owns it and must close() it (releases the session). */
export interface KokoroModel {
  readonly kind: 'kokoro';
  /** The model file's base name. */
  readonly fileName: string;
  /** run() gives `samplesPerId` (the timestamped export's `durations`). */
  readonly hasDurations: boolean;
  /** The names this export uses: `input_ids`/`waveform` or `tokens`/`audio`. */
  readonly tensorNames: { readonly ids: string; readonly audio: string };
  /**
   * Synthesizes one utterance at KOKORO_SAMPLE_RATE. `samplesPerId` covers every id, pads
   * included. Concurrent calls are allowed.
   * @throws AppError ENGINE_FAILED when onnxruntime fails; INTERNAL for arguments out of range
   * or a closed model
   */
  run(request: KokoroRunRequest): Promise<NeuralAudio>;
  /** Releases the session; later calls do nothing. */
  close(): Promise<void>;
}

/** Reads, checks and opens the model; the file's bytes stay in here (see loadPiper). */
async function loadKokoro(modelPath: string, options: OnnxModelOptions) {
  const file = await readModelFile(KIND, modelPath);
  const { inputs, outputs } = matchSignature(KIND, file, KOKORO_SIGNATURE);
  return {
    fileName: file.fileName,
    session: await createSession(KIND, file, options),
    idsName: inputs.ids!.name,
    audioName: outputs.audio!.name,
    durations: outputs.durations?.name,
  };
}

/**
 * Opens a Kokoro model: reads the file, checks its signature and creates the session.
 * @param modelPath the `.onnx` file
 * @throws AppError VOICE_PACK_INVALID for a missing, unreadable, truncated or foreign file, or
 * a model without Kokoro's inputs and output (the message names the file's base name)
 */
export async function openKokoroModel(
  modelPath: string,
  options: OnnxModelOptions = {},
): Promise<KokoroModel> {
  const { fileName, session, idsName, audioName, durations } = await loadKokoro(modelPath, options);
  const ort = await loadRuntime();
  const release = releaseOnce(session);
  const fetches = durations ? [audioName, durations] : [audioName];

  return {
    kind: 'kokoro',
    fileName,
    hasDurations: durations !== undefined,
    tensorNames: { ids: idsName, audio: audioName },
    async run(request) {
      if (release.closed) throw new AppError('INTERNAL', `Kokoro model "${fileName}" is closed`);
      const count = request.ids.length;
      if (count < 3 || count > KOKORO_MAX_IDS) {
        throw new AppError(
          'INTERNAL',
          `Kokoro takes 3 to ${KOKORO_MAX_IDS} ids (pads included), got ${count}`,
        );
      }
      if (request.style.length !== KOKORO_STYLE_SIZE) {
        throw new AppError(
          'INTERNAL',
          `a style vector has ${KOKORO_STYLE_SIZE} floats, got ${request.style.length}`,
        );
      }
      requireNumber('speed', request.speed, 'positive');
      const feeds = {
        [idsName]: idsTensor(ort, request.ids),
        style: new ort.Tensor('float32', request.style, [1, KOKORO_STYLE_SIZE]),
        speed: new ort.Tensor('float32', Float32Array.of(request.speed), [1]),
      };
      const result = await runSession(session, fileName, feeds, fetches);
      const audio = audioOf(result[audioName], fileName);
      const spans = durations
        ? samplesPerId(result[durations], count, audio.length, KOKORO_FRAME_SAMPLES, KOKORO_FRAME_SAMPLES)
        : undefined;
      return spans ? { audio, samplesPerId: spans } : { audio };
    },
    close: release.close,
  };
}
