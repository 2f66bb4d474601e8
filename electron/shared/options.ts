/** Output and prosody options of the API (spec: "TTS request" and "Limits"). */

export const MODEL_IDS = ['std-v1.6', 'std-v1.5', 'std-v1.5-turbo', 'std-v1'] as const;
export type ModelId = (typeof MODEL_IDS)[number];
export const DEFAULT_MODEL: ModelId = 'std-v1.6';

/**
 * Every format a render can write, one row each, from which every list of formats is derived
 * (the schemas' `audio_type` and `response_format`, the MIME types the answers and the OpenAPI
 * document give, the file names of downloads): the spec's two, and the rest of OpenAI's
 * `response_format` (the spec's are marked `cloud`). Adding a format is its encoder
 * (engine/audio) and a row here.
 */
export const AUDIO_FORMAT_TABLE = {
  mp3: { contentType: 'audio/mpeg', cloud: true },
  wav: { contentType: 'audio/wav', cloud: true },
  /** Opus in Ogg. */
  opus: { contentType: 'audio/ogg; codecs=opus' },
  /** AAC-LC in ADTS. */
  aac: { contentType: 'audio/aac' },
  flac: { contentType: 'audio/flac' },
  /**
   * Raw 16-bit little-endian mono at 24 kHz. Not audio/L16, which is big-endian (RFC 2586):
   * OpenAI's pcm is little-endian, no header.
   */
  pcm: { contentType: 'audio/pcm' },
} as const satisfies Record<string, { contentType: string; cloud?: true }>;
export type AudioFormat = keyof typeof AUDIO_FORMAT_TABLE;
export const AUDIO_FORMATS = Object.keys(AUDIO_FORMAT_TABLE) as AudioFormat[] as readonly AudioFormat[];

/** The cloud API's `audio_type` values (spec): the rows marked `cloud`. */
export type AudioType = {
  [F in AudioFormat]: (typeof AUDIO_FORMAT_TABLE)[F] extends { cloud: true } ? F : never;
}[AudioFormat];
export const AUDIO_TYPES = AUDIO_FORMATS.filter(
  (format): format is AudioType => 'cloud' in AUDIO_FORMAT_TABLE[format],
) as readonly AudioType[];
export const DEFAULT_AUDIO_TYPE: AudioType = 'mp3';

/** MIME types of the formats, as OpenAI's endpoint sends them. */
export const AUDIO_CONTENT_TYPES = Object.fromEntries(
  AUDIO_FORMATS.map((format) => [format, AUDIO_FORMAT_TABLE[format].contentType]),
) as Readonly<Record<AudioFormat, string>>;

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
