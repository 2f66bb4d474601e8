/** `npm run test:e2e`: runs the browser tests (plain tsx, not vitest) and exits non-zero on failure. */

import { runAddressesE2e } from './addresses.e2e';
import { runAccessibilityE2e } from './accessibility.e2e';
import { runCustomVoicesE2e } from './custom-voices.e2e';
import { runDialogueE2e } from './dialogue.e2e';
import { runExportE2e } from './export.e2e';
import { runFirstRunE2e } from './first-run.e2e';
import { runLayoutsE2e } from './layouts.e2e';
import { runKeyboardFocusE2e } from './keyboard-focus.e2e';
import { runLexiconE2e } from './lexicon.e2e';
import { runQuickStudioE2e } from './quick-studio.e2e';
import { runReadingE2e } from './reading.e2e';
import { runShortcutsE2e } from './shortcuts.e2e';
import { runSignInLastsE2e } from './sign-in-lasts.e2e';
import { runProjectsE2e } from './projects.e2e';
import { runSmallWindowsE2e } from './small-windows.e2e';
import { runStudioE2e } from './studio.e2e';
import { runStudioKeyboardE2e } from './studio-keyboard.e2e';
import { runSubPathE2e } from './sub-path.e2e';
import { runVietnameseE2e } from './vietnamese.e2e';
import { runTextLanguageE2e } from './text-language.e2e';
import { runErrorsVietnameseE2e } from './errors-vietnamese.e2e';
import { runVoiceLibraryE2e } from './voice-library.e2e';
import { runVoiceMappingE2e } from './voice-mapping.e2e';
import { runWorkbenchE2e } from './workbench.e2e';

/** `npx tsx test/e2e/run.ts projects export`: only the suites named (all without a name). */
const only = process.argv.slice(2);
const suites: [string, (log: (line: string) => void) => Promise<void>][] = [
  ['studio', runStudioE2e],
  ['studio-keyboard', runStudioKeyboardE2e],
  ['keyboard-focus', runKeyboardFocusE2e],
  ['lexicon', runLexiconE2e],
  ['reading', runReadingE2e],
  ['dialogue', runDialogueE2e],
  ['export', runExportE2e],
  ['quick-studio', runQuickStudioE2e],
  ['voice-mapping', runVoiceMappingE2e],
  ['projects', runProjectsE2e],
  ['voice-library', runVoiceLibraryE2e],
  ['first-run', runFirstRunE2e],
  ['custom-voices', runCustomVoicesE2e],
  ['workbench', runWorkbenchE2e],
  ['small-windows', runSmallWindowsE2e],
  ['layouts', runLayoutsE2e],
  ['addresses', runAddressesE2e],
  ['shortcuts', runShortcutsE2e],
  ['accessibility', runAccessibilityE2e],
  ['sign-in-lasts', runSignInLastsE2e],
  ['sub-path', runSubPathE2e],
  ['vietnamese', runVietnameseE2e],
  ['text-language', runTextLanguageE2e],
  ['errors-vietnamese', runErrorsVietnameseE2e],
];

const started = Date.now();
let passed = 0;
try {
  const log = (line: string) => {
    if (line.startsWith('✓')) passed++;
    process.stdout.write(`${line}\n`);
  };
  const times: string[] = [];
  for (const [name, run] of suites) {
    if (only.length > 0 && !only.includes(name)) continue;
    const suiteStarted = Date.now();
    await run(log);
    times.push(`${name} ${((Date.now() - suiteStarted) / 1000).toFixed(1)} s`);
  }
  process.stdout.write(`e2e suites: ${times.join(', ')}\n`);
  process.stdout.write(`e2e finished in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`e2e: ${passed} passed, 0 failed\n`);
} catch (error) {
  process.stderr.write(`e2e FAILED: ${(error as Error).stack ?? String(error)}\n`);
  process.stdout.write(`e2e: ${passed} passed, 1 failed\n`);
  process.exitCode = 1;
}
