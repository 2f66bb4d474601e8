/** Fault scenarios: storage (to be written). */

import type { Scenario } from './harness';

export const scenarios: Scenario[] = [];
