/** eSpeak NG behind the SpeechBackend contract: the pool's workers with the voice's settings. */

import { createRequire } from 'node:module';
import type { WorkerPool } from './worker-pool';
import type { SpeechBackend } from '../speech-backend';
import { ESPEAK_SAMPLE_RATE, type EngineSettings } from './protocol';

/** Chunks in flight per worker: enough to keep every worker busy while the head is written. */
const CHUNKS_PER_WORKER = 3;

/**
 * Raise when the worker's output for a given text and settings changes (espeak-worker.ts), so the
 * sentence cache does not answer with audio the engine would no longer make. 2: Vietnamese
 * phonemes for the neural voices come from eSpeak's phoneme trace (tones 1 and 7).
 */
const WORKER_OUTPUT_REVISION = 2;

/**
 * Which eSpeak speaks: the version of the package its data file comes from and the worker's
 * revision. Part of every cache key of eSpeak's audio, and of the neural voices' (their phonemes
 * come from eSpeak). Unchanged when the engine moved from the package's wasm2js build to our
 * WebAssembly build of the same sources (native/espeak-ng): the two speak alike, sample for sample
 * (test/core/engine/espeak/espeak-ng-wasm.test.ts), so the cache's entries stay right.
 */
export const ESPEAK_BUILD = `espeak-ng-emscripten@${espeakPackageVersion()}/worker-${WORKER_OUTPUT_REVISION}`;

function espeakPackageVersion(): string {
  try {
    const require = createRequire(import.meta.url);
    return (require('@echogarden/espeak-ng-emscripten/package.json') as { version: string }).version;
  } catch {
    // A bundle without the package's manifest: entries stay valid within this build's revision.
    return 'unknown';
  }
}

export function espeakBackend(pool: WorkerPool, settings: EngineSettings): SpeechBackend {
  return {
    label: 'espeak',
    sampleRate: ESPEAK_SAMPLE_RATE,
    window: pool.size * CHUNKS_PER_WORKER,
    cacheKey: JSON.stringify([
      'espeak',
      ESPEAK_BUILD,
      ESPEAK_SAMPLE_RATE,
      settings.voice,
      settings.rate,
      settings.pitch,
      settings.range,
      settings.volume,
    ]),
    synthesize: (engineText, owner) => pool.synthesize(engineText, settings, owner),
  };
}
