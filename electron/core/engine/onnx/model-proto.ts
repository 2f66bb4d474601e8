/**
 * ONNX `ModelProto` files (field numbers from onnx/onnx.proto): what a model takes and gives
 * (graph inputs, outputs, nodes) read without copying its weights, and an in-memory patch
 * that adds an inner tensor as a graph output (how Piper's per-phoneme durations are
 * exposed before the session is created).
 */

import {
  ProtoFormatError,
  WireType,
  bytesField,
  concatBytes,
  encodeVarint,
  fieldText,
  messageField,
  readFields,
  stringField,
  varintField,
  type ProtoField,
} from './proto-wire';

/** Field numbers of the onnx.proto messages used here (and by the test model builder). */
export const OnnxField = {
  model: { irVersion: 1, producerName: 2, graph: 7, opsetImport: 8 },
  opset: { domain: 1, version: 2 },
  graph: { node: 1, name: 2, initializer: 5, input: 11, output: 12, valueInfo: 13 },
  node: { input: 1, output: 2, name: 3, opType: 4, attribute: 5, domain: 7 },
  attribute: { name: 1, f: 2, i: 3, s: 4, t: 5, ints: 8, type: 20 },
  tensor: { dims: 1, dataType: 2, name: 8, rawData: 9 },
  valueInfo: { name: 1, type: 2 },
  type: { tensorType: 1 },
  tensorType: { elemType: 1, shape: 2 },
  shape: { dim: 1 },
  dimension: { value: 1, param: 2 },
} as const;

/** `TensorProto.DataType` values of the element types voice models use. */
export const ElemType = {
  float: 1,
  uint8: 2,
  int8: 3,
  int32: 6,
  int64: 7,
  bool: 9,
  float16: 10,
  double: 11,
} as const;

/** The name of an element type for messages ("float", "int64", or "type 14"). */
export function elemTypeName(elemType: number): string {
  const entry = Object.entries(ElemType).find(([, value]) => value === elemType);
  return entry ? entry[0] : `type ${elemType}`;
}

/** A graph input or output: its element type (0 when not a tensor) and dims (null: no shape). */
export interface TensorInfo {
  readonly name: string;
  readonly elemType: number;
  /** A number for a fixed dim, a string for a symbolic one, null for an unknown one. */
  readonly dims: readonly (number | string | null)[] | null;
}

export interface NodeInfo {
  readonly opType: string;
  /** Empty when the node has no name. */
  readonly name: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
}

export interface ModelInfo {
  readonly irVersion: number;
  /** Version of the default ("" or "ai.onnx") operator set; 0 when absent. */
  readonly opset: number;
  /** Inputs the caller feeds: graph inputs that are not also initializers (old IR lists both). */
  readonly inputs: readonly TensorInfo[];
  readonly outputs: readonly TensorInfo[];
  /** Nodes of the main graph (not of subgraphs inside If/Loop attributes), in file order. */
  readonly nodes: readonly NodeInfo[];
}

/** Bytes that are not an ONNX model this reader understands; the message says where and why. */
export class OnnxFormatError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OnnxFormatError';
  }
}

/** Runs a reader, turning wire-format errors into OnnxFormatError. */
function guarded<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ProtoFormatError) {
      throw new OnnxFormatError(`not a valid ONNX model: ${error.message}`, { cause: error });
    }
    throw error;
  }
}

function subFields(bytes: Uint8Array, field: ProtoField, what: string): Generator<ProtoField> {
  if (field.wireType !== WireType.lengthDelimited) {
    throw new ProtoFormatError(`${what} at byte ${field.tagStart} is not a message`);
  }
  return readFields(bytes, field.start, field.end, what);
}

function readDims(bytes: Uint8Array, shape: ProtoField): (number | string | null)[] {
  const dims: (number | string | null)[] = [];
  for (const dim of subFields(bytes, shape, 'TensorShapeProto')) {
    if (dim.field !== OnnxField.shape.dim) continue;
    let value: number | string | null = null;
    for (const part of subFields(bytes, dim, 'Dimension')) {
      if (part.field === OnnxField.dimension.value && part.wireType === WireType.varint) value = part.value;
      else if (part.field === OnnxField.dimension.param) value = fieldText(bytes, part);
    }
    dims.push(value);
  }
  return dims;
}

function readValueInfo(bytes: Uint8Array, info: ProtoField): TensorInfo {
  let name = '';
  let elemType = 0;
  let dims: (number | string | null)[] | null = null;
  for (const field of subFields(bytes, info, 'ValueInfoProto')) {
    if (field.field === OnnxField.valueInfo.name) name = fieldText(bytes, field);
    if (field.field !== OnnxField.valueInfo.type) continue;
    for (const typeField of subFields(bytes, field, 'TypeProto')) {
      if (typeField.field !== OnnxField.type.tensorType) continue;
      for (const tensorField of subFields(bytes, typeField, 'TypeProto.Tensor')) {
        if (tensorField.field === OnnxField.tensorType.elemType) elemType = tensorField.value;
        if (tensorField.field === OnnxField.tensorType.shape) dims = readDims(bytes, tensorField);
      }
    }
  }
  return { name, elemType, dims };
}

