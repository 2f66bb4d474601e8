/**
 * The rules of custom voices that need no schema library (so the CLI's `say` and `export` load
 * none): the code pattern, and how a voice's prosody composes with a request's. The wire records
 * are in ./custom-voices.
 */

import { RATE_MAX, RATE_MIN, VOLUME_MAX, VOLUME_MIN } from './options';

/** Lower-case letters, digits, `_` and `-`, starting with a letter; 3 to 64 characters. */
export const CUSTOM_VOICE_CODE_PATTERN = '^[a-z][a-z0-9_-]{2,63}$';

/** A custom voice's prosody multipliers (its wire record, CustomProsodySchema, is in ./custom-voices). */
export interface ProsodyMultipliers {
  speed: number;
  pitch: number;
  volume: number;
}

/** A request's own prosody (the API's fields). */
export interface RequestProsody {
  speed_rate: number;
  pitch_rate: number;
  volume: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** The request's prosody times the voice's, kept within the API's ranges (0.5–2.0, 50–150). */
export function composeProsody(voice: ProsodyMultipliers, request: RequestProsody): RequestProsody {
  return {
    speed_rate: Math.round(clamp(request.speed_rate * voice.speed, RATE_MIN, RATE_MAX) * 100) / 100,
    pitch_rate: Math.round(clamp(request.pitch_rate * voice.pitch, RATE_MIN, RATE_MAX) * 100) / 100,
    volume: Math.round(clamp((request.volume * voice.volume) / 100, VOLUME_MIN, VOLUME_MAX)),
  };
}
