/**
 * The volume stage's check for samples above the limiter's ceiling, in WebAssembly SIMD: it must
 * answer as a plain loop does, for every length (whole steps of 8 samples and the few left
 * over, more than the module's memory holds at once) and wherever the loud sample is.
 */

import { describe, expect, it } from 'vitest';
import { random } from '../../../fixtures/random';
import { exceedsMagnitude } from '../../../../electron/core/engine/audio/peak-scan';

function exceedsByLoop(pcm: Int16Array, limit: number): boolean {
  return pcm.some((x) => Math.abs(x) > limit);
}

describe('exceedsMagnitude', () => {
  it('agrees with a plain loop on random blocks, limits and loud samples', () => {
    const rand = random(7);
    let loud = 0;
    for (let t = 0; t < 3000; t++) {
      const length = Math.floor(rand() * (t % 10 === 0 ? 100_000 : 200));
      const limit = [0, 1, 29203.6, 32766, 32767, 32767.5, rand() * 32768][t % 7]!;
      const reach = Math.min(32768, Math.floor(limit) + 1);
      const pcm = new Int16Array(length).map(() => Math.floor((rand() * 2 - 1) * reach));
      // One sample just past the limit somewhere, or none: early, late, or in the last few.
      if (length > 0 && rand() < 0.5) {
        const at = [0, length - 1, Math.floor(rand() * length)][t % 3]!;
        pcm[at] = rand() < 0.5 ? Math.min(32767, reach) : -reach;
      }
      const expected = exceedsByLoop(pcm, limit);
      if (expected) loud++;
      expect(exceedsMagnitude(pcm, limit), `case ${t}`).toBe(expected);
    }
    // Both answers must be common, or agreeing would prove little.
    expect(loud).toBeGreaterThan(500);
    expect(loud).toBeLessThan(2500);
  });

  it('counts -32768 as above 32767, and nothing as above a limit of 32768', () => {
    const pcm = new Int16Array(40);
    pcm[37] = -32768;
    expect(exceedsMagnitude(pcm, 32767)).toBe(true);
    expect(exceedsMagnitude(pcm.subarray(0, 32), 32767)).toBe(false);
    expect(exceedsMagnitude(pcm, 32768)).toBe(false);
  });
});
