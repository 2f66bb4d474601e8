/** `npm run test:e2e`: runs the browser tests (plain tsx, not vitest) and exits non-zero on failure. */

import { runStudioE2e } from './studio.e2e';

const started = Date.now();
try {
  await runStudioE2e((line) => process.stdout.write(`${line}\n`));
  process.stdout.write(`e2e passed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
} catch (error) {
  process.stderr.write(`e2e FAILED: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
}
