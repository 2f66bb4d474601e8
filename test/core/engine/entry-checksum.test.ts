/**
 * The sentence cache's entry checksum: the WebAssembly SIMD sums equal the plain loop's for
 * every length (whole 16-byte steps, a partial last one, more than the module's 256 KiB at
 * once); a flipped bit, a changed byte, swapped words and a shortened input each change it.
 */

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHECKSUM_BYTES, entryChecksum } from '../../../electron/core/engine/cache/entry-checksum';

describe('entryChecksum', () => {
  it('gives the same sums in WebAssembly SIMD as in the loop, at every length', () => {
    for (const length of [0, 1, 15, 16, 17, 4096, 262_143, 262_144, 262_160, 600_001]) {
      const bytes = randomBytes(length);
      const simd = entryChecksum(bytes);
      expect(simd.length).toBe(CHECKSUM_BYTES);
      expect(simd, `length ${length}`).toEqual(entryChecksum(bytes, { simd: false }));
    }
  });

  it('is Fletcher’s two sums of 32-bit words in four lanes', () => {
    // Words 1..8 in two steps: A = (1+5, 2+6, 3+7, 4+8); B = (1, 2, 3, 4) + A.
    const bytes = Buffer.alloc(32);
    for (let w = 0; w < 8; w++) bytes.writeUInt32LE(w + 1, 4 * w);
    const sums = entryChecksum(bytes);
    const words = Array.from({ length: 8 }, (_, k) => sums.readUInt32LE(4 * k));
    expect(words).toEqual([6, 8, 10, 12, 7, 10, 13, 16]);
  });

  it('changes with any flipped bit, swapped words or a shortened input', () => {
    const bytes = randomBytes(70_000);
    const base = entryChecksum(bytes);
    for (let trial = 0; trial < 200; trial++) {
      const damaged = Buffer.from(bytes);
      const bit = (trial * 2_654_435_761) % (bytes.length * 8);
      damaged[bit >> 3] = damaged[bit >> 3]! ^ (1 << (bit & 7));
      expect(entryChecksum(damaged).equals(base), `bit ${bit}`).toBe(false);
    }
    const swapped = Buffer.from(bytes);
    swapped.set(bytes.subarray(1600, 1616), 32);
    swapped.set(bytes.subarray(32, 48), 1600);
    expect(entryChecksum(swapped).equals(base)).toBe(false);
    expect(entryChecksum(bytes.subarray(0, bytes.length - 16)).equals(base)).toBe(false);
  });
});
