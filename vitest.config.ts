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
    // A worker runs its files one after another in one process, without loading every module
    // again for each file (vitest's default isolates each file in a fresh module graph). Measured
    // side by side on a quiet 2-core machine: the fast tier 80.6 → 39.5 s (CPU 144 → 63 s), the
    // slow tier 630 → 524 s (CPU 1,180 → 980 s): the engine, fastify and the store load once per
    // worker, not once per file. So a file restores what it changes (fake timers, process.env,
    // module settings such as MANUSCRIPT_LIMITS), and a test about a fresh process's state runs a
    // child process (test/core/engine/onnx/runtime-problem.test.ts). The settings below undo stubs
    // a file forgot.
    isolate: false,
    unstubEnvs: true,
    unstubGlobals: true,
    restoreMocks: true,
    // The CLI compiled once for the run, and run by every file (test/fixtures/compiled-cli-*.ts).
    globalSetup: ['test/fixtures/compiled-cli-global.ts'],
    setupFiles: ['test/fixtures/compiled-cli-setup.ts'],
  },
});
