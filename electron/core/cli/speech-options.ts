/**
 * The options that decide whether `say` speaks: `--out` and the ones that answer instead
 * (`--help`, `--list-voices`; `say --show-reading`). Light on purpose: the CLI's entry reads them
 * before loading any command, to start eSpeak's worker early (early-worker.ts).
 */

import { parseArgs } from 'node:util';

/** The options `say` and `export` share that choose between a file and an answer. */
export const OUT_OR_ANSWER_OPTIONS = {
  out: { type: 'string', short: 'o' },
  'list-voices': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `say`'s own options (besides the shared ones of speech-command-line.ts). */
export const SAY_OPTIONS = {
  format: { type: 'string' },
  bitrate: { type: 'string' },
  srt: { type: 'string' },
  timings: { type: 'string' },
  chapters: { type: 'string' },
  'show-reading': { type: 'boolean' },
} as const;

/**
 * Whether `say`'s arguments ask for audio: an `--out` and nothing that answers instead. Lenient
 * (unknown options are `say`'s to report); a wrong guess costs only an idle worker.
 */
export function sayWillSpeak(argv: readonly string[]): boolean {
  const { values } = parseArgs({
    args: [...argv],
    options: { ...OUT_OR_ANSWER_OPTIONS, ...SAY_OPTIONS },
    strict: false,
    allowPositionals: true,
  });
  return typeof values.out === 'string' && !values.help && !values['list-voices'] && !values['show-reading'];
}
