import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKokoroModel } from '../../../../electron/core/engine/onnx/kokoro-model';
import { ElemType } from '../../../../electron/core/engine/onnx/model-proto';
import { openPiperModel } from '../../../../electron/core/engine/onnx/piper-model';
import { isAppError } from '../../../../electron/shared/errors';
import { buildKokoroModel, buildPiperModel } from '../../../fixtures/onnx/build-models';
import { GraphBuilder } from '../../../fixtures/onnx/graph-builder';
import { modelDir, type ModelDir } from '../../../fixtures/onnx/model-dir';
import { random } from '../../../fixtures/random';

type Input = [name: string, elemType: number, dims: (number | string)[]];

/** A model with the given inputs whose one output is `opType` (a copy) of the first input. */
function passThrough(inputs: Input[], output = 'output', opType = 'Identity'): Uint8Array {
  const g = new GraphBuilder();
  for (const [name, type, dims] of inputs) g.input(name, type, dims);
  g.node(opType, [inputs[0]![0]], {}, output);
  g.output(output, inputs[0]![1]);
  return g.build({ opset: 15 });
}

const PIPER_INPUTS: Input[] = [
  ['scales', ElemType.float, [3]],
  ['input', ElemType.int64, [1, 'phonemes']],
  ['input_lengths', ElemType.int64, [1]],
];

function randomBytes(length: number, seed: number): Uint8Array {
  const next = random(seed);
  return Uint8Array.from({ length }, () => Math.floor(next() * 256));
}

const piper = buildPiperModel();
const kokoro = buildKokoroModel();
const half = (bytes: Uint8Array) => bytes.subarray(0, Math.floor(bytes.length / 2));

/** Each case: the file's bytes (undefined: no file) and a word the message must hold. */
const CASES: {
  name: string;
  open: typeof openPiperModel | typeof openKokoroModel;
  bytes?: Uint8Array;
  says: RegExp;
}[] = [
  { name: 'random bytes', open: openPiperModel, bytes: randomBytes(4096, 1), says: /valid ONNX/ },
  { name: 'random bytes', open: openKokoroModel, bytes: randomBytes(65536, 2), says: /valid ONNX/ },
  { name: 'an empty file', open: openPiperModel, bytes: new Uint8Array(0), says: /no graph/ },
  {
    name: 'a JSON file',
    open: openPiperModel,
    bytes: new TextEncoder().encode('{"audio": {}}'),
    says: /valid ONNX/,
  },
  { name: 'a Piper model cut in half', open: openPiperModel, bytes: half(piper), says: /truncated/ },
  { name: 'a Kokoro model cut in half', open: openKokoroModel, bytes: half(kokoro), says: /truncated/ },
  {
    name: 'a Piper model with a renamed input',
    open: openPiperModel,
    bytes: buildPiperModel({ renameInput: { from: 'scales', to: 'scale' } }),
    says: /no "scales"/,
  },
  {
    name: 'a Piper model with a misnamed speaker input',
    open: openPiperModel,
    bytes: buildPiperModel({ numSpeakers: 2, renameInput: { from: 'sid', to: 'speaker' } }),
    says: /unexpected input "speaker"/,
  },
  {
    name: 'a Piper model with an extra input',
    open: openPiperModel,
    bytes: passThrough([...PIPER_INPUTS, ['noise', ElemType.float, [1]]]),
    says: /unexpected input "noise"/,
  },
  {
    name: 'a Piper model with an int32 phoneme input',
    open: openPiperModel,
    bytes: passThrough([PIPER_INPUTS[0]!, ['input', ElemType.int32, [1, 'phonemes']], PIPER_INPUTS[2]!]),
    says: /"input" is int32, expected int64/,
  },
  {
    name: 'a Piper model whose output is not "output"',
    open: openPiperModel,
    bytes: passThrough(PIPER_INPUTS, 'audio'),
    says: /no "output"/,
  },
  {
    name: 'a Piper model with an operator onnxruntime does not know',
    open: openPiperModel,
    bytes: passThrough(PIPER_INPUTS, 'output', 'NoSuchOp'),
    says: /onnxruntime refused it/,
  },
  { name: 'a Kokoro model', open: openPiperModel, bytes: kokoro, says: /no "input"/ },
  { name: 'a Piper model', open: openKokoroModel, bytes: piper, says: /no "input_ids" or "tokens"/ },
  {
    name: 'a Kokoro model whose style has one dimension',
    open: openKokoroModel,
    bytes: passThrough(
      [
        ['speed', ElemType.float, [1]],
        ['style', ElemType.float, [256]],
        ['input_ids', ElemType.int64, [1, 'sequence_length']],
      ],
      'waveform',
    ),
    says: /"style" has 1 dimensions, expected 2/,
  },
  { name: 'no file', open: openPiperModel, says: /missing/ },
  { name: 'no file', open: openKokoroModel, says: /missing/ },
];

let dir: ModelDir;
beforeAll(async () => {
  dir = await modelDir();
});
afterAll(() => dir.remove());

describe('a voice model file that cannot be used', () => {
  it.each(CASES.map((c, i) => [`${c.name} (${c.open.name})`, c, i] as const))(
    '%s is VOICE_PACK_INVALID naming the file, not its folder',
    async (_, { open, bytes, says }, i) => {
      const fileName = `voice-${i}.onnx`;
      const path = bytes ? await dir.write(fileName, bytes) : `${dir.path}/${fileName}`;
      const error: unknown = await open(path).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isAppError(error) && error.code).toBe('VOICE_PACK_INVALID');
      const message = (error as Error).message;
      expect(message).toContain(`"${fileName}"`);
      expect(message).not.toContain(dir.path);
      expect(message).toMatch(says);
    },
  );

  it('leaves the process able to open a good model afterwards', async () => {
    await expect(openPiperModel(await dir.write('bad.onnx', randomBytes(1000, 3)))).rejects.toThrow();
    const model = await openPiperModel(await dir.write('good.onnx', piper));
    const { audio } = await model.run({ ids: [1, 0, 2], lengthScale: 1, noiseScale: 0, noiseW: 0 });
    await model.close();
    expect(audio.length).toBeGreaterThan(0);
  });

  it('is a folder, not a file', async () => {
    await expect(openKokoroModel(dir.path)).rejects.toMatchObject({ code: 'VOICE_PACK_INVALID' });
  });
});
