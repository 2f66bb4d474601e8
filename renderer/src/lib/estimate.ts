/** Live estimates shown while composing. They mirror the server's pricing (jobs/credits.ts). */

import type { ModelId } from '../../../electron/shared/options';
import type { VoiceInfo } from '../../../electron/shared/voices';

// The same cleaning as the engine's cleanText (electron/core/engine/text.ts), which the renderer
// may not import: line breaks normalised, controls and invisible format characters dropped.
const CLEAN_RE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /\r\n?|[\u000B\u000C\u0085\u2028\u2029]|[\u0000-\u0008\u000E-\u001F\u007F-\u0084\u0086-\u009F\u00AD\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function cleanReplacement(match: string): string {
  const c = match.charCodeAt(0);
  if (c === 0x0d || c === 0x0b || c === 0x0c || c === 0x85 || c === 0x2028) return '\n';
  if (c === 0x2029) return '\n\n';
  if (c >= 0xd800 && c <= 0xdfff) return '\uFFFD';
  return '';
}

/** Billable characters, as the server counts them: code points of the cleaned NFC text. Linear time. */
export function countCharacters(text: string): number {
  const clean = text.replace(CLEAN_RE, cleanReplacement).normalize('NFC');
  let count = 0;
  for (let i = 0; i < clean.length; i++) {
    const c = clean.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const prev = clean.charCodeAt(i - 1);
      if (prev >= 0xd800 && prev <= 0xdbff) continue;
    }
    count++;
  }
  return count;
}

/** Credits for `characters` at the voice's price per 1000; std-v1.5-turbo halves it on standard voices. */
export function estimateCredits(
  characters: number,
  voice: Pick<VoiceInfo, 'price' | 'standard'>,
  modelId: ModelId,
): number {
  const milli = characters * voice.price;
  return (voice.standard && modelId === 'std-v1.5-turbo' ? milli / 2 : milli) / 1000;
}

/** Speech runs at about 17 characters a second at speed 1.0; duration scales as 1/speed. Seconds. */
export const CHARS_PER_SECOND = 17;

export function estimateSeconds(characters: number, speedRate: number): number {
  return characters / (CHARS_PER_SECOND * speedRate);
}
