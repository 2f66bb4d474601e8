/**
 * A compute stand-in for a Piper "medium" voice (VITS, 22,050 Hz), random weights: Piper's
 * graph signature (`input`, `input_lengths`, `scales` → `output` [1,1,1,T], durations through
 * one Ceil node) so it runs through openPiperModel and the whole pipeline, with the layers
 * that cost the time at Piper medium's sizes: a text encoder (6 layers, hidden 192, filter
 * 768), durations, a flow of 4 coupling layers of WaveNet-style 1D convs (hidden 192, kernel
 * 5, 4 layers each), and a HiFi-GAN decoder to the 256-sample hop in either of Piper's
 * sizes (PIPER_DECODERS). Simplified where it costs
 * little: one attention head, no masks, no stochastic duration predictor (each id gets
 * 1 frame for the pad `_`, else 4–8 frames, × length_scale, then Ceil).
 */

import { ElemType } from '../electron/core/engine/onnx/model-proto';
import { GraphBuilder } from '../test/fixtures/onnx/graph-builder';

const HIDDEN = 192;
const FILTER = 768;

/** A HiFi-GAN decoder's sizes. */
export interface DecoderSizes {
  initialChannels: number;
  upsamples: ReadonlyArray<{ rate: number; kernel: number }>;
  /** One residual block per kernel, each with these dilations. */
  resblocks: ReadonlyArray<{ kernel: number; dilations: readonly number[] }>;
  /** "1": two convs per dilation (HiFi-GAN V1); "2": one (V3). */
  resblock: '1' | '2';
}

/**
 * Piper's decoders. piper_train's defaults (`--quality medium` and low): ResBlock2, kernels
 * 3, 5, 7 with dilations (1, 2), (2, 6), (3, 12), upsampling 8×8×4 from 256 channels;
 * `--quality high` switches to HiFi-GAN V1's: ResBlock1, kernels 3, 7, 11 with dilations
 * 1, 3, 5, upsampling 8×8×2×2 from 512 channels.
 */
export const PIPER_DECODERS = {
  'medium (piper_train defaults)': {
    initialChannels: 256,
    upsamples: [
      { rate: 8, kernel: 16 },
      { rate: 8, kernel: 16 },
      { rate: 4, kernel: 8 },
    ],
    resblocks: [
      { kernel: 3, dilations: [1, 2] },
      { kernel: 5, dilations: [2, 6] },
      { kernel: 7, dilations: [3, 12] },
    ],
    resblock: '2',
  },
  'HiFi-GAN V1 (512 ch, 8×8×2×2; piper high)': {
    initialChannels: 512,
    upsamples: [
      { rate: 8, kernel: 16 },
      { rate: 8, kernel: 16 },
      { rate: 2, kernel: 4 },
      { rate: 2, kernel: 4 },
    ],
    resblocks: [3, 7, 11].map((kernel) => ({ kernel, dilations: [1, 3, 5] })),
    resblock: '1',
  },
} satisfies Record<string, DecoderSizes>;

/** Seeded uniform weights scaled by 1/√fan-in (a small LCG: fast for ~16 M values). */
function randomWeights(count: number, fanIn: number, seed: { value: number }): Float32Array {
  const data = new Float32Array(count);
  const scale = 0.9 / Math.sqrt(fanIn);
  let s = seed.value >>> 0;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    data[i] = (s / 2 ** 32 - 0.5) * 2 * scale;
  }
  seed.value = s;
  return data;
}

export interface StandIn {
  bytes: Uint8Array;
  parameters: number;
}

