/**
 * Data that crosses the engine's module boundaries. Offsets into text are UTF-16 code-unit
 * offsets (JavaScript string indexes) unless a name says otherwise; times are milliseconds
 * from the start of the output audio unless a name says otherwise.
 */

import type { LanguageCode } from '../../shared/voices';

/** A word mark reported by the engine, mapped back to the chunk's source text. */
export interface EngineWordMark {
  /** Offset of the word's first code unit in the chunk's source text. */
  sourceStart: number;
  /** Offset just past the word's last code unit in the chunk's source text. */
  sourceEnd: number;
  /** Audio position of the word's start within the chunk's audio, ms. */
  audioMs: number;
}

/** One word of the source text with its place in the output audio. */
export interface WordTiming {
  /** The word exactly as it stands in the source text. */
  text: string;
  startMs: number;
  endMs: number;
  /** Offsets in the whole (cleaned) input text. */
  charStart: number;
  charEnd: number;
}

/** One subtitle cue. Numbered from 1; `text` holds at most two lines joined by "\n". */
export interface SubtitleCue {
  index: number;
  startMs: number;
  endMs: number;
  text: string;
}

/** A piece of the cleaned input text, cut at a sentence boundary, synthesised as one unit. */
export interface TextChunk {
  /** 0-based position in the sequence of chunks. */
  index: number;
  /** The chunk's source text (a substring of the cleaned input). */
  text: string;
  /** Offset of `text` in the cleaned input. */
  start: number;
  /** Silence to insert after this chunk at speed 1.0, ms (sentence, paragraph or chapter break). */
  pauseAfterMs: number;
}

/** Text rewritten for the engine (numbers, dates, abbreviations, kana), with a map back to the source. */
export interface PreparedText {
  /** What the engine reads. */
  engineText: string;
  /**
   * Maps an engine event position (eSpeak's `text_position`: 1-based, counted in code points
   * of `engineText`) and its `word_length` (code points) to a range of the source text.
   */
  toSource(textPosition: number, wordLength: number): { start: number; end: number };
}

export type { LanguageCode };
