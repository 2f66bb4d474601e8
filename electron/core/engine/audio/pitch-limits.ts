/**
 * The pitch ratios the pitch shifter accepts (pitch-shift.ts), apart from it: that module loads
 * its WASM on import, and code that only needs the bounds should not pay for it.
 */

/** An octave down. */
export const MIN_PITCH_RATIO = 0.5;
/** An octave up. */
export const MAX_PITCH_RATIO = 2;
