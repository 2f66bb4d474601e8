/**
 * Headless entry: the studio's core under plain Node, without Electron.
 *   say    synthesise text to an audio file
 *   serve  run the local API server (and the UI)
 *   keys   create, list and revoke API keys
 * Composition root for headless mode: only here are real implementations and paths wired.
 */

import { describeSayError, runSay } from './say-command';
import { runKeys, runServe } from './server/commands';

const USAGE = `usage: cli <command> [options]
commands:
  say     synthesise text to an audio file (say --help)
  serve   run the local API server (serve --help)
  keys    create, list or revoke API keys (keys --help)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'say':
      try {
        await runSay(rest);
        return 0;
      } catch (error) {
        process.stderr.write(`${describeSayError(error)}\n`);
        return 2;
      }
    case 'serve':
      await runServe(rest);
      return Number(process.exitCode ?? 0);
    case 'keys':
      await runKeys(rest);
      return Number(process.exitCode ?? 0);
    case undefined:
    case '--help':
    case '-h':
      process.stdout.write(`${USAGE}\n`);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`unknown command "${command}"\n${USAGE}\n`);
      return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
