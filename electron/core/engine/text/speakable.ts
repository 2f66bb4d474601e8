/**
 * Whether a text has anything a voice can say. Cleaning and counting the text happen before
 * this, in `electron/shared/text` (`cleanText`, `countCharacters`).
 */

import { AppError } from '../../../shared/errors';
import { hasSpeakableContent } from '../../../shared/text';

// The rule itself is shared: the server and the studio refuse what the engine cannot say.
export { hasSpeakableContent };

/** Throws AppError NOTHING_TO_SPEAK unless `hasSpeakableContent(text)`. */
export function assertSpeakable(text: string): void {
  if (!hasSpeakableContent(text)) {
    throw new AppError('NOTHING_TO_SPEAK', 'The text has no letters or digits to speak.');
  }
}
