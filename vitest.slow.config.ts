import { defineConfig } from 'vitest/config';
import base from './vitest.config';
import { testTiers } from './test/tiers';

/**
 * `npm run test:slow`: every test file the fast tier leaves (test/tiers.ts), with real parts end
 * to end: the engine, the full core, processes, threads, a browser. One file at a time, as the
 * base config.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: testTiers().slow,
  },
});
