/**
 * A request row as the engine renders it: what the caller asked for (text, voice, model, format,
 * prosody, which files) with what the runner resolved when the render started (the voice code
 * that speaks, the neural voice and lexicons, a custom voice's prosody).
 */

import type { LexiconRule, NeuralVoice, RenderRequest } from '../engine';
import type { RequestRow } from '../store';
import type { ResultFiles } from './result-files';

/** What the runner resolved for a row when its render starts. */
export interface RenderParts {
  /** The voice code that speaks (the row's voice_code, a match of it, or a custom voice's). */
  voiceCode: string;
  neuralVoice: NeuralVoice | undefined;
  lexicon: readonly LexiconRule[] | undefined;
  /** For SSML input, the other voices and languages of the document (else empty). */
  ssml: Pick<RenderRequest, 'voices' | 'lexicons' | 'customVoices' | 'speakerLexicons'>;
  /** A custom voice's composed prosody, spoken instead of the row's. */
  prosody: Pick<RenderRequest, 'speed_rate' | 'pitch_rate' | 'volume'> | undefined;
  /** Whether word timings are written (the text has chapter lines, or the caller asked). */
  timings: boolean;
  signal: AbortSignal;
  /** The audio as it is rendered; passed on only for OpenAI requests (their callers stream it). */
  onAudio(pcm: Int16Array, sampleRate: number): void;
  onProgress(fraction: number): void;
}

export type RequestToRender = Pick<
  RequestRow,
  | 'id'
  | 'input_text'
  | 'model_id'
  | 'audio_type'
  | 'bitrate'
  | 'speed_rate'
  | 'pitch_rate'
  | 'volume'
  | 'generate_srt'
  | 'source'
>;

export function renderRequestOf(
  row: RequestToRender,
  parts: RenderParts,
  files: Pick<ResultFiles, 'audioPath' | 'srtPath' | 'timingsPath'>,
): RenderRequest {
  const { prosody } = parts;
  return {
    neuralVoice: parts.neuralVoice,
    lexicon: parts.lexicon,
    ...parts.ssml,
    text: row.input_text,
    voice_code: parts.voiceCode,
    model_id: row.model_id,
    audio_type: row.audio_type,
    bitrate: row.bitrate,
    speed_rate: prosody ? prosody.speed_rate : row.speed_rate,
    pitch_rate: prosody ? prosody.pitch_rate : row.pitch_rate,
    volume: prosody ? prosody.volume : row.volume,
    audioPath: files.audioPath(row),
    ...(row.generate_srt ? { srtPath: files.srtPath(row) } : {}),
    ...(parts.timings ? { timingsPath: files.timingsPath(row) } : {}),
    signal: parts.signal,
    // Only OpenAI's callers wait on the connection for the audio: others are not streamed.
    ...(row.source === 'openai' ? { onAudio: parts.onAudio } : {}),
    onProgress: parts.onProgress,
  };
}
