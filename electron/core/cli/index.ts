#!/usr/bin/env node
/**
 * Headless entry: the studio's core under plain Node, without Electron.
 *   say    synthesise text to an audio file
 *   export a book with chapters to an audiobook (M4B, MP3 or a folder), mastered
 *   serve  run the local API server (and the UI)
 *   keys   create, list and revoke API keys
 *   voices the neural voice library: catalogue, install, remove, assign
 *   lexicon the pronunciation lexicon: list, add, remove, import, export
 *   cache  the sentence cache: stats, clear
 *   project book projects: import, list, show, edit, delete
 * Composition root for headless mode: only here (and in the commands it runs) are real
 * implementations and paths wired.
 */

import process from 'node:process';
import { moveDataOutOfProfile } from '../platform/paths';
import { keepNewFilesPrivate } from '../platform/private-files';
import { startEspeakWorkerEarly } from '../engine/espeak/early-worker';
import { sayWillSpeak } from './speech-options';

type Command = (argv: string[]) => Promise<number>;

// Each command is loaded when it runs: `say` never loads the server or the store, and `--help`
// loads nothing (the compiled CLI keeps each in its own chunk; see electron/launch/build.ts).
const COMMANDS = new Map<string, () => Promise<Command>>([
  ['say', async () => (await import('./say-command')).runSay],
  ['export', async () => (await import('./export-command')).runExport],
  ['serve', async () => (await import('./serve-command')).runServe],
  ['keys', async () => (await import('./keys-command')).runKeys],
  ['voices', async () => (await import('./voices-command')).runVoices],
  ['lexicon', async () => (await import('./lexicon-command')).runLexicon],
  ['cache', async () => (await import('./cache-command')).runCache],
  ['project', async () => (await import('./project-command')).runProject],
]);

/** Commands that write only the files the user names (their modes follow the user's umask). */
const USER_FILE_COMMANDS = new Set(['say', 'export']);

const USAGE = `usage: narration-studio <command> [options]
commands:
  say     synthesise text to an audio file (say --help)
  export  a book with chapters to an M4B, an MP3 or a folder, mastered (export --help)
  serve   run the local API server (serve --help)
  keys    create, list or revoke API keys (keys --help)
  voices  install, list, remove and assign neural voices (voices --help)
  lexicon list, add, remove, import and export pronunciations (lexicon --help)
  cache   size of the sentence cache, or clear it (cache --help)
  project book projects: import a manuscript, list, show, edit (project --help)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const load = command === undefined ? undefined : COMMANDS.get(command);
  if (command === 'say' && sayWillSpeak(rest)) void startEspeakWorkerEarly();
  if (load) {
    // macOS and Windows: data that earlier versions kept beside Chromium's profile moves into
    // its own folder, once, when a command uses the default data folder (the desktop app does
    // the same).
    try {
      const moved = rest.some((arg) => arg === '--data-dir' || arg.startsWith('--data-dir='))
        ? []
        : moveDataOutOfProfile();
      if (moved.length > 0) process.stderr.write(`moved ${moved.join(', ')} into the data folder\n`);
    } catch (error) {
      process.stderr.write(`error: ${(error as Error).message}\n`);
      return 1;
    }
    // What the commands of the data folder write is its user's alone, as under `serve`
    // (private-files.ts); `say` and `export` write the user's own files where they are told.
    if (!USER_FILE_COMMANDS.has(command!)) keepNewFilesPrivate();
    return (await load())(rest);
  }
  if (command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command === undefined) process.stdout.write(`${USAGE}\n`);
  else process.stderr.write(`unknown command "${command}"\n${USAGE}\n`);
  return 2;
}

// A reader that stops early (`say --list-voices | head`) is not an error: stop quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await main(process.argv.slice(2));
