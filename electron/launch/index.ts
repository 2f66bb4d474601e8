/**
 * `npm start`: builds what the desktop app needs and launches Electron. Where the Electron
 * binary is missing (it cannot be downloaded on every machine) or there is no display, says
 * so in one sentence and runs the headless server with the studio UI instead; `serve` then
 * prints the address to open, with its one-time login token.
 *   npm start [-- --headless] [-- serve options for the fallback]
 */

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { runServe } from '../core/cli/serve-command';
import { readSettings } from '../core/platform/settings-store';
import { DEFAULT_PORT } from '../shared/settings';
import { buildElectron, buildUiIfStale, ROOT } from './build';
import { decideLaunch, headlessServeArgs } from './decide';

function electronBinary(): { path: string } | { error: string } {
  try {
    // The electron package's main module exports the path of the downloaded binary.
    return { path: String(createRequire(import.meta.url)('electron')) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const args = process.argv.slice(2);
const decision = decideLaunch({
  platform: process.platform,
  env: process.env,
  args,
  electron: electronBinary(),
  fileExists: existsSync,
});

if (decision.mode === 'electron') {
  buildUiIfStale();
  await buildElectron();
  const env = { ...process.env };
  // Set by some tools; it would make the binary run as plain Node.
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(decision.binary, [ROOT, ...args], { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
} else {
  process.stderr.write(`${decision.reason}\n`);
  buildUiIfStale();
  let settings: Parameters<typeof headlessServeArgs>[1] = {
    port: DEFAULT_PORT,
    dataDir: null,
    allowedOrigins: [],
  };
  try {
    settings = readSettings();
  } catch (error) {
    process.stderr.write(`warning: settings not read (${(error as Error).message}); using the defaults\n`);
  }
  process.exitCode = await runServe(headlessServeArgs(args, settings));
}
