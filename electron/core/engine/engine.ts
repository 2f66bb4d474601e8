/**
 * The engine's public contract: the interface everything outside `engine/` uses synthesis
 * through, and the plain records it takes and gives. Implementation: `createEngine` in
 * `./create-engine.ts`. Other layers import all of it through the engine's front door,
 * `./index.ts` (lint refuses deeper imports).
 */

import type { BookFormat, FolderFormat, MasteringPresetName } from '../../shared/book-formats';
import type { CoverImage } from '../../shared/book-exports';
import type { LexiconEntry } from '../../shared/lexicon';
import type { SynthesisOptions } from '../../shared/options';
import type { SentenceCacheStats, SentenceCacheUse } from '../../shared/sentence-cache';
import type { SsmlCustomVoice } from '../../shared/ssml';
import type { LanguageCode } from '../../shared/voices';
import type { LoudnessMeasurement } from './export/loudness';
import type { ChapterTiming } from './text/chapters';
import type { Reading, ReadingOptions } from './text/reading';
import type { VoiceCharacter } from './voice-character';

/**
 * A pronunciation-lexicon entry as a render needs it (plain data: it crosses into the engine's
 * thread). A stored `LexiconEntry` is one.
 */
export type LexiconRule = Pick<
  LexiconEntry,
  'match' | 'kind' | 'replacement' | 'case_sensitive' | 'whole_word'
>;

/**
 * A neural voice to speak with instead of eSpeak, as the voice library resolved it for a
 * voice code and model (plain data: it crosses into the engine's thread). Paths point into
 * an installed pack; when its files cannot be opened the engine falls back to eSpeak and
 * says so in `RenderResult.engine`.
 *
 * `character`: the voice code's own pitch, pace and timbre (voice-character.ts), applied on
 * top of the request's prosody; without it (a pack speaker or a Kokoro blend chosen as such)
 * the voice speaks as trained.
 */
export type NeuralVoice = (
  | {
      family: 'piper';
      packId: string;
      /** `<name>.onnx` */
      modelPath: string;
      /** `<name>.onnx.json` */
      configPath: string;
      /** Speaker id of a multi-speaker voice (0 otherwise). */
      speaker: number;
    }
  | {
      family: 'kokoro';
      packId: string;
      modelPath: string;
      /** The vocabulary: `tokenizer.json` or `config.json`. */
      vocabPath: string;
      /** The voice style file, 510×256 float32. */
      voicePath: string;
      /** The voice's name (the style file's base name, e.g. `af_heart`; a mix's spelling). */
      voiceName: string;
      /** eSpeak voice whose phonemes the model reads, e.g. `en-us`. */
      espeakVoice: string;
      /**
       * A blend of voices (Kokoro-FastAPI's `af_bella(2)+af_sky(1)`): the style vectors of
       * these files, each times its signed weight, summed. `voicePath` is the first part's.
       */
      mix?: { voicePath: string; name: string; weight: number }[] | undefined;
    }
) & { character?: VoiceCharacter | undefined };

export interface RenderRequest extends SynthesisOptions {
  /** Input text as the caller sent it (cleaned inside: NFC, control characters dropped). */
  text: string;
  /** Final path of the audio file. Written to a temporary name and renamed when complete. */
  audioPath: string;
  /** Where to write the SRT file, if wanted (same temp-then-rename rule). */
  srtPath?: string;
  /**
   * Where to write the word timings (JSON array of WordTiming), if wanted. For SSML input the
   * array also holds each `<mark>` as a `MarkTiming`, in text order among the words.
   */
  timingsPath?: string;
  /** Called with the fraction done (0–1) as chunks complete. */
  onProgress?: (fraction: number) => void;
  /**
   * Called in order with the audio as it is written, after the volume stage: the very samples
   * the file encodes, at `sampleRate` Hz (the voice's rate). For streaming while rendering.
   */
  onAudio?: (pcm: Int16Array, sampleRate: number) => void;
  /** Aborts the render; partial files are removed and the promise rejects. */
  signal?: AbortSignal;
  /** Speak with this neural voice (default: eSpeak). */
  neuralVoice?: NeuralVoice | undefined;
  /**
   * The pronunciation lexicon's entries of the voice's language (the caller picks them; the
   * engine reads no file for them). Where one matches, its replacement is spoken; subtitles and
   * word timings keep the original words. Entries that cannot be used are skipped.
   */
  lexicon?: readonly LexiconRule[] | undefined;
  /**
   * SSML input (text starting with `<speak>`): the neural voice of every other voice code the
   * document speaks with (`<voice name>`, `<lang>`; see `SsmlDocument.voiceCodes`), resolved by the
   * caller as `neuralVoice` is; a code without one speaks with eSpeak.
   */
  voices?: Readonly<Record<string, NeuralVoice | undefined>> | undefined;
  /** SSML input: the lexicon entries of the other languages the document speaks, as `lexicon`. */
  lexicons?: Readonly<Partial<Record<LanguageCode, readonly LexiconRule[]>>> | undefined;
  /**
   * SSML input: the custom voices `<voice name>` may name (see `ParseSsmlOptions.customVoices`).
   * A run one speaks takes `voices[code]` as its neural voice and `speakerLexicons[code]` as its
   * lexicon (the voice's own entries, then its language's).
   */
  customVoices?: Readonly<Record<string, SsmlCustomVoice>> | undefined;
  speakerLexicons?: Readonly<Record<string, readonly LexiconRule[]>> | undefined;
}

