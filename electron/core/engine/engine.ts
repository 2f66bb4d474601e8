/**
 * The engine's public contract: everything outside `engine/` uses synthesis through this.
 * Implementation: `createEngine` in `./index.ts`.
 */

import type { SynthesisOptions } from '../../shared/options';

export interface RenderRequest extends SynthesisOptions {
  /** Input text as the caller sent it (cleaned inside: NFC, control characters dropped). */
  text: string;
  /** Final path of the audio file. Written to a temporary name and renamed when complete. */
  audioPath: string;
  /** Where to write the SRT file, if wanted (same temp-then-rename rule). */
  srtPath?: string;
  /** Where to write the word timings (JSON array of WordTiming), if wanted. */
  timingsPath?: string;
  /** Called with the fraction done (0–1) as chunks complete. */
  onProgress?: (fraction: number) => void;
  /** Aborts the render; partial files are removed and the promise rejects. */
  signal?: AbortSignal;
}

export interface RenderResult {
  /** Characters of the cleaned input, counted in code points (the billable count). */
  characters: number;
  /** Duration of the audio, ms. */
  durationMs: number;
  /** Size of the audio file, bytes. */
  audioBytes: number;
  /** Number of subtitle cues written (0 when no SRT was asked for). */
  cueCount: number;
}

/** A voice with prosody, and optionally the text to say (default: a sentence in the voice's language). */
export type AuditionOptions = Pick<
  SynthesisOptions,
  'voice_code' | 'speed_rate' | 'pitch_rate' | 'volume'
> & {
  text?: string;
};

export interface Engine {
  /** Synthesises the whole text to files. Rejects with AppError (NOTHING_TO_SPEAK, UNKNOWN_VOICE, ENGINE_*, OUTPUT_FAILED). */
  render(request: RenderRequest): Promise<RenderResult>;
  /** A short WAV in memory, for auditioning a voice (no files, no charge). */
  audition(options: AuditionOptions): Promise<Uint8Array>;
  /** Number of worker threads. */
  readonly poolSize: number;
  /** Stops the workers. Renders in progress reject with SHUTTING_DOWN. */
  close(): Promise<void>;
}
