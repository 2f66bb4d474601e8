/**
 * What goes into and comes out of a voice model's run: id tensors, argument checks, the
 * audio, and durations turned into samples per id.
 */

import type { Tensor } from 'onnxruntime-node';
import { AppError } from '../../../shared/errors';
import type { Runtime } from './onnx-session';

/** One inference's audio. */
export interface NeuralAudio {
  /** Mono samples, nominally in [−1, 1], at the voice's sample rate. The caller owns them. */
  audio: Float32Array;
  /**
   * Samples each input id lasted, one per id in input order, summing to exactly
   * `audio.length`. Absent when the model gives no durations, or when the ones it gave did
   * not fit the audio (then the caller places words by phoneme count, as without durations).
   */
  samplesPerId?: Int32Array;
}

/** An int64 tensor [1, N] of token or phoneme ids. */
export function idsTensor(ort: Runtime, ids: ArrayLike<number>): Tensor {
  const data = new BigInt64Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (!Number.isInteger(id) || id < 0) throw new AppError('INTERNAL', `invalid model input id: ${id}`);
    data[i] = BigInt(id);
  }
  return new ort.Tensor('int64', data, [1, ids.length]);
}

/** Throws INTERNAL unless `value` is finite and > 0 or ≥ 0 (a caller's contract, not user input). */
export function requireNumber(name: string, value: number, range: 'positive' | 'non-negative'): void {
  const ok = Number.isFinite(value) && (range === 'positive' ? value > 0 : value >= 0);
  if (!ok) {
    throw new AppError('INTERNAL', `${name} must be ${range === 'positive' ? '> 0' : '≥ 0'}, got ${value}`);
  }
}

/** The values of a numeric output tensor as plain numbers (int64 included). */
function numbersOf(tensor: Tensor): number[] {
  const data = tensor.data;
  if (data instanceof BigInt64Array) return Array.from(data, Number);
  if (data instanceof Float32Array || data instanceof Int32Array) return Array.from(data);
  return [];
}

/**
 * Durations in frames → samples per id, when they fit: one per id, and Σ × samplesPerFrame
 * within `tolerance` samples of the audio; the last id's span then takes the difference so
 * the spans cover the audio exactly. Undefined when they do not fit.
 */
export function samplesPerId(
  frames: Tensor | undefined,
  idCount: number,
  audioLength: number,
  samplesPerFrame: number,
  tolerance: number,
): Int32Array | undefined {
  if (!frames) return undefined;
  const values = numbersOf(frames);
  if (values.length !== idCount || idCount === 0) return undefined;
  const samples = Int32Array.from(values, (value) => Math.round(value) * samplesPerFrame);
  let total = 0;
  for (const count of samples) total += count;
  const difference = audioLength - total;
  if (Math.abs(difference) > tolerance || samples[idCount - 1]! + difference < 0) return undefined;
  samples[idCount - 1]! += difference;
  return samples;
}

/** The samples of the audio output, in a buffer of their own (transferable to another thread). */
export function audioOf(tensor: Tensor | undefined, fileName: string): Float32Array {
  const data = tensor?.data;
  if (!(data instanceof Float32Array)) {
    throw new AppError('ENGINE_FAILED', `"${fileName}" gave no float32 audio`);
  }
  return data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data : data.slice();
}
