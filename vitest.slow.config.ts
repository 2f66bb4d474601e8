import { defineConfig } from 'vitest/config';
import base from './vitest.config';
import { testTiers } from './test/tiers';

/**
 * `npm run test:slow`: every test file the fast tier leaves (test/tiers.ts), with real parts end
 * to end: the engine, the full core, processes, threads, a browser. Two files at a time: much of a
 * slow file's time is waiting (for a child process, a server's start, a callback, a lease), which
 * the other file fills. On a quiet 2-core machine the tier took 12.6 min with two workers (1,427 s
 * of CPU, 188 % of one core) against 28.5 min one file at a time in the last CI. Every file has
 * its own temp folders, ports and data directory, so two can run side by side.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: testTiers().slow,
    fileParallelism: true,
    maxWorkers: 2,
  },
});
