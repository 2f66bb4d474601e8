/** Seconds left of an export, from the progress measured so far (electron/shared/eta.ts). */

import { describe, expect, it } from 'vitest';
import { secondsLeft } from '../../electron/shared/eta';

describe('secondsLeft', () => {
  it('tells the time left at the rate measured since the mark', () => {
    // A quarter done in 30 s from the start: three quarters take 90 s more.
    expect(secondsLeft({ atMs: 1000, fraction: 0 }, 31_000, 0.25)).toBe(90);
    // From a mark at 20 %: 20 % more in 10 s, 60 % left: 30 s.
    expect(secondsLeft({ atMs: 0, fraction: 0.2 }, 10_000, 0.4)).toBe(30);
  });

  it('says nothing until the rate can be told, and 0 once done', () => {
    expect(secondsLeft({ atMs: 0, fraction: 0 }, 500, 0.1)).toBeNull();
    expect(secondsLeft({ atMs: 0, fraction: 0.3 }, 60_000, 0.3)).toBeNull();
    expect(secondsLeft({ atMs: 0, fraction: 0 }, 60_000, 1)).toBe(0);
  });
});
