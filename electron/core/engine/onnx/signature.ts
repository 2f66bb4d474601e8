/**
 * A voice model's signature checked against what its kind needs: input and output names,
 * element types and ranks, read from the file before any session exists.
 */

import type { AppError } from '../../../shared/errors';
import { elemTypeName, type TensorInfo } from './model-proto';
import { invalidModel, type ModelFile } from './onnx-session';

/** What one model input or output must be: one of `names`, one of `elemTypes`, `rank` dims. */
export interface TensorSpec {
  readonly names: readonly string[];
  readonly elemTypes: readonly number[];
  /** Checked only when the model declares a shape. */
  readonly rank?: number;
  /** The model may lack it (then it is undefined in the result). */
  readonly optional?: boolean;
}

/** The model's tensor matching `spec`, undefined when optional and absent, or why none fits. */
function findTensor(tensors: readonly TensorInfo[], spec: TensorSpec): TensorInfo | undefined | string {
  const found = tensors.find((tensor) => spec.names.includes(tensor.name));
  if (!found) {
    return spec.optional ? undefined : `it has no ${spec.names.map((name) => `"${name}"`).join(' or ')}`;
  }
  if (!spec.elemTypes.includes(found.elemType)) {
    const types = spec.elemTypes.map(elemTypeName).join(' or ');
    return `"${found.name}" is ${elemTypeName(found.elemType)}, expected ${types}`;
  }
  if (spec.rank !== undefined && found.dims && found.dims.length !== spec.rank) {
    return `"${found.name}" has ${found.dims.length} dimensions, expected ${spec.rank}`;
  }
  return found;
}

function findAll<K extends string>(
  tensors: readonly TensorInfo[],
  specs: Record<K, TensorSpec>,
  refuse: (why: string) => AppError,
): Record<K, TensorInfo | undefined> {
  const found = {} as Record<K, TensorInfo | undefined>;
  for (const key of Object.keys(specs) as K[]) {
    const match = findTensor(tensors, specs[key]);
    if (typeof match === 'string') throw refuse(match);
    found[key] = match;
  }
  return found;
}

/**
 * The model's inputs and outputs matched to the specs. Every input must match a spec (an
 * extra input is refused: it would have to be fed); outputs beyond the specs are ignored.
 * @throws AppError VOICE_PACK_INVALID saying what does not fit
 */
export function matchSignature<I extends string, O extends string>(
  kind: string,
  file: ModelFile,
  specs: { inputs: Record<I, TensorSpec>; outputs: Record<O, TensorSpec> },
): { inputs: Record<I, TensorInfo | undefined>; outputs: Record<O, TensorInfo | undefined> } {
  const refuse = (why: string) => invalidModel(kind, file.fileName, why);
  const inputs = findAll(file.info.inputs, specs.inputs, refuse);
  const outputs = findAll(file.info.outputs, specs.outputs, refuse);
  const matched = new Set(Object.values<TensorInfo | undefined>(inputs));
  const extra = file.info.inputs.filter((input) => !matched.has(input)).map((input) => `"${input.name}"`);
  if (extra.length > 0) throw refuse(`unexpected input ${extra.join(', ')}`);
  return { inputs, outputs };
}
