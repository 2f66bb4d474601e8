/** `npm run test:e2e`: runs the browser tests (plain tsx, not vitest) and exits non-zero on failure. */

import { runDialogueE2e } from './dialogue.e2e';
import { runExportE2e } from './export.e2e';
import { runLexiconE2e } from './lexicon.e2e';
import { runQuickStudioE2e } from './quick-studio.e2e';
import { runStudioE2e } from './studio.e2e';
import { runVoiceMappingE2e } from './voice-mapping.e2e';

const started = Date.now();
let passed = 0;
try {
  const log = (line: string) => {
    if (line.startsWith('✓')) passed++;
    process.stdout.write(`${line}\n`);
  };
  await runStudioE2e(log);
  await runLexiconE2e(log);
  await runDialogueE2e(log);
  await runExportE2e(log);
  await runQuickStudioE2e(log);
  await runVoiceMappingE2e(log);
  process.stdout.write(`e2e finished in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`e2e: ${passed} passed, 0 failed\n`);
} catch (error) {
  process.stderr.write(`e2e FAILED: ${(error as Error).stack ?? String(error)}\n`);
  process.stdout.write(`e2e: ${passed} passed, 1 failed\n`);
  process.exitCode = 1;
}
