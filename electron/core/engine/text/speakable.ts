/**
 * Whether a text has anything a voice can say. Cleaning and counting the text happen before
 * this, in `electron/shared/text` (`cleanText`, `countCharacters`).
 */

import { AppError } from '../../../shared/errors';

const SPEAKABLE_RE = /[\p{L}\p{N}]/u;

/**
 * Whether the text has anything a voice can say: at least one letter (\p{L}) or digit
 * (\p{N}). Text made only of emoji, punctuation, symbols and whitespace is not speakable.
 */
export function hasSpeakableContent(text: string): boolean {
  return SPEAKABLE_RE.test(text);
}

/** Throws AppError NOTHING_TO_SPEAK unless `hasSpeakableContent(text)`. */
export function assertSpeakable(text: string): void {
  if (!hasSpeakableContent(text)) {
    throw new AppError('NOTHING_TO_SPEAK', 'The text has no letters or digits to speak.');
  }
}
