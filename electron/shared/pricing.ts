/**
 * Pricing, exact: costs are integer milli-credits (1 credit = 1000 milli). A voice's price is
 * in credits per 1000 characters, so a request of `n` characters costs `n × price`
 * milli-credits; std-v1.5-turbo halves it on standard voices (prices are even, so the half is
 * still an integer). Shared by the server (charges) and the renderer (estimates).
 */

import type { ModelId } from './options';
import type { VoiceInfo } from './voices';

export const MILLI_PER_CREDIT = 1000;

export function costMilli(
  characters: number,
  voice: Pick<VoiceInfo, 'price' | 'standard'>,
  modelId: ModelId,
): number {
  const full = characters * voice.price;
  return voice.standard && modelId === 'std-v1.5-turbo' ? full / 2 : full;
}

/** Default balance of a new key: 1,000,000 credits. */
export const DEFAULT_BALANCE_MILLI = 1_000_000 * MILLI_PER_CREDIT;

/** Milli-credits as a credits number (exact to 0.001 in JSON). */
export function toCredits(milli: number): number {
  return milli / MILLI_PER_CREDIT;
}