/** A `<mark>` of SSML input in the word timings file: its name, time and place in the text. */
export interface MarkTiming {
  mark: string;
  startMs: number;
  /** Offset of the mark in the spoken text. */
  charStart: number;
}

export interface RenderResult {
  /**
   * Characters of the cleaned input, counted in code points (the billable count); for SSML input,
   * of its spoken text (`SsmlDocument.text`).
   */
  characters: number;
  /** Duration of the audio, ms. */
  durationMs: number;
  /** Size of the audio file, bytes. */
  audioBytes: number;
  /** Number of subtitle cues written (0 when no SRT was asked for). */
  cueCount: number;
  /**
   * What spoke: `espeak`, or the neural voice's label (see SpeechBackend.label); for SSML that
   * speaks with several, each label once, joined by commas in order of first use.
   */
  engine: string;
  /**
   * Phonemes the voice did not know and left out, counted per phoneme over the whole render
   * (most first); empty when it knew them all (always, for eSpeak).
   */
  droppedPhonemes: DroppedPhoneme[];
  /** Sentences to show with the result (the request's `warnings`, `say`'s stderr); empty: none. */
  warnings: string[];
  /**
   * How long the render took on this machine, ms: `wallMs` from its start to its files done,
   * `firstAudioMs` from its start to its first samples written (the time to first audio).
   */
  timing?: { wallMs: number; firstAudioMs: number };
}

/** A phoneme a voice left out, and how often in one render. */
export interface DroppedPhoneme {
  phoneme: string;
  count: number;
}

/** A voice with prosody, and optionally the text to say (default: a sentence in the voice's language). */
export type AuditionOptions = Pick<
  SynthesisOptions,
  'voice_code' | 'speed_rate' | 'pitch_rate' | 'volume'
> & {
  text?: string;
  /** Audition this neural voice (default: the voice code's eSpeak voice). */
  neuralVoice?: NeuralVoice | undefined;
  /** Lexicon entries of the voice's language, as `RenderRequest.lexicon`. */
  lexicon?: readonly LexiconRule[] | undefined;
  /** Synthesise every sentence, neither reading nor filling the sentence cache (a measurement). */
  bypassCache?: boolean | undefined;
};

/** An audition whose audio is handed over as it is synthesised (see `Engine.streamAudition`). */
export interface AuditionStreamRequest extends AuditionOptions {
  /**
   * Called in order with the audio, after trimming, pauses and volume, at `sampleRate` Hz (the
   * voice's rate): the first call as soon as the first sentence is synthesised. The array is
   * the callee's to keep.
   */
  onAudio: (pcm: Int16Array, sampleRate: number) => void;
  /** Stops the audition (a listener that hung up); the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Called once, before the first `onAudio`: how much of the audition the sentence cache answers. */
  onCache?: ((use: SentenceCacheUse) => void) | undefined;
}

export interface AuditionResult {
  /** Hz, as every `onAudio` call had it. */
  sampleRate: number;
  /** Duration of all the audio handed over, ms. */
  durationMs: number;
  /** What spoke: `espeak`, or the neural voice's label. */
  engine: string;
}

