/** Fault scenarios: kill9 (to be written). */

import type { Scenario } from './harness';

export const scenarios: Scenario[] = [];
