/**
 * A Piper voice model (`<name>.onnx` of rhasspy/piper-voices, laid out by piper's
 * export_onnx.py, opset 15) opened for inference, with per-phoneme durations when the graph
 * lets us expose them (its one `Ceil` node: frames per id, × 256 samples).
 */

import type { Tensor } from 'onnxruntime-node';
import { AppError } from '../../../shared/errors';
import { ElemType, exposeNodeOutput, type ModelInfo } from './model-proto';
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

/** Samples per decoder frame of every Piper voice (its hop length). */
export const PIPER_HOP_SAMPLES = 256;

const KIND = 'Piper';

export interface PiperRunRequest {
  /** Phoneme ids from the voice's `phoneme_id_map`: `^`, `_`, each phoneme then `_`, `$`. */
  ids: ArrayLike<number>;
  /** Duration factor, > 0 (`inference.length_scale`, 1 = as trained, 2 = twice as long). */
  lengthScale: number;
  /** Voice variation, ≥ 0 (`inference.noise_scale`, typically 0.667). */
  noiseScale: number;
  /** Duration variation, ≥ 0 (`inference.noise_w`, typically 0.8). */
  noiseW: number;
  /** 0 … num_speakers − 1 for a multi-speaker model (default 0); ignored otherwise. */
  speakerId?: number;
}

/** One Piper run's audio, with the durations before rounding when the graph gives them. */
export interface PiperAudio extends NeuralAudio {
  /**
   * Frames per id before the Ceil node rounded them up (its input: `w`, length_scale
   * applied), one per id. Present only with `samplesPerId`.
   */
  unroundedFrames?: Float32Array;
}

/** An open Piper model. The opener owns it and must close() it (releases the session). */
export interface PiperModel {
  readonly kind: 'piper';
  /** The model file's base name. */
  readonly fileName: string;
  /** The graph takes a speaker id (`sid`). */
  readonly multiSpeaker: boolean;
  /** run() gives `samplesPerId` (from the graph's one Ceil node); false: none or ambiguous. */
  readonly hasDurations: boolean;
  /**
   * Synthesizes one utterance. Audio at the voice's `audio.sample_rate` (from its .onnx.json);
   * `samplesPerId` are whole frames of PIPER_HOP_SAMPLES. Concurrent calls are allowed.
   * @throws AppError ENGINE_FAILED when onnxruntime fails; INTERNAL for arguments out of range
   * or a closed model
   */
  run(request: PiperRunRequest): Promise<PiperAudio>;
  /** Releases the session; later calls do nothing. */
  close(): Promise<void>;
}

/** piper's export_onnx.py: `sid` only in multi-speaker models. */
const PIPER_SIGNATURE = {
  inputs: {
    input: { names: ['input'], elemTypes: [ElemType.int64], rank: 2 },
    inputLengths: { names: ['input_lengths'], elemTypes: [ElemType.int64], rank: 1 },
    scales: { names: ['scales'], elemTypes: [ElemType.float], rank: 1 },
    sid: { names: ['sid'], elemTypes: [ElemType.int64], rank: 1, optional: true },
  },
  outputs: { output: { names: ['output'], elemTypes: [ElemType.float] } },
};

/**
 * The output of the graph's only Ceil node (w_ceil, frames per id), if there is exactly one,
 * and its input (w, the frames before rounding) when a node computes it.
 */
function durationsTensor(info: ModelInfo): { rounded: string; unrounded?: string } | undefined {
  const ceils = info.nodes.filter((node) => node.opType === 'Ceil');
  if (ceils.length !== 1 || ceils[0]!.outputs.length !== 1) return undefined;
  const [rounded] = ceils[0]!.outputs as [string];
  const unrounded = ceils[0]!.inputs[0];
  return unrounded && info.nodes.some((node) => node.outputs.includes(unrounded))
    ? { rounded, unrounded }
    : { rounded };
}

