import { defineConfig } from 'vitest/config';
import base from './vitest.config';

/**
 * `npm run test:postgres`: what differs between the two databases, on PostgreSQL: each test gets
 * a fresh database on a throwaway server (test/fixtures/test-store.ts). Tests of SQLite's own file
 * handling skip themselves. (Spread, not mergeConfig: merging would append this `include` to the
 * base's whole suite.)
 *
 * Why these files and not every server and CLI test (105 files, 14 min): the routes, the CLI and
 * the HTTP layer are the same code on both databases; what differs is the store under them. So:
 * - the store contract (every repository method, each dialect's SQL: test/core/store/**), the
 *   job queue on it (leases, claims, requeues, shared events: test/core/jobs/**) and the project
 *   service over it (test/core/projects/project-service.test.ts);
 * - a few end-to-end server flows that together go through every repository method the server
 *   calls (111 of the 119 repository methods have a caller outside electron/core/store; grep of
 *   `<repo>.<method>` over electron/). Chosen by measurement: candidate files were run once on
 *   SQLite with a temporary trace around `openStore`'s repositories (a Proxy writing `repo.method`
 *   on its first call; not committed) and the smallest set kept whose union reaches them: api
 *   (requests, keys, ledger, callbacks, idempotency expiry), exports (the exports queue),
 *   projects-routes and project-renders-routes (projects, renders), custom-voice-owners (every
 *   custom-voices method, project cast edits), studio and studio-key-revocation (sessions, the
 *   ledger transfer in one transaction), idempotency (stored answers, and across a restart on one
 *   database), callback-attempt-pages (callbacks' pages and counts), restart and export-restart
 *   (a killed instance's leased requests and exports taken over on the shared database: no store
 *   or jobs test reaches `exports.requeueExpired`). Files the trace showed add nothing:
 *   exports-of-several-keys, key-traffic. (Issue 41, round 2: the trace ran on a machine at load
 *   40; where a file timed out before a method, the method's route and the file testing it were
 *   read instead.) The rest of the server and CLI files run on SQLite only;
 * - the CLI where the database is the subject: serve-keys (`keys` while `serve` runs on the
 *   same PostgreSQL database) and process-errors (an unreachable database, one line).
 * A new server test goes here only if it reaches a repository method none of these reaches, or
 * holds a test that runs only on PostgreSQL (test/postgres-selection.test.ts checks that).
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
      'test/core/server/api.test.ts',
      'test/core/server/exports.test.ts',
      'test/core/server/projects-routes.test.ts',
      'test/core/server/project-renders-routes.test.ts',
      'test/core/server/custom-voice-owners.test.ts',
      'test/core/server/studio.test.ts',
      'test/core/server/studio-key-revocation.test.ts',
      'test/core/server/idempotency.test.ts',
      'test/core/server/callback-attempt-pages.test.ts',
      'test/core/server/restart.test.ts',
      'test/core/server/export-restart.test.ts',
      // Its shared-database refusal of internal callbacks runs only here.
      'test/core/server/internal-callbacks.test.ts',
      'test/core/cli/serve-keys.test.ts',
      'test/core/cli/process-errors.test.ts',
    ],
    env: { NARRATION_TEST_DATABASE: 'postgres' },
    fileParallelism: true,
    maxWorkers: 2,
  },
});
