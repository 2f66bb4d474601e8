/**
 * The data directory's instance lock, against real processes: a crash (kill -9, pid reuse, a
 * dead holder nobody reaped) never blocks the next start; a live second instance is refused
 * with a message naming the process that holds the directory.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../electron/shared/errors';
import { openStore, type Store } from '../../../electron/core/store';
import { acquireInstanceLock, lockAddress } from '../../../electron/core/platform/instance-lock';
import { dataPaths } from '../../../electron/core/platform/paths';
import { createCore } from '../../../electron/core/studio-core';
import { UNUSED_ENGINE } from '../server/inject';
import { runEntry } from '../server/process';
import { useCompiledCli } from '../../fixtures/compiled-cli';
import { onPostgres } from '../../fixtures/test-store';

const isLinux = process.platform === 'linux';

/** test/fixtures/lock-holder.ts bundled once for the file's holder processes (beside node_modules). */
const bundleDir = mkdtempSync(join(tmpdir(), 'lock-holder-'));
const HOLDER = join(bundleDir, 'lock-holder.mjs');
beforeAll(async () => {
  symlinkSync(join(process.cwd(), 'node_modules'), join(bundleDir, 'node_modules'), 'junction');
  await build({
    entryPoints: [join(process.cwd(), 'test/fixtures/lock-holder.ts')],
    outfile: HOLDER,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
});
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));
/** `serve` as a user runs it: the compiled CLI (no sources compiled again in it and its workers). */
const compiled = useCompiledCli();

let dir: string;
let dbPath: string;
const stores: Store[] = [];
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'instance-lock-test-'));
  dbPath = join(dir, 'studio.db');
});

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  rmSync(dir, { recursive: true, force: true });
});

async function open(path = dbPath): Promise<Store> {
  const store = await openStore({ path });
  stores.push(store);
  return store;
}

async function lockedError(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('DATABASE_LOCKED');
    return error as AppError;
  }
  throw new Error('expected DATABASE_LOCKED');
}

/** Node's arguments for a holder process (test/fixtures/lock-holder.ts) of the test's database. */
const holderArgs = (mode: 'store' | 'idle' | 'socket-file', holder?: string) => [
  HOLDER,
  mode,
  dbPath,
  ...(holder ? [holder] : []),
];

/** Resolves with the pid the child (or its descendant) printed after "ready". */
function readyPid(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /ready (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`holder exited ${code}: ${err}`)));
  });
}

function startHolder(holder = 'Narration Studio test holder', detached = false): ChildProcess {
  // Opens the store (as `holder`), prints "ready <pid>" and stays alive.
  const child = spawn(process.execPath, holderArgs('store', holder), {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached,
  });
  children.push(child);
  return child;
}

