import { InferenceSession } from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import {
  ElemType,
  OnnxFormatError,
  exposeNodeOutput,
  inspectModel,
} from '../../../../electron/core/engine/onnx/model-proto';
import {
  encodeVarint,
  readFields,
  readVarint,
  varintField,
} from '../../../../electron/core/engine/onnx/proto-wire';
import { buildKokoroModel, buildPiperModel } from '../../../fixtures/onnx/build-models';
import { GraphBuilder } from '../../../fixtures/onnx/graph-builder';

describe('the protobuf wire format', () => {
  it('round-trips varints up to 2^53 and reads an int64 −1 as −1', () => {
    for (const value of [0, 1, 127, 128, 300, 2 ** 31, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER]) {
      const bytes = encodeVarint(value);
      expect(readVarint(bytes, 0)).toEqual([value, bytes.length]);
    }
    const minusOne = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
    expect(readVarint(minusOne, 0)).toEqual([-1, 10]);
  });

  it('refuses a varint or a field that runs past the end', () => {
    expect(() => readVarint(Uint8Array.of(0x80, 0x80), 0)).toThrow(/truncated varint/);
    const field = varintField(3, 1000);
    expect(() => [...readFields(field.subarray(0, field.length - 1))]).toThrow(/truncated/);
  });
});

describe('inspectModel', () => {
  it("reads a Piper model's inputs, outputs, dims and its Ceil node", () => {
    const info = inspectModel(buildPiperModel({ numSpeakers: 2 }));
    expect(info).toMatchObject({ irVersion: 8, opset: 15 });
    expect(info.inputs).toEqual([
      { name: 'input', elemType: ElemType.int64, dims: [1, 'phonemes'] },
      { name: 'input_lengths', elemType: ElemType.int64, dims: [1] },
      { name: 'scales', elemType: ElemType.float, dims: [3] },
      { name: 'sid', elemType: ElemType.int64, dims: [1] },
    ]);
    expect(info.outputs).toEqual([{ name: 'output', elemType: ElemType.float, dims: [1, 1, 1, 'time'] }]);
    const ceils = info.nodes.filter((node) => node.opType === 'Ceil');
    expect(ceils).toHaveLength(1);
    expect(ceils[0]!.outputs).toEqual(['/Ceil_output_0']);
  });

  it("reads a Kokoro model's optional durations output", () => {
    expect(inspectModel(buildKokoroModel({ naming: 'tokens', withDurations: true })).outputs).toEqual([
      { name: 'audio', elemType: ElemType.float, dims: ['num_samples'] },
      { name: 'durations', elemType: ElemType.int64, dims: ['sequence_length'] },
    ]);
  });

  it('skips the weights by their length: 400 kB of float bits are never decoded as fields', () => {
    const g = new GraphBuilder();
    g.input('x', ElemType.float, [4]);
    const weights = g.floats(Array.from({ length: 100_000 }, (_, i) => Math.sin(i) * 1e30));
    g.node('Add', ['x', weights], {}, 'y');
    g.output('y', ElemType.float);
    const info = inspectModel(g.build({ opset: 15 }));
    expect(info.inputs.map((input) => input.name)).toEqual(['x']);
    expect(info.nodes.map((node) => node.opType)).toEqual(['Add']);
  });

  it('leaves out graph inputs that are initializers (old IR lists weights as inputs)', () => {
    const g = new GraphBuilder();
    g.input('x', ElemType.float, [1]);
    const weight = g.floats([2], [1]);
    g.input(weight, ElemType.float, [1]);
    g.node('Mul', ['x', weight], {}, 'y');
    g.output('y', ElemType.float);
    expect(inspectModel(g.build({ opset: 15, irVersion: 3 })).inputs.map((input) => input.name)).toEqual([
      'x',
    ]);
  });

  it('refuses garbage, truncated and empty bytes with OnnxFormatError', () => {
    const model = buildPiperModel();
    for (const bytes of [
      model.subarray(0, model.length - 10),
      Uint8Array.of(0xff, 0xff, 0xff),
      new Uint8Array(0),
    ]) {
      expect(() => inspectModel(bytes)).toThrow(OnnxFormatError);
    }
  });
});

describe('exposeNodeOutput', () => {
  it('adds the Ceil output as a graph output that onnxruntime then returns', async () => {
    const model = buildPiperModel();
    const patched = exposeNodeOutput(model, '/Ceil_output_0', ElemType.float);
    expect(inspectModel(patched).outputs).toEqual([
      { name: 'output', elemType: ElemType.float, dims: [1, 1, 1, 'time'] },
      { name: '/Ceil_output_0', elemType: ElemType.float, dims: null },
    ]);
    expect(inspectModel(model).outputs).toHaveLength(1);
    const session = await InferenceSession.create(patched);
    expect(session.outputNames).toEqual(['output', '/Ceil_output_0']);
    await session.release();
  });

  it('changes only the graph length prefix and appends the output', () => {
    const model = buildPiperModel();
    const patched = exposeNodeOutput(model, '/Ceil_output_0', ElemType.float);
    const graph = [...readFields(model)].find((field) => field.field === 7)!;
    expect(patched.subarray(0, graph.tagStart)).toEqual(model.subarray(0, graph.tagStart));
    const growth = patched.length - model.length;
    expect(patched.subarray(patched.length - (model.length - graph.end))).toEqual(model.subarray(graph.end));
    expect(growth).toBeLessThan(40);
  });

  it('returns the same bytes when the tensor already is an output, and refuses an unknown tensor', () => {
    const model = buildKokoroModel({ withDurations: true });
    expect(exposeNodeOutput(model, 'durations', ElemType.int64)).toBe(model);
    expect(() => exposeNodeOutput(model, 'no_such_tensor', ElemType.float)).toThrow(
      /no node of the graph outputs/,
    );
  });
});
