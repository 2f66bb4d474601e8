import { defineConfig } from 'vitest/config';
import base from './vitest.config';

/**
 * `npm run test:postgres`: the tests whose behaviour both databases share (store, jobs,
 * projects, server, CLI), on PostgreSQL: each test gets a fresh database on a throwaway server
 * (test/fixtures/test-store.ts). Tests of SQLite's own file handling skip themselves.
 * (Spread, not mergeConfig: merging would append this `include` to the base's whole suite.)
 *
 * Files run in parallel here, unlike the base run: every test has a database of its own (named
 * after the process, test/fixtures/postgres.ts), temp folders and ports of its own, and the time
 * goes to waiting on the server (creating a database, migrating it, each commit), not to the CPU.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: [
      'test/core/store/**/*.test.ts',
      'test/core/jobs/**/*.test.ts',
      'test/core/projects/project-service.test.ts',
      'test/core/server/**/*.test.ts',
      'test/core/cli/**/*.test.ts',
    ],
    env: { NARRATION_TEST_DATABASE: 'postgres' },
    fileParallelism: true,
    maxWorkers: 2,
  },
});
