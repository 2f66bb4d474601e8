/**
 * What each `model_id` changes in the synthesis pipeline. The API's models are profiles
 * of one engine: they differ in how text is prepared, how much text goes into one engine
 * call, intonation range and pause lengths. `model_id` applies only to standard voices;
 * the others always use the default profile.
 */

import type { ModelId } from '../../shared/options';
import { DEFAULT_MODEL } from '../../shared/options';

export interface ModelProfile {
  id: ModelId;
  /** One line for the README and the UI. */
  summary: string;
  /**
   * Text preparation: 'full' rewrites dates, times, symbols and abbreviations for the
   * language; 'none' hands the cleaned text to the engine as it is.
   */
  textPreparation: 'full' | 'none';
  /**
   * Upper bound of characters per engine call. Bigger calls have less per-call overhead
   * (measured ~16% faster at 30 sentences per call than at 1) but start later.
   */
  chunkChars: number;
  /**
   * Whether consecutive sentences of a paragraph share one engine call (up to chunkChars):
   * fewer calls, and the engine's own sentence pauses instead of the pipeline's.
   */
  mergeSentences: boolean;
  /** eSpeak intonation range, 0–100 (50 = the variant's own). */
  range: number;
  /** Factor on the pauses between sentences and paragraphs (before speed scaling). */
  pauseScale: number;
  /** Fade in/out at every chunk join, ms (removes clicks where audio is spliced). */
  fadeMs: number;
}

const MODEL_PROFILES: Readonly<Record<ModelId, ModelProfile>> = {
  'std-v1.6': {
    id: 'std-v1.6',
    summary: 'Full text preparation, sentence-sized engine calls, natural intonation and pauses.',
    textPreparation: 'full',
    chunkChars: 300,
    mergeSentences: false,
    range: 50,
    pauseScale: 1,
    fadeMs: 4,
  },
  'std-v1.5': {
    id: 'std-v1.5',
    summary: 'As std-v1.6 with a narrower, steadier intonation range (stable for Vietnamese tones).',
    textPreparation: 'full',
    chunkChars: 300,
    mergeSentences: false,
    range: 35,
    pauseScale: 1,
    fadeMs: 4,
  },
  'std-v1.5-turbo': {
    id: 'std-v1.5-turbo',
    summary:
      'std-v1.5 with large engine calls (up to 1,500 characters) and shorter pauses: faster, 50% price.',
    textPreparation: 'full',
    chunkChars: 1500,
    mergeSentences: true,
    range: 35,
    pauseScale: 0.8,
    fadeMs: 4,
  },
  'std-v1': {
    id: 'std-v1',
    summary: 'The base engine: text read as written (no date/symbol rewriting), wider intonation.',
    textPreparation: 'none',
    chunkChars: 300,
    mergeSentences: false,
    range: 60,
    pauseScale: 1,
    fadeMs: 4,
  },
};

/** The profile for a request: the asked model for standard voices, the default otherwise. */
export function modelProfile(modelId: ModelId, isStandardVoice: boolean): ModelProfile {
  return MODEL_PROFILES[isStandardVoice ? modelId : DEFAULT_MODEL];
}
