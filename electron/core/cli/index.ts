/**
 * Headless entry: the studio's core under plain Node, without Electron.
 *   say    synthesise text to an audio file
 *   serve  run the local API server (and the UI)
 *   keys   create, list and revoke API keys
 *   voices the neural voice library: catalogue, install, remove, assign
 * Composition root for headless mode: only here (and in the commands it runs) are real
 * implementations and paths wired.
 */

import { runKeys } from './keys-command';
import { runSay } from './say-command';
import { runServe } from './serve-command';
import { runVoices } from './voices-command';

const COMMANDS = new Map<string, (argv: string[]) => Promise<number>>([
  ['say', runSay],
  ['serve', runServe],
  ['keys', runKeys],
  ['voices', runVoices],
]);

const USAGE = `usage: cli <command> [options]
commands:
  say     synthesise text to an audio file (say --help)
  serve   run the local API server (serve --help)
  keys    create, list or revoke API keys (keys --help)
  voices  install, list, remove and assign neural voices (voices --help)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const run = command === undefined ? undefined : COMMANDS.get(command);
  if (run) return run(rest);
  if (command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command === undefined) process.stdout.write(`${USAGE}\n`);
  else process.stderr.write(`unknown command "${command}"\n${USAGE}\n`);
  return 2;
}

process.exitCode = await main(process.argv.slice(2));
