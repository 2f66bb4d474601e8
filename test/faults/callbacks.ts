/** Fault scenarios: callbacks (to be written). */

import type { Scenario } from './harness';

export const scenarios: Scenario[] = [];
