import { defineConfig } from 'vitest/config';

/**
 * The whole vitest suite (`npx vitest run <file>` for one file, `test:postgres`'s base). The
 * tiers (`npm run test:fast`, `npm run test:slow`) are vitest.fast.config.ts and
 * vitest.slow.config.ts, split by the rule in test/tiers.ts.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One file at a time for a run of chosen files; the tiers' configs run two at a time.
    fileParallelism: false,
  },
});
