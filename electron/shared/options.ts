/** Output and prosody options of the API (spec: "TTS request" and "Limits"). */

export const MODEL_IDS = ['std-v1.6', 'std-v1.5', 'std-v1.5-turbo', 'std-v1'] as const;
export type ModelId = (typeof MODEL_IDS)[number];
export const DEFAULT_MODEL: ModelId = 'std-v1.6';

/** The cloud API's `audio_type` values (spec). */
export const AUDIO_TYPES = ['mp3', 'wav'] as const;
export type AudioType = (typeof AUDIO_TYPES)[number];
export const DEFAULT_AUDIO_TYPE: AudioType = 'mp3';

/**
 * Every format a render can write: the spec's two, and the rest of OpenAI's `response_format`
 * (opus in Ogg, AAC in ADTS, FLAC, and `pcm`: raw 16-bit little-endian mono at 24 kHz).
 */
export const AUDIO_FORMATS = ['mp3', 'wav', 'opus', 'aac', 'flac', 'pcm'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** MP3 CBR bitrates in kbps; all are valid MPEG-2 Layer III rates at 22050 Hz. */
export const BITRATES = [8, 16, 32, 64, 128, 160] as const;
export type Bitrate = (typeof BITRATES)[number];
export const DEFAULT_BITRATE: Bitrate = 128;
/**
 * Constant MP3 bitrates in kbps the encoders write: the API's (BITRATES), and 192 at the MPEG-1
 * rates (32, 44.1 and 48 kHz) for audiobook export (ACX asks for 192 kbps at 44.1 kHz:
 * engine/export/mastering.ts).
 */
export type Mp3Bitrate = Bitrate | 192;

/** speed_rate and pitch_rate: 0.5 to 2.0 with at most one digit after the point. */
export const RATE_MIN = 0.5;
export const RATE_MAX = 2.0;
/** volume: integer percent, 50 to 150. */
export const VOLUME_MIN = 50;
export const VOLUME_MAX = 150;

/** Everything that shapes the audio of one synthesis. */
export interface SynthesisOptions {
  voice_code: string;
  model_id: ModelId;
  /** The cloud API offers mp3 and wav; OpenAI's endpoint every AudioFormat. */
  audio_type: AudioFormat;
  bitrate: Bitrate;
  /** 0.5–2.0; duration scales as 1/speed_rate. */
  speed_rate: number;
  /** 0.5–2.0; median pitch rises with it. */
  pitch_rate: number;
  /** 50–150 percent. */
  volume: number;
}

export const DEFAULT_SYNTHESIS: Omit<SynthesisOptions, 'voice_code' | 'audio_type'> & {
  audio_type: AudioType;
} = {
  model_id: DEFAULT_MODEL,
  audio_type: DEFAULT_AUDIO_TYPE,
  bitrate: DEFAULT_BITRATE,
  speed_rate: 1.0,
  pitch_rate: 1.0,
  volume: 100,
};

/** True for a number in [min, max] with at most one digit after the decimal point. */
export function isOneDecimalInRange(value: number, min: number, max: number): boolean {
  return (
    Number.isFinite(value) &&
    value >= min &&
    value <= max &&
    Math.abs(value * 10 - Math.round(value * 10)) < 1e-9
  );
}

/**
 * Default size limit of the sentence cache, MB (`serve --sentence-cache-mb`). Here rather than
 * beside its schema (`sentence-cache.ts`) so that `say` and `export` load no schema library.
 */
export const DEFAULT_SENTENCE_CACHE_MB = 512;
