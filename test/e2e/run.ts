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
import { buildUiIfStale, ROOT } from '../../electron/launch/build';
import { compileServe, shareBrowser } from './harness';

/**
 * `npx tsx test/e2e/run.ts projects export`: only the suites named (all without a name).
 * `--jobs 1`: one suite at a time (default 2: the suites mostly wait on the server and the page,
 * so two share the machine; each keeps its own server, and its lines are printed when it ends).
 */
const args = process.argv.slice(2);
const jobsAt = args.indexOf('--jobs');
const jobs = jobsAt >= 0 ? Number(args.splice(jobsAt, 2)[1]) : 2;
if (!Number.isInteger(jobs) || jobs < 1)
  throw new Error('--jobs takes a whole number of suites at a time, 1 or more');
const only = args;
/** The longest suite takes about 2.5 min on a CI machine (vietnamese, two at a time). */
const SUITE_LIMIT_MS = 8 * 60_000;
/** The longest first (the last CI run's times), so that the two at a time end together. */
const suites: [string, (log: (line: string) => void) => Promise<void>][] = [
  ['vietnamese', runVietnameseE2e],
  ['accessibility', runAccessibilityE2e],
  ['projects', runProjectsE2e],
  ['first-run', runFirstRunE2e],
  ['workbench', runWorkbenchE2e],
  ['studio', runStudioE2e],
  ['studio-keyboard', runStudioKeyboardE2e],
  ['keyboard-focus', runKeyboardFocusE2e],
  ['lexicon', runLexiconE2e],
  ['reading', runReadingE2e],
  ['dialogue', runDialogueE2e],
  ['export', runExportE2e],
  ['quick-studio', runQuickStudioE2e],
  ['voice-mapping', runVoiceMappingE2e],
  ['voice-library', runVoiceLibraryE2e],
  ['custom-voices', runCustomVoicesE2e],
  ['small-windows', runSmallWindowsE2e],
  ['layouts', runLayoutsE2e],
  ['addresses', runAddressesE2e],
  ['shortcuts', runShortcutsE2e],
  ['sign-in-lasts', runSignInLastsE2e],
  ['sub-path', runSubPathE2e],
  ['text-language', runTextLanguageE2e],
  ['errors-vietnamese', runErrorsVietnameseE2e],
];

const started = Date.now();
const chosen = suites.filter(([name]) => only.length === 0 || only.includes(name));
const unknown = only.filter((name) => !suites.some(([known]) => known === name));
if (unknown.length > 0) throw new Error(`no e2e suite named ${unknown.join(', ')}`);
let passed = 0;
const times: string[] = [];
const failures: string[] = [];
// The studio UI the suites load: built only when its sources are newer than dist/renderer (in CI
// the slow tier's browser tests have built it already).
buildUiIfStale(ROOT, process.stdout);
const removeCli = await compileServe();
const closeBrowser = await shareBrowser();
try {
  const queue = [...chosen];
  const lane = async () => {
    for (let next = queue.shift(); next && failures.length === 0; next = queue.shift()) {
      const [name, run] = next;
      const lines: string[] = [];
      const log = (line: string) => {
        if (line.startsWith('✓')) passed++;
        lines.push(line);
      };
      const suiteStarted = Date.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        // A suite stuck on a wait with no time limit of its own (a page.evaluate that never
        // settles) fails with its name and its lines so far, instead of holding CI to its end.
        const stuck = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new Error(`did not finish within ${SUITE_LIMIT_MS / 60_000} min (stuck after its last line)`),
              ),
            SUITE_LIMIT_MS,
          );
        });
        await Promise.race([run(log), stuck]);
      } catch (error) {
        failures.push(`${name}: ${(error as Error).stack ?? String(error)}`);
      } finally {
        clearTimeout(timer);
        const seconds = ((Date.now() - suiteStarted) / 1000).toFixed(1);
        times.push(`${name} ${seconds} s`);
        process.stdout.write(`== ${name} (${seconds} s)\n${lines.map((line) => `${line}\n`).join('')}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, chosen.length) }, lane));
} finally {
  await closeBrowser();
  removeCli();
}
process.stdout.write(`e2e suites: ${times.join(', ')}\n`);
process.stdout.write(`e2e finished in ${((Date.now() - started) / 1000).toFixed(1)} s (${jobs} at a time)\n`);
if (failures.length > 0) {
  process.stderr.write(`e2e FAILED: ${failures.join('\n')}\n`);
  process.exitCode = 1;
}
process.stdout.write(`e2e: ${passed} passed, ${failures.length} failed\n`);
