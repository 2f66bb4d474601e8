/**
 * Messages between the engine pool (main thread) and an eSpeak worker thread.
 * Every request carries a `seq` id that its response repeats; errors cross as
 * `{ code, message }`, audio as a transferred ArrayBuffer of 16-bit PCM.
 */

import type { ErrorCode } from '../../../shared/errors';

/** eSpeak NG's output sample rate in Hz (its voices' own; a worker's `ready` reports it too). */
export const ESPEAK_SAMPLE_RATE = 22050;

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

/**
 * How eSpeak classifies the punctuation that ends a clause, written as Piper writes it into
 * the phonemes: `.` `?` `!` end a sentence, `,` `:` `;` (and a dash, which eSpeak reads as a
 * semicolon) a clause; `''` when the clause ends without such a mark (end of text, an
 * ellipsis, a paragraph break, or a full-width mark such as 。, which Piper drops).
 */
export type ClauseTerminator = '.' | ',' | '?' | '!' | ';' | ':' | '';

/** A word of the text (a run of non-space code points holding a letter or digit, without the punctuation at its ends). */
export interface TextWord {
  /** 1-based position in code points of the text, as `RawWordEvent.textPosition`. */
  textPosition: number;
  /** Length in code points. */
  wordLength: number;
  /**
   * eSpeak's IPA for the word read on its own (NFD, words joined by spaces, no separators or
   * language flags). Given only when the clause's text words and eSpeak's words differ in
   * number, to place the words (see `onnx/piper-phonemes.ts` `alignClauseWords`).
   */
  phonemes?: string;
}

/**
 * One clause of a text as eSpeak phonemised it. Positions use the convention of
 * `RawWordEvent`: 1-based, counted in code points of the text the request carried.
 */
export interface PhonemeClause {
  /** Where the clause's text starts (its first non-space code point). */
  textPosition: number;
  /** Code points from `textPosition` to the end of the clause's words, closing punctuation excluded. */
  textLength: number;
  /**
   * The words eSpeak spoke, in order, each as its phonemes in eSpeak's units ("tʃ", "ˈoʊ":
   * stress marks stay with the vowel after them), IPA, NFD, without the `_` separators and
   * `(xx)` language-switch flags. eSpeak may merge words ("in the" → "ɪnðə") or split one
   * ("1984" → four words), so the count need not match the text's.
   */
  words: string[][];
  /**
   * The text's words in the clause, in order. Scripts written without spaces (Chinese,
   * Japanese) give one word per run of characters.
   */
  textWords: TextWord[];
  /** The clause's closing punctuation as the text has it (e.g. ",", "?!", "...", "。", "”."), or ''. */
  punctuation: string;
  /** eSpeak's clause type of `punctuation`, as Piper writes it. */
  terminator: ClauseTerminator;
  /** True when the clause ends a sentence (., ?, !, their full-width forms, a paragraph break, the end of the text). */
  endsSentence: boolean;
}

export type WorkerRequest =
  | {
      seq: number;
      type: 'synthesize';
      text: string;
      settings: EngineSettings;
    }
  | {
      seq: number;
      type: 'phonemize';
      text: string;
      /** eSpeak voice name, e.g. "en-us", "fr-fr"; a variant ("+f3") is ignored. */
      voice: string;
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
  | { seq: number; type: 'phonemes'; clauses: PhonemeClause[] }
  | { seq: number; type: 'error'; error: { code: ErrorCode; message: string } };

/** Sent once by a worker when its engine instance is initialised. */
export type WorkerReady = { type: 'ready'; sampleRate: number } | { type: 'failed'; message: string };
