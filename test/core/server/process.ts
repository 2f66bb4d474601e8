/** Runs the headless server in its own process, as a user would. */

import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompiledCli } from '../../fixtures/compiled-cli';
import { fetchUrl } from './helpers';

export const ENTRY = join(process.cwd(), 'electron/core/cli/index.ts');

/**
 * How a test runs the CLI: under vitest by default the run's compiled CLI (≈ 0.8 s of CPU a start:
 * the bundle a user runs; test/fixtures/compiled-cli-setup.ts), elsewhere from its sources
 * (`node --import tsx`, which compiles them again at each start, ≈ 2.3 s) unless a caller passes
 * one (the fault and load suites compile theirs once a run).
 */
export type CliRunner = Pick<CompiledCli, 'args'>;

const fromSources: CliRunner = { args: (...args) => ['--import', 'tsx', ENTRY, ...args] };
let defaultCli: CliRunner = fromSources;

/** The CLI that `startServerProcess` and `runEntry` run when not given one. */
export function runCliFrom(cli: CliRunner): void {
  defaultCli = cli;
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process printed so far. */
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/**
 * Starts `serve` and resolves once it printed its "listening on" line. With `logFile`, its
 * standard error (the log) goes to that file, as an operator's redirection would have it.
 */
export function startServerProcess(
  args: string[],
  logFile?: string,
  cli: CliRunner = defaultCli,
): Promise<ServerProcess> {
  const logFd = logFile === undefined ? undefined : openSync(logFile, 'w');
  const child = spawn(process.execPath, cli.args('serve', ...args), {
    stdio: ['pipe', 'pipe', logFd ?? 'pipe'],
  });
  if (logFd !== undefined) closeSync(logFd);
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/m.exec(out);
      const stderr = () => (logFile === undefined ? err : readFileSync(logFile, 'utf8'));
      if (match) resolve({ child, url: match[1]!, stdout: () => out, stderr, exited });
    });
    void exited.then((code) =>
      reject(
        new Error(
          `server exited with ${code} before listening: ${logFile ? readFileSync(logFile, 'utf8') : err}`,
        ),
      ),
    );
  });
}

/** Runs a command of the entry to completion. */
export function runEntry(
  args: string[],
  cli: CliRunner = defaultCli,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, cli.args(...args), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/**
 * The `serve` arguments of a kill-and-restart test: the data folder, the key, two engine
 * workers, and on the PostgreSQL run the database with a 3 s lease (the new instance takes the
 * killed one's work over within seconds); `extra` after them.
 */
export function restartServeArgs(
  dir: string,
  key: string,
  databaseUrl: string | undefined,
  extra: string[] = [],
) {
  return [
    '--port',
    '0',
    '--data-dir',
    dir,
    '--api-key',
    key,
    '--pool-size',
    '2',
    ...extra,
    // A shared database makes the server refuse internal callback addresses; the receivers are local.
    ...(databaseUrl ? ['--database', databaseUrl, '--lease', '3', '--allow-callback-host', '127.0.0.1'] : []),
  ];
}

/** A call to a server process with `key` as its bearer key, and `body` as JSON when given. */
export function keyCall(base: string, key: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  return fetchUrl(`${base}${path}`, method, {
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}