/**
 * Reads, checks and opens the model; the session has the durations exposed as a second
 * output when the graph allows it. The file's bytes stay in here: an open model must not
 * keep hundreds of MB alive once onnxruntime holds its own copy.
 */
async function loadPiper(modelPath: string, options: OnnxModelOptions) {
  const file = await readModelFile(KIND, modelPath);
  const multiSpeaker = matchSignature(KIND, file, PIPER_SIGNATURE).inputs.sid !== undefined;
  const durations = durationsTensor(file.info);
  const { fileName } = file;
  if (durations) {
    const rounded = exposeNodeOutput(file.bytes, durations.rounded, ElemType.float);
    // A graph that refuses an extra output still runs without it: both, the rounded only, none.
    const tries = durations.unrounded
      ? [{ durations, bytes: exposeNodeOutput(rounded, durations.unrounded, ElemType.float) }]
      : [];
    tries.push({ durations: { rounded: durations.rounded }, bytes: rounded });
    for (const attempt of tries) {
      const session = await createSession(KIND, { fileName, bytes: attempt.bytes }, options).catch(
        () => undefined,
      );
      if (session) return { fileName, multiSpeaker, session, durations: attempt.durations };
    }
  }
  return { fileName, multiSpeaker, session: await createSession(KIND, file, options), durations: undefined };
}

function checkRequest(request: PiperRunRequest): void {
  if (request.ids.length === 0) throw new AppError('INTERNAL', 'no phoneme ids to synthesize');
  requireNumber('lengthScale', request.lengthScale, 'positive');
  requireNumber('noiseScale', request.noiseScale, 'non-negative');
  requireNumber('noiseW', request.noiseW, 'non-negative');
  const speaker = request.speakerId ?? 0;
  if (!Number.isInteger(speaker) || speaker < 0) {
    throw new AppError('INTERNAL', `invalid speaker id: ${speaker}`);
  }
}

/**
 * Opens a Piper model: reads the file, checks its signature, exposes the durations in memory
 * (when the graph has exactly one Ceil node) and creates the onnxruntime session.
 * @param modelPath the `.onnx` file (its `.onnx.json` is the caller's)
 * @throws AppError VOICE_PACK_INVALID for a missing, unreadable, truncated or foreign file, or
 * a model without Piper's inputs and output (the message names the file's base name)
 */
export async function openPiperModel(modelPath: string, options: OnnxModelOptions = {}): Promise<PiperModel> {
  const { fileName, multiSpeaker, session, durations } = await loadPiper(modelPath, options);
  const ort = await loadRuntime();
  const release = releaseOnce(session);
  const fetches = durations ? ['output', ...Object.values(durations)] : ['output'];

  return {
    kind: 'piper',
    fileName,
    multiSpeaker,
    hasDurations: durations !== undefined,
    async run(request) {
      if (release.closed) throw new AppError('INTERNAL', `Piper model "${fileName}" is closed`);
      checkRequest(request);
      const int64 = (value: number) => new ort.Tensor('int64', BigInt64Array.of(BigInt(value)), [1]);
      const feeds: Record<string, Tensor> = {
        input: idsTensor(ort, request.ids),
        input_lengths: int64(request.ids.length),
        scales: new ort.Tensor(
          'float32',
          Float32Array.of(request.noiseScale, request.lengthScale, request.noiseW),
          [3],
        ),
      };
      if (multiSpeaker) feeds.sid = int64(request.speakerId ?? 0);
      const outputs = await runSession(session, fileName, feeds, fetches);
      const audio = audioOf(outputs.output, fileName);
      const spans = durations
        ? samplesPerId(outputs[durations.rounded], request.ids.length, audio.length, PIPER_HOP_SAMPLES, 0)
        : undefined;
      if (!spans) return { audio };
      const unrounded = durations?.unrounded ? outputs[durations.unrounded]?.data : undefined;
      return unrounded instanceof Float32Array && unrounded.length === request.ids.length
        ? { audio, samplesPerId: spans, unroundedFrames: unrounded }
        : { audio, samplesPerId: spans };
    },
    close: release.close,
  };
}
