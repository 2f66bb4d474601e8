import { defineConfig } from 'vitest/config';
import base from './vitest.config';
import { testTiers } from './test/tiers';

/**
 * `npm run test:fast`: the unit tests (no real engine, core, process, thread, browser or
 * PostgreSQL server; the rule is test/tiers.ts), files in parallel: they share nothing but the
 * CPU. The base config's timeouts: a loaded machine must not fail a test that is merely late.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: testTiers().fast,
    fileParallelism: true,
  },
});
