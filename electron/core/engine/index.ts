/**
 * The engine's front door: everything outside `engine/` (jobs, projects, voices, server, CLI,
 * studio-core, main) imports the engine from here and nowhere deeper; lint refuses deeper imports
 * (`entries` of core/engine in eslint.config.js). What is here is what other layers use: the
 * contract (./engine.ts) and the few helpers they need of the engine's parts.
 *
 * A barrel evaluates every module it re-exports, so only light modules are re-exported as they
 * are. The two heavy ones (the engine itself: pool, render steps, neural models, kuromoji; the
 * model check: the ONNX readers) are behind async wrappers that load them on first call, so the
 * CLI's light commands and the server's startup load no more than before.
 */

import type { Engine } from './engine';
import type { EngineOptions } from './create-engine';

export type * from './engine';
export type { WordTiming } from './types';

export { createEngineHost } from './host/engine-host';
export { AUDIO_CONTENT_TYPES, createStreamEncoder, type StreamEncoder } from './audio/stream-encoder';
export { encodeWav, parseWavHeader } from './audio/wav';
export { openSentenceCache, type SentenceCacheOptions } from './cache/sentence-cache';
export { fileNameOf } from './export/file-names';
export { PRESETS } from './export/mastering';
export { parseKokoroVocab, parsePiperConfig, type PiperConfig } from './onnx/voice-config';
export { ssmlVoices } from './ssml-voices';
export {
  blankMarkerLines,
  chapterTimesFromWords,
  parseChapters,
  spokenBook,
  type Chapter,
  type ChapterTiming,
} from './text/chapters';
export { spokenHeadingOf } from './text/spoken-headings';
export { bookCues, writeBookSubtitles, type SpokenPiece } from './subtitles/book-subtitles';
export { readingOf, type Reading, type ReadingChange, type ReadingOptions } from './text/reading';
export { readingStyleOf } from './render/voice';
export { voiceCharacter } from './voice-character';

/** Creates the engine in this thread (create-engine.ts), loading it on first call. */
export async function createEngine(options: EngineOptions = {}): Promise<Engine> {
  return (await import('./create-engine')).createEngine(options);
}

/**
 * Opens a voice model and speaks a word with it (onnx/check-model.ts), loading the check on
 * first call. Rejects with AppError when the model is unusable.
 */
export async function checkVoiceModel(path: string, family: 'piper' | 'kokoro'): Promise<void> {
  return (await import('./onnx/check-model')).checkVoiceModel(path, family);
}
