/**
 * Headless `serve` never dies silently: a stray rejected promise is logged and serving goes
 * on; an uncaught exception is logged and the server stops in order with exit code 1. Run
 * as a real `serve` process, with a preloaded module that raises both on request.
 */

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installProcessErrorHandlers } from '../../../electron/core/cli/process-errors';
import type { Log } from '../../../electron/core/platform/log';
import { openStore } from '../../../electron/core/store';
import { dataPaths } from '../../../electron/core/platform/paths';
import { fetchUrl } from '../server/helpers';
import { ENTRY } from '../server/process';
import { testDatabase, type TestDatabase } from '../../fixtures/test-store';

let dir: string;
/** The run's database: serve keeps its requests in PostgreSQL on the PostgreSQL run. */
let database: TestDatabase;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'process-errors-test-'));
  database = await testDatabase();
});
afterEach(async () => {
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function until(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('serve and errors nothing caught', () => {
  it('logs a stray rejection and keeps serving; stops in order with exit 1 on an uncaught exception', async () => {
    // Raises, inside the serve process, what a background bug would: a rejection nobody
    // handles, then an exception nobody catches.
    const preload = join(dir, 'raise.mjs');
    const rejectFile = join(dir, 'reject-now');
    const throwFile = join(dir, 'throw-now');
    writeFileSync(
      preload,
      `import { existsSync, rmSync } from 'node:fs';
       import { isMainThread } from 'node:worker_threads';
       // --import runs in worker threads too (the engine's): raise in the main thread only.
       const timer = isMainThread && setInterval(() => {
         if (existsSync(${JSON.stringify(rejectFile)})) {
           rmSync(${JSON.stringify(rejectFile)});
           Promise.reject(new Error('stray background failure'));
         }
         if (existsSync(${JSON.stringify(throwFile)})) {
           clearInterval(timer);
           throw new Error('kaboom in a timer');
         }
       }, 20);
       if (timer) timer.unref();`,
    );
    const dataDir = join(dir, 'data');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        preload,
        ENTRY,
        'serve',
        '--port',
        '0',
        '--data-dir',
        dataDir,
        '--pool-size',
        '1',
        ...(database.databaseUrl ? ['--database', database.databaseUrl] : []),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await until('listening', () => /listening on (\S+)\n/.test(out));
      const url = /listening on (\S+)\n/.exec(out)![1]!;

      writeFileSync(rejectFile, '');
      await until('the rejection to be logged', () => err.includes('unhandled rejection')).catch(
        (e: unknown) => {
          throw new Error(`${(e as Error).message}; stderr: ${err}`);
        },
      );
      expect(err).toContain('warning: unhandled rejection (still serving): Error: stray background failure');
      const health = await fetchUrl(`${url}/api/v1/health`, 'GET');
      expect(health.status).toBe(200);
      expect(child.exitCode).toBeNull();

      writeFileSync(throwFile, '');
      expect(await exited).toBe(1);
      expect(err).toContain('warning: uncaught exception: Error: kaboom in a timer');
      expect(err).toContain('; shutting down');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    if (database.databaseUrl) {
      // Stopped in order, and the database opens and works.
      const store = await openStore({ url: database.databaseUrl });
      expect(await store.keys.list()).toEqual([]);
      await store.close();
    } else {
      // Stopped in order: the store was closed (closing checkpoints and removes the WAL file),
      // and the data directory is free.
      const file = dataPaths(dataDir).database;
      expect(existsSync(`${file}-wal`), err).toBe(false);
      await (await openStore({ path: file })).close();
    }
  });
});

describe('installProcessErrorHandlers', () => {
  it('after an uncaught exception, exits at once on a second one or when the shutdown hangs', async () => {
    const lines: string[] = [];
    const log: Log = { info: (m) => lines.push(m), warn: (m) => lines.push(m) };
    const exits: number[] = [];
    let stops = 0;
    const handlers = installProcessErrorHandlers({
      log,
      stop: () => {
        stops++;
        return new Promise<void>(() => {});
      },
      exit: (code) => exits.push(code),
      stopLimitMs: 50,
    });
    try {
      handlers.onUnhandledRejection('not an error');
      expect(lines).toEqual(['unhandled rejection (still serving): not an error']);
      handlers.onUncaughtException(new Error('first'));
      expect(stops).toBe(1);
      expect(lines[1]).toMatch(/^uncaught exception: Error: first\n/);
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect(exits).toEqual([1]);
      expect(lines[2]).toBe('shutdown after the uncaught exception did not finish; exiting at once');
      handlers.onUncaughtException(new Error('second'));
      expect(stops).toBe(1);
      expect(exits).toEqual([1, 1]);
    } finally {
      handlers.uninstall();
    }
  });
});