/** State letter of a process from /proc (Z for a zombie), undefined once it is gone. */
function procState(pid: number): string | undefined {
  try {
    return /\) (\S) /.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

// The SQLite database's lock on its data directory: nothing to do with a PostgreSQL run.
describe.skipIf(onPostgres)('instance lock', () => {
  it('ignores and removes an old-style .owner pid file, even one naming a live process', async () => {
    // An unrelated live process: this test runner's parent, or init.
    const alive = process.ppid > 1 ? process.ppid : 1;
    writeFileSync(`${dbPath}.owner`, String(alive));
    const store = await open();
    expect(await store.keys.list()).toEqual([]);
    expect(existsSync(`${dbPath}.owner`)).toBe(false);
  });

  it('refuses a second live instance, naming its process and what it is', async () => {
    const child = startHolder('Narration Studio serve');
    const pid = await readyPid(child);
    const error = await lockedError(openStore({ path: dbPath }));
    expect(error.message).toBe(
      `The database ${dbPath} is in use by process ${pid} (Narration Studio serve). Stop it first.`,
    );
    expect(error.details).toMatchObject({ path: dbPath, pid });
    // Any spelling of the same file is the same lock.
    await lockedError(openStore({ path: join(dir, '.', 'x', '..', 'studio.db') }));
  });

  it('refuses a second open in the same process without waiting on itself', async () => {
    // Waiting on itself would hang until the test's timeout; the refusal comes at once.
    await open();
    const error = await lockedError(openStore({ path: dbPath, holder: 'other' }));
    expect(error.message).toContain(`in use by process ${process.pid} (Narration Studio)`);
  });

  it.runIf(isLinux)(
    'opens while the killed holder is still a zombie nobody reaped (its pid still "alive")',
    async () => {
      // sh starts the holder in the background, then becomes `sleep`, which never reaps it.
      const shell = spawn(
        'sh',
        [
          '-c',
          '"$0" "$@" & exec sleep 30',
          process.execPath,
          ...holderArgs('store', 'Narration Studio serve'),
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      children.push(shell);
      const pid = await readyPid(shell);
      await lockedError(openStore({ path: dbPath }));
      process.kill(pid, 'SIGKILL');
      const deadline = Date.now() + 5000;
      while (procState(pid) !== 'Z' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(procState(pid)).toBe('Z');
      // A pid check would call this process alive: kill(pid, 0) succeeds on a zombie.
      expect(() => process.kill(pid, 0)).not.toThrow();
      const store = await open();
      expect(await store.keys.list()).toEqual([]);
      expect(procState(pid)).toBe('Z');
    },
  );

  it('opens at the first try once kill -9 of the holder’s process group has ended it', async () => {
    // The lock is the kernel's (it goes with the process): no stale file to wait out, no retry.
    const child = startHolder('Narration Studio serve', true);
    const pid = await readyPid(child);
    expect(existsSync(`${dbPath}.lock`)).toBe(true);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-pid, 'SIGKILL');
    await exited;
    const store = await open();
    expect(await store.keys.list()).toEqual([]);
  });

  it('does not keep a process alive: one that opens the store and does nothing else exits', async () => {
    const child = spawn(process.execPath, holderArgs('idle'), { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    // A process kept alive never exits: the test's timeout fails it.
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(out).toBe('opened\n');
    expect(code).toBe(0);
  });

  it('socket-file variant (macOS): a live holder is named; the file a killed one left is taken over', async () => {
    const child = spawn(process.execPath, holderArgs('socket-file', 'file holder'), {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const pid = await readyPid(child);
    const address = lockAddress(dbPath, 'darwin');
    expect(existsSync(address)).toBe(true);
    expect(acquireInstanceLock(dbPath, { description: 'test', platform: 'darwin' })).toEqual({
      acquired: false,
      holder: { pid, description: 'file holder' },
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    // The crash left the socket file; nothing answers on it any more.
    expect(existsSync(address)).toBe(true);
    const result = acquireInstanceLock(dbPath, { description: 'test', platform: 'darwin' });
    expect(result.acquired).toBe(true);
    if (result.acquired) {
      result.lock.release();
      expect(existsSync(address)).toBe(false);
    }
  });

  it('a holder that does not answer (stopped) still refuses, saying it did not answer', async () => {
    const child = startHolder();
    const pid = await readyPid(child);
    process.kill(pid, 'SIGSTOP');
    try {
      expect(acquireInstanceLock(dbPath, { description: 'test', answerTimeoutMs: 200 })).toEqual({
        acquired: false,
        holder: undefined,
      });
      const error = await lockedError(openStore({ path: dbPath }));
      expect(error.message).toBe(
        `The database ${dbPath} is in use by another process (it did not answer; it may be hung). Stop it first.`,
      );
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  });
});

describe.skipIf(onPostgres)('the data directory of serve and of a core', () => {
  it('a core cannot open the data directory serve is using, and is told which process has it', async () => {
    const server = spawn(
      process.execPath,
      compiled.args('serve', '--port', '0', '--data-dir', dir, '--pool-size', '1'),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(server);
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      let out = '';
      server.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (/^listening on /m.test(out)) resolve();
      });
      void exited.then((code) => reject(new Error(`serve exited ${code} before listening`)));
    });
    try {
      const error = await createCore({ dataDir: dir, port: 0, engine: UNUSED_ENGINE }).then(
        () => undefined,
        (e: unknown) => e as AppError,
      );
      expect(error?.code).toBe('DATABASE_LOCKED');
      expect(error?.message).toBe(
        `The database ${dataPaths(dir).database} is in use by process ${server.pid} (Narration Studio serve). Stop it first.`,
      );
    } finally {
      server.kill('SIGINT');
      expect(await exited).toBe(0);
    }
  });

  it('serve refuses the data directory a core (the desktop app) has open, and exits 1', async () => {
    const core = await createCore({
      dataDir: dir,
      port: 0,
      engine: UNUSED_ENGINE,
      holder: 'Narration Studio desktop app',
    });
    try {
      const serve = await runEntry(['serve', '--port', '0', '--data-dir', dir, '--pool-size', '1'], compiled);
      expect(serve.code).toBe(1);
      expect(serve.stderr).toContain(
        `is in use by process ${process.pid} (Narration Studio desktop app). Stop it first.`,
      );
      expect(serve.stdout).toBe('');
    } finally {
      await core.close();
    }
    // Closed: the directory is free again.
    await (await createCore({ dataDir: dir, port: 0, engine: UNUSED_ENGINE })).close();
  });
});
