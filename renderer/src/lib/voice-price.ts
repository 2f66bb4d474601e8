/**
 * A voice's price in words, its numbers in the interface's locale: "1,000 credits per 1,000
 * characters", "1.000 tín dụng cho 1.000 ký tự" (the voice pickers, the Studio's estimate, the
 * Voices view's price filter).
 */

import { defineMessage, type IntlShape } from 'react-intl';
import { currentIntl } from './intl-text';

/** Characters a catalogue price is for (VoiceInfo.price: credits per 1,000 characters). */
export const PRICE_CHARACTERS = 1000;

const PRICE = defineMessage<{ credits: number; characters: number }>({
  id: 'components.voice.price',
  defaultMessage: '{credits, plural, one {# credit} other {# credits}} per {characters, number} characters',
});

/** `credits` per 1,000 characters, in words of the interface's language. */
export function voicePrice(credits: number, intl: IntlShape = currentIntl()): string {
  return intl.formatMessage(PRICE, { credits, characters: PRICE_CHARACTERS });
}
