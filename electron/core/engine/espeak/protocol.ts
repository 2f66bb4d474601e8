/**
 * Messages between the engine pool (main thread) and an eSpeak worker thread.
 * Every request carries a `seq` id that its response repeats; errors cross as
 * `{ code, message }`, audio as a transferred ArrayBuffer of 16-bit PCM.
 */

import type { ErrorCode } from '../../../shared/errors';

/** Engine settings for one synthesis, already resolved from voice, model and prosody. */
export interface EngineSettings {
  /** eSpeak voice name with optional variant, e.g. "en-us+f3". */
  voice: string;
  /** Words per minute, 80–450. */
  rate: number;
  /** eSpeak pitch, 0–100. */
  pitch: number;
  /** eSpeak pitch range, 0–100. */
  range: number;
  /** eSpeak amplitude, 0–200. */
  volume: number;
}

/** A word event from eSpeak, in its own units. */
export interface RawWordEvent {
  /** 1-based position in code points of the text the engine read. */
  textPosition: number;
  /** Length in code points. */
  wordLength: number;
  /** Start in the chunk's audio, ms. */
  audioMs: number;
}

export type WorkerRequest = {
  seq: number;
  type: 'synthesize';
  text: string;
  settings: EngineSettings;
};

export type WorkerResponse =
  | {
      seq: number;
      type: 'result';
      pcm: ArrayBuffer;
      sampleRate: number;
      words: RawWordEvent[];
      sentenceMs: number[];
    }
  | { seq: number; type: 'error'; error: { code: ErrorCode; message: string } };

/** Sent once by a worker when its engine instance is initialised. */
export type WorkerReady = { type: 'ready'; sampleRate: number } | { type: 'failed'; message: string };