export function buildPiperStandIn(decoder: DecoderSizes): StandIn {
  const g = new GraphBuilder();
  const seed = { value: 12345 };
  let parameters = 0;
  const weight = (dims: number[], fanIn: number) => {
    const count = dims.reduce((a, b) => a * b, 1);
    parameters += count;
    return g.weights(randomWeights(count, fanIn, seed), dims);
  };
  const zeros = (n: number) => {
    parameters += n;
    return g.weights(new Float32Array(n), [n]);
  };
  const conv = (x: string, cin: number, cout: number, kernel: number, dilation = 1) =>
    g.node('Conv', [x, weight([cout, cin, kernel], cin * kernel), zeros(cout)], {
      kernel_shape: [kernel],
      dilations: [dilation],
      pads: [(dilation * (kernel - 1)) / 2, (dilation * (kernel - 1)) / 2],
    });
  const slice = (x: string, from: number, to: number) =>
    g.node('Slice', [x, g.int64s([from]), g.int64s([to]), g.int64s([1])]);

  const input = g.input('input', ElemType.int64, [1, 'phonemes']);
  g.input('input_lengths', ElemType.int64, [1]);
  const scales = g.input('scales', ElemType.float, [3]);
  const ids = g.node('Reshape', [input, g.int64s([-1])]);

  // Text encoder: embedding, 6 × (single-head attention + feed-forward), residuals. [N, 192]
  let x = g.node('Gather', [weight([256, HIDDEN], HIDDEN), ids], { axis: 0 });
  for (let layer = 0; layer < 6; layer++) {
    const q = g.node('MatMul', [x, weight([HIDDEN, HIDDEN], HIDDEN)]);
    const k = g.node('MatMul', [x, weight([HIDDEN, HIDDEN], HIDDEN)]);
    const v = g.node('MatMul', [x, weight([HIDDEN, HIDDEN], HIDDEN)]);
    const scores = g.node('Mul', [
      g.node('MatMul', [q, g.node('Transpose', [k], { perm: [1, 0] })]),
      g.floats([1 / Math.sqrt(HIDDEN)], []),
    ]);
    const attended = g.node('MatMul', [g.node('Softmax', [scores], { axis: 1 }), v]);
    x = g.node('Add', [x, g.node('MatMul', [attended, weight([HIDDEN, HIDDEN], HIDDEN)])]);
    const inner = g.node('Relu', [g.node('MatMul', [x, weight([HIDDEN, FILTER], HIDDEN)])]);
    x = g.node('Add', [x, g.node('MatMul', [inner, weight([FILTER, HIDDEN], FILTER)])]);
  }

  // Durations: 1 frame for the pad (id 0), else 4 + id mod 5, × length_scale, through one Ceil.
  const units = g.node('Where', [
    g.node('Equal', [ids, g.int64s([0], [])]),
    g.floats([1], []),
    g.node('Add', [
      g.node('Cast', [g.node('Mod', [ids, g.int64s([5], [])])], { to: ElemType.float }),
      g.floats([4], []),
    ]),
  ]);
  const lengthScale = g.node('Gather', [scales, g.int64s([1], [])], { axis: 0 });
  const w = g.node('Reshape', [g.node('Mul', [units, lengthScale]), g.int64s([1, 1, -1])]);
  const frames = g.node('Cast', [g.node('Reshape', [g.node('Ceil', [w]), g.int64s([-1])])], {
    to: ElemType.int64,
  });

  // Length regulator: frame t takes the features of the id whose span holds it. [1, 192, T]
  const ends = g.node('CumSum', [frames, g.int64s([0], [])]);
  const total = g.node('ReduceSum', [frames], { keepdims: 0 });
  const time = g.node('Range', [g.int64s([0], []), total, g.int64s([1], [])]);
  const passed = g.node('Cast', [g.node('LessOrEqual', [ends, g.node('Unsqueeze', [time, g.int64s([1])])])], {
    to: ElemType.int64,
  });
  const index = g.node('ReduceSum', [passed, g.int64s([1])], { keepdims: 0 });
  let z = g.node('Unsqueeze', [
    g.node('Transpose', [g.node('Gather', [x, index], { axis: 0 })], { perm: [1, 0] }),
    g.int64s([0]),
  ]);

  // Flow: 4 affine-free coupling layers, each a WaveNet of 4 gated dilated convs (kernel 5).
  const half = HIDDEN / 2;
  for (let flow = 0; flow < 4; flow++) {
    const x0 = slice(z, 0, half);
    const x1 = slice(z, half, HIDDEN);
    let h = conv(x0, half, HIDDEN, 1);
    let skip: string | undefined;
    for (let layer = 0; layer < 4; layer++) {
      const a = conv(h, HIDDEN, 2 * HIDDEN, 5);
      const gated = g.node('Mul', [
        g.node('Tanh', [slice(a, 0, HIDDEN)]),
        g.node('Sigmoid', [slice(a, HIDDEN, 2 * HIDDEN)]),
      ]);
      const rs = conv(gated, HIDDEN, 2 * HIDDEN, 1);
      h = g.node('Add', [h, slice(rs, 0, HIDDEN)]);
      skip = skip ? g.node('Add', [skip, slice(rs, HIDDEN, 2 * HIDDEN)]) : slice(rs, HIDDEN, 2 * HIDDEN);
    }
    const shifted = g.node('Add', [x1, conv(skip!, HIDDEN, half, 1)]);
    z = g.node('Concat', [shifted, x0], { axis: 1 });
  }

  // HiFi-GAN decoder.
  const leaky = (t: string) => g.node('LeakyRelu', [t]);
  let y = conv(z, HIDDEN, decoder.initialChannels, 7);
  let channels = decoder.initialChannels;
  for (const { rate, kernel } of decoder.upsamples) {
    const out = channels / 2;
    y = g.node('ConvTranspose', [leaky(y), weight([channels, out, kernel], channels * kernel), zeros(out)], {
      kernel_shape: [kernel],
      strides: [rate],
      pads: [(kernel - rate) / 2, (kernel - rate) / 2],
    });
    channels = out;
    let sum: string | undefined;
    for (const { kernel: k, dilations } of decoder.resblocks) {
      let r = y;
      for (const d of dilations) {
        let t = conv(leaky(r), channels, channels, k, d);
        if (decoder.resblock === '1') t = conv(leaky(t), channels, channels, k);
        r = g.node('Add', [r, t]);
      }
      sum = sum ? g.node('Add', [sum, r]) : r;
    }
    y = g.node('Mul', [sum!, g.floats([1 / decoder.resblocks.length], [])]);
  }
  const post = conv(leaky(y), channels, 1, 7);
  // Random weights give a faint signal: scale each run to a peak of 0.5 so the pipeline
  // does not trim it as silence.
  const peak = g.node('Add', [
    g.node('ReduceMax', [g.node('Abs', [post])], { keepdims: 0 }),
    g.floats([1e-12], []),
  ]);
  const audio = g.node('Mul', [g.node('Div', [post, peak]), g.floats([0.5], [])]);
  g.node('Reshape', [audio, g.int64s([1, 1, 1, -1])], {}, 'output');
  g.output('output', ElemType.float, [1, 1, 1, 'time']);
  return { bytes: g.build({ opset: 15, name: 'piper_medium_standin' }), parameters };
}
