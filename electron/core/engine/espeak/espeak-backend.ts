/** eSpeak NG behind the SpeechBackend contract: the pool's workers with the voice's settings. */

import { SAMPLE_RATE } from '../../../shared/options';
import type { WorkerPool } from '../pool';
import type { SpeechBackend } from '../speech-backend';
import type { EngineSettings } from './protocol';

/** Chunks in flight per worker: enough to keep every worker busy while the head is written. */
const CHUNKS_PER_WORKER = 3;

export function espeakBackend(pool: WorkerPool, settings: EngineSettings): SpeechBackend {
  return {
    label: 'espeak',
    sampleRate: SAMPLE_RATE,
    window: pool.size * CHUNKS_PER_WORKER,
    synthesize: (engineText, owner) => pool.synthesize(engineText, settings, owner),
  };
}