export interface Engine {
  /** Synthesises the whole text to files. Rejects with AppError (NOTHING_TO_SPEAK, UNKNOWN_VOICE, ENGINE_*, OUTPUT_FAILED). */
  render(request: RenderRequest): Promise<RenderResult>;
  /**
   * A short WAV in memory, for auditioning a voice (no files, no charge). Rejects with AppError
   * (UNKNOWN_VOICE, NOTHING_TO_SPEAK, ENGINE_*).
   */
  audition(options: AuditionOptions): Promise<Uint8Array>;
  /**
   * The same audition, its audio handed to `request.onAudio` sentence by sentence as it is
   * synthesised; resolves once all of it was handed over. Rejects as `audition` does, or with
   * the signal's reason.
   */
  streamAudition(request: AuditionStreamRequest): Promise<AuditionResult>;
  /**
   * Exports a book (export/book-export.ts): its chapters rendered, mastered with the preset and
   * encoded, all on the engine's thread. Rejects with AppError, or with the signal's reason.
   */
  exportBook(request: BookExportRequest): Promise<BookExportResult>;
  /**
   * Exports chapters rendered already (a book project's segments, WAV files in order) as
   * `exportBook` exports what it renders: resampled, mastered and encoded on the engine's thread.
   */
  exportChapters(request: ChapterWavsExportRequest): Promise<BookExportResult>;
  /**
   * How `text` will be read in `language` (text/reading.ts `readingOf`), worked out on the
   * engine's thread, so a long text does not hold up the caller's (the HTTP server's) event loop.
   */
  read(text: string, language: LanguageCode, options?: ReadingOptions): Promise<Reading>;
  /** The sentence cache's size and counters (`enabled: false` and zeros when it keeps none). */
  sentenceCacheStats(): Promise<SentenceCacheStats>;
  /** Empties the sentence cache (every entry in its folder); resolves with the stats after. */
  clearSentenceCache(): Promise<SentenceCacheStats>;
  /** Number of worker threads. */
  readonly poolSize: number;
  /** Stops the workers. Renders in progress reject with SHUTTING_DOWN. */
  close(): Promise<void>;
}

/** A book to export (`Engine.exportBook`; export/book-export.ts does it). */
export interface BookExportRequest extends Omit<SynthesisOptions, 'audio_type' | 'bitrate'> {
  /** The book: Markdown headings or `[chapter: …]` lines start chapters (text/chapters.ts). */
  text: string;
  neuralVoice?: NeuralVoice | undefined;
  /** Pronunciation lexicon entries of the voice's language. */
  lexicon?: readonly LexiconRule[] | undefined;
  preset: MasteringPresetName;
  format: BookFormat;
  /** Audio format of each chapter's file when `format` is `folder` (default mp3). */
  folderFormat?: FolderFormat | undefined;
  /** The book's title (tags; and the name of text before the first chapter line). */
  title?: string | undefined;
  author?: string | undefined;
  cover?: CoverImage | undefined;
  /** The `.mp3` or `.m4b` file to write, or the folder (created if missing) for `folder`. */
  outPath: string;
  /** Called with the fraction done (0–1), rising smoothly through rendering, mastering and encoding. */
  onProgress?: ((fraction: number) => void) | undefined;
  signal?: AbortSignal | undefined;
}

/** One written file and what the report says about it. */
export interface ExportedFile {
  path: string;
  /** Its chapters, ms from the start of the file. */
  chapters: ChapterTiming[];
  /** Gain applied by the mastering, dB. */
  gainDb: number;
  loudness: LoudnessMeasurement;
  /** The preset's checks that failed (empty: all pass). */
  failures: string[];
}

export interface BookExportResult {
  files: ExportedFile[];
  /** The loudness report (JSON). */
  reportPath: string;
  /** Chapters of the whole book, ms from its start (for `folder`, as if the files were played in a row). */
  chapters: ChapterTiming[];
  durationMs: number;
  sampleRate: number;
  /** What spoke (`espeak`, or a neural voice's label; several joined by ", " if they differed). */
  engine: string;
  /** The book-wide subtitles written beside the export (a book project's export). */
  subtitles?: { srtPath: string; vttPath: string } | undefined;
}

/** What steps 2–5 (timings, files, mastering and encoding, the report) need of a request. */
export type BookEncodeRequest = Pick<
  BookExportRequest,
  'preset' | 'format' | 'folderFormat' | 'title' | 'author' | 'cover' | 'outPath' | 'onProgress' | 'signal'
> & {
  /** Between a folder file's number and its chapter title (default one space). */
  numberSeparator?: string | undefined;
  /** The number of a folder's first file (default 1; 0 when it holds opening credits). */
  firstFileNumber?: number | undefined;
};

/** A chapter rendered already: its title and its speech as WAV files (any rates), in order. */
export interface ChapterWav {
  title: string;
  wavPaths: readonly string[];
}

/** An export of chapters rendered already (a book project's): steps 2–5 of `exportBook` (export/book-export.ts) on them. */
export interface ChapterWavsExportRequest extends BookEncodeRequest {
  chapters: readonly ChapterWav[];
  /** Silence between two WAVs of a chapter, ms (default 0). */
  gapMs?: number | undefined;
  /** What spoke, for the result. */
  engine?: string | undefined;
}
