import { defineConfig } from 'vitest/config';
import base from './vitest.config';
import { testTiers } from './test/tiers';

/**
 * `npm run test:fast`: the unit tests (no real engine, core, process, thread, browser or
 * PostgreSQL server; the rule is test/tiers.ts), two files at a time: they share nothing but the
 * CPU. (vitest's default on a 2-core machine is one worker: cores − 1; two workers took the tier
 * from 121 s to 82 s on a quiet 2-core machine.) The base config's timeouts: a loaded machine must
 * not fail a test that is merely late.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: testTiers().fast,
    fileParallelism: true,
    maxWorkers: 2,
  },
});
