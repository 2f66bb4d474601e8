/**
 * One family of voices behind the render pipeline. The pipeline (text preparation, chunking,
 * pauses, word timings, volume, encoding, files) is shared; a backend only turns one piece
 * of engine text into PCM with word events. eSpeak (`espeak/espeak-backend.ts`) is the base
 * that always works; neural families (`onnx/`) add their own.
 */

import type { SynthesisOutput } from './espeak/worker-pool';

export interface SpeechBackend {
  /** What speaks, as reported with the result: `espeak`, `piper:<pack>#<speaker>`, `kokoro:<pack>#<voice>`. */
  readonly label: string;
  /** Sample rate of every output of this backend, Hz. */
  readonly sampleRate: number;
  /** Engine calls of one render in flight at most: enough to keep the backend busy, few enough to bound memory. */
  readonly window: number;
  /**
   * What, besides the engine text, decides this backend's output: engine build, voice or model
   * file identity, sample rate and every setting that changes the audio. Two backends with the
   * same key speak a text the same way, so the sentence cache (`cache/cached-backend.ts`) may
   * answer one with what the other rendered. Undefined: never cached.
   */
  readonly cacheKey?: string | undefined;
  /**
   * Whether `synthesize` would answer `engineText` without the engine (the sentence cache holds
   * it), as far as this process knows; absent: never. The render starts the calls it would not
   * answer so early (`render/synthesis-window.ts`).
   */
  readonly isCached?: ((engineText: string) => boolean) | undefined;
  /** Synthesises one piece of engine text; `owner` groups one render's calls (fair turns, cancel). */
  synthesize(engineText: string, owner: string): Promise<SynthesisOutput>;
}
