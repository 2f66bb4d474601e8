import { Tensor } from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { audioOf, samplesPerId } from '../../../../electron/core/engine/onnx/tensors';

const frames = (values: number[]) =>
  new Tensor('int64', BigInt64Array.from(values.map(BigInt)), [values.length]);

describe('samplesPerId', () => {
  it('turns frames into samples when they cover the audio exactly', () => {
    expect(Array.from(samplesPerId(frames([2, 1, 3]), 3, 1536, 256, 0)!)).toEqual([512, 256, 768]);
    const float = new Tensor('float32', Float32Array.of(2, 1), [1, 1, 2]);
    expect(Array.from(samplesPerId(float, 2, 768, 256, 0)!)).toEqual([512, 256]);
  });

  it('lets the last id take a difference within the tolerance, so the spans still cover the audio', () => {
    expect(Array.from(samplesPerId(frames([2, 2]), 2, 2400 - 37, 600, 600)!)).toEqual([1200, 1163]);
    expect(Array.from(samplesPerId(frames([2, 2]), 2, 2400 + 37, 600, 600)!)).toEqual([1200, 1237]);
  });

  it('gives nothing for durations that do not fit: other count, too far off, or missing', () => {
    expect(samplesPerId(frames([2, 1]), 3, 768, 256, 0)).toBeUndefined();
    expect(samplesPerId(frames([2, 1]), 2, 769, 256, 0)).toBeUndefined();
    expect(samplesPerId(frames([2, 1]), 2, 768 + 700, 256, 600)).toBeUndefined();
    expect(samplesPerId(undefined, 2, 768, 256, 0)).toBeUndefined();
  });
});

describe('audioOf', () => {
  it('returns samples in a buffer of their own and refuses a non-float output', () => {
    const backing = new Float32Array(10);
    const audio = audioOf(new Tensor('float32', backing.subarray(2, 6), [4]), 'x.onnx');
    expect(audio.length).toBe(4);
    expect(audio.buffer.byteLength).toBe(16);
    expect(() => audioOf(new Tensor('int32', Int32Array.of(1), [1]), 'x.onnx')).toThrow(
      /"x.onnx" gave no float32/,
    );
    expect(() => audioOf(undefined, 'x.onnx')).toThrow(expect.objectContaining({ code: 'ENGINE_FAILED' }));
  });
});
