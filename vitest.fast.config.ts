import { defineConfig } from 'vitest/config';
import base from './vitest.config';
import { testTiers } from './test/tiers';

/**
 * `npm run test:fast`: the unit tests (no real engine, core, process, thread, browser or
 * PostgreSQL server; the rule is test/tiers.ts), files in parallel: they share nothing but the
 * CPU. Its own small timeout: a fast test that needs more is in the wrong tier.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: testTiers().fast,
    fileParallelism: true,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