function readNode(bytes: Uint8Array, node: ProtoField): NodeInfo {
  let opType = '';
  let name = '';
  const inputs: string[] = [];
  const outputs: string[] = [];
  for (const field of subFields(bytes, node, 'NodeProto')) {
    if (field.field === OnnxField.node.opType) opType = fieldText(bytes, field);
    else if (field.field === OnnxField.node.name) name = fieldText(bytes, field);
    else if (field.field === OnnxField.node.input) inputs.push(fieldText(bytes, field));
    else if (field.field === OnnxField.node.output) outputs.push(fieldText(bytes, field));
  }
  return { opType, name, inputs, outputs };
}

function initializerName(bytes: Uint8Array, tensor: ProtoField): string {
  for (const field of subFields(bytes, tensor, 'TensorProto')) {
    if (field.field === OnnxField.tensor.name) return fieldText(bytes, field);
  }
  return '';
}

/** The ModelProto's graph fields (normally one; protobuf merges repeats) and its fields in order. */
function modelFields(bytes: Uint8Array): { graphs: ProtoField[]; irVersion: number; opset: number } {
  const graphs: ProtoField[] = [];
  let irVersion = 0;
  let opset = 0;
  for (const field of readFields(bytes, 0, bytes.length, 'ModelProto')) {
    if (field.field === OnnxField.model.graph) {
      if (field.wireType !== WireType.lengthDelimited)
        throw new ProtoFormatError('ModelProto.graph is not a message');
      graphs.push(field);
    } else if (field.field === OnnxField.model.irVersion && field.wireType === WireType.varint) {
      irVersion = field.value;
    } else if (field.field === OnnxField.model.opsetImport) {
      let domain = '';
      let version = 0;
      for (const part of subFields(bytes, field, 'OperatorSetIdProto')) {
        if (part.field === OnnxField.opset.domain) domain = fieldText(bytes, part);
        if (part.field === OnnxField.opset.version) version = part.value;
      }
      if (domain === '' || domain === 'ai.onnx') opset = version;
    }
  }
  if (graphs.length === 0) throw new OnnxFormatError('not a valid ONNX model: it has no graph');
  return { graphs, irVersion, opset };
}

/**
 * What the model takes and gives. Reads the protobuf structure only: initializer payloads
 * (the weights) are skipped by their length prefix, never copied or decoded.
 * @throws OnnxFormatError for truncated or garbage bytes, or bytes without a graph
 */
export function inspectModel(bytes: Uint8Array): ModelInfo {
  return guarded(() => {
    const { graphs, irVersion, opset } = modelFields(bytes);
    const graphInputs: TensorInfo[] = [];
    const outputs: TensorInfo[] = [];
    const nodes: NodeInfo[] = [];
    const initializers = new Set<string>();
    for (const graph of graphs) {
      for (const field of readFields(bytes, graph.start, graph.end, 'GraphProto')) {
        if (field.field === OnnxField.graph.node) nodes.push(readNode(bytes, field));
        else if (field.field === OnnxField.graph.input) graphInputs.push(readValueInfo(bytes, field));
        else if (field.field === OnnxField.graph.output) outputs.push(readValueInfo(bytes, field));
        else if (field.field === OnnxField.graph.initializer) initializers.add(initializerName(bytes, field));
      }
    }
    const inputs = graphInputs.filter((input) => !initializers.has(input.name));
    return { irVersion, opset, inputs, outputs, nodes };
  });
}

/**
 * An encoded `ValueInfoProto` for a tensor: name, element type and, when `dims` is given, its
 * shape (a number for a fixed dim, a string for a symbolic one).
 */
export function encodeValueInfo(
  name: string,
  elemType: number,
  dims?: readonly (number | string)[],
): Uint8Array {
  const tensorType = [varintField(OnnxField.tensorType.elemType, elemType)];
  if (dims) {
    const dimFields = dims.map((dim) =>
      messageField(OnnxField.shape.dim, [
        typeof dim === 'number'
          ? varintField(OnnxField.dimension.value, dim)
          : stringField(OnnxField.dimension.param, dim),
      ]),
    );
    tensorType.push(messageField(OnnxField.tensorType.shape, dimFields));
  }
  return concatBytes([
    stringField(OnnxField.valueInfo.name, name),
    messageField(OnnxField.valueInfo.type, [messageField(OnnxField.type.tensorType, tensorType)]),
  ]);
}

/**
 * New model bytes with the inner tensor `tensorName` (the output of some node of the main
 * graph) added as the last graph output, typed `elemType` with no shape. Only the graph's
 * length prefix changes; every other byte is copied as is (one copy of the model). Returns
 * `bytes` itself when the tensor already is a graph output.
 * @throws OnnxFormatError when the bytes are not a model or no node outputs `tensorName`
 */
export function exposeNodeOutput(bytes: Uint8Array, tensorName: string, elemType: number): Uint8Array {
  return guarded(() => {
    const info = inspectModel(bytes);
    if (info.outputs.some((output) => output.name === tensorName)) return bytes;
    if (!info.nodes.some((node) => node.outputs.includes(tensorName))) {
      throw new OnnxFormatError(`no node of the graph outputs "${tensorName}"`);
    }
    const graph = modelFields(bytes).graphs.at(-1)!;
    const output = bytesField(OnnxField.graph.output, encodeValueInfo(tensorName, elemType));
    return concatBytes([
      bytes.subarray(0, graph.tagStart),
      encodeVarint(OnnxField.model.graph * 8 + WireType.lengthDelimited),
      encodeVarint(graph.end - graph.start + output.length),
      bytes.subarray(graph.start, graph.end),
      output,
      bytes.subarray(graph.end),
    ]);
  });
}
