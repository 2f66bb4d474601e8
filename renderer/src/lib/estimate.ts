/** Live estimates shown while composing. They use the server's own cleaning and pricing (electron/shared). */

import type { ModelId } from '../../../electron/shared/options';
import { costMilli, MILLI_PER_CREDIT } from '../../../electron/shared/pricing';
import { isSsml, parseSsml } from '../../../electron/shared/ssml';
import { cleanText, countCharacters as countCleanCharacters } from '../../../electron/shared/text';
import type { VoiceInfo } from '../../../electron/shared/voices';

/**
 * Billable characters, as the server counts them: code points of the cleaned NFC text; of SSML,
 * its spoken text (markup is free). SSML that does not parse yet, while being typed, counts as
 * written. Linear time.
 */
export function countCharacters(text: string): number {
  const cleaned = cleanText(text);
  if (isSsml(cleaned)) {
    try {
      return countCleanCharacters(parseSsml(cleaned).text);
    } catch {
      // Half-typed markup: the server will say what is wrong at Generate; until then, an upper bound.
    }
  }
  return countCleanCharacters(cleaned);
}

/** Credits for `characters` at the voice's price per 1000; std-v1.5-turbo halves it on standard voices. */
export function estimateCredits(
  characters: number,
  voice: Pick<VoiceInfo, 'price' | 'standard'>,
  modelId: ModelId,
): number {
  return costMilli(characters, voice, modelId) / MILLI_PER_CREDIT;
}

/** Speech runs at about 17 characters a second at speed 1.0; duration scales as 1/speed. Seconds. */
export const CHARS_PER_SECOND = 17;

export function estimateSeconds(characters: number, speedRate: number): number {
  return characters / (CHARS_PER_SECOND * speedRate);
}
