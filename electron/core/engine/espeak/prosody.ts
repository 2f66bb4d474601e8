/**
 * The API's prosody values mapped to engine settings. Measured on every voice
 * (test/core/engine/espeak/prosody.test.ts): eSpeak's duration is close to proportional to
 * 1/rate between 80 and 450 wpm, and its pitch setting moves median F0 from about
 * 0.6× (pitch 0) to about 1.7× (pitch 100) of the variant's own pitch (pitch 50).
 */

/** eSpeak's default speaking rate, words per minute, at speed_rate 1.0. */
const BASE_RATE_WPM = 175;

/**
 * Words per minute for a speed_rate of 0.5–2.0 (87.5–350 wpm for most voices, inside
 * eSpeak's 80–450). `fastExponent` corrects languages whose duration shrinks less than
 * 1/rate above the default rate (Spanish: ×2 rate gives only ×0.57 duration).
 */
export function rateForSpeed(speedRate: number, fastExponent = 1): number {
  const factor = speedRate > 1 ? speedRate ** fastExponent : speedRate;
  return Math.round(Math.min(450, BASE_RATE_WPM * factor));
}

/**
 * eSpeak pitch (0–100) for a pitch_rate of 0.5–2.0 around a voice's base pitch:
 * 1.0 keeps the base, 2.0 reaches 100 and 0.5 reaches a fifth of the base, linearly
 * in log2(pitch_rate) on each side. (Going lower makes low male voices creak at ~50 Hz.)
 */
export function pitchForRate(pitchRate: number, basePitch: number): number {
  const octaves = Math.log2(pitchRate);
  const value = octaves >= 0 ? basePitch + (100 - basePitch) * octaves : basePitch * (1 + 0.8 * octaves);
  return Math.round(Math.min(100, Math.max(0, value)));
}

/**
 * eSpeak's own amplitude. At its default (100) eSpeak's peaks already reach full scale
 * and clip inside the engine, so the engine runs quieter and volume is applied after,
 * through a limiter.
 */
export const ENGINE_AMPLITUDE = 60;
