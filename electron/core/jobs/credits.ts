/** Balances in integer milli-credits; the price rule itself is shared (electron/shared/pricing.ts). */

import { MILLI_PER_CREDIT } from '../../shared/pricing';

export { costMilli, MILLI_PER_CREDIT } from '../../shared/pricing';

/** Default balance of a new key: 1,000,000 credits. */
export const DEFAULT_BALANCE_MILLI = 1_000_000 * MILLI_PER_CREDIT;

/** Milli-credits as a credits number (exact to 0.001 in JSON). */
export function toCredits(milli: number): number {
  return milli / MILLI_PER_CREDIT;
}
