/**
 * How a text will be read: the words the engine is handed for it in a language (numbers,
 * dates, money, measures, abbreviations… said as a reader of that language says them), and each
 * place that differs from what was written, with what decided it (a lexicon entry or a rule of a
 * class). The studio's "how it will be read" view, `say --show-reading` and
 * `POST /api/v1/reading` are built on this; renders read the same text (`./rules`).
 *
 * Offsets are UTF-16 code-unit offsets of the text given.
 */

import type { LexiconRule } from '../engine';
import type { LanguageCode } from '../types';
import { compileLexicon, lexiconUnits } from './lexicon';
import type { RuleName } from './rule-kit';
import { rewriteWithChanges } from './rules';

/** One place where the reading differs from the text. */
export interface ReadingChange {
  /** Offsets of the written text in the text given. */
  from: number;
  to: number;
  /** The text as written there. */
  written: string;
  /** What is said instead (a lexicon entry's IPA is shown as eSpeak phonemes in `[[ ]]`). */
  spoken: string;
  /** What decided it: an entry of the user's lexicon, or a rule of the language. */
  source: 'lexicon' | 'rule';
  /** The rule's class ('date', 'money', 'measure', …); null for a lexicon entry. */
  rule: RuleName | null;
}

export interface Reading {
  /** The whole text as the engine reads it. */
  reading: string;
  changes: ReadingChange[];
}

export interface ReadingOptions {
  /** The lexicon's entries of `language` (respellings, IPA, units), as a render gets them. */
  lexicon?: readonly LexiconRule[];
  /** How an ambiguous numeric date is read in English (see `PrepareOptions.dateOrder`). */
  dateOrder?: 'mdy' | 'dmy';
  /** British "and" after hundred in English numbers (see `PrepareOptions.andAfterHundred`). */
  andAfterHundred?: boolean;
}

/** The reading of `text` in `language`. Never throws. */
export function readingOf(text: string, language: LanguageCode, options: ReadingOptions = {}): Reading {
  const { text: mapped, changes } = rewriteWithChanges(text, language, {
    dateOrder: options.dateOrder,
    andAfterHundred: options.andAfterHundred,
    lexicon: compileLexicon(options.lexicon, language),
    units: lexiconUnits(options.lexicon),
  });
  return {
    reading: mapped.engineText,
    changes: changes.map((c) => ({
      from: c.from,
      to: c.to,
      written: text.slice(c.from, c.to),
      spoken: c.spoken,
      source: c.source,
      rule: c.rule ?? null,
    })),
  };
}
