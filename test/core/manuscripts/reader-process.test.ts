/**
 * reader-process.ts and reader-queue.ts without the server: a reader child never outlives the
 * process that started it (killed with SIGKILL, no chance to clean up), its V8 heap cap stops it
 * where its memory is not polled (Windows), and the queue's turns.
 */

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readInChild } from '../../../electron/core/manuscripts/reader-process';
import { ReaderQueue } from '../../../electron/core/manuscripts/reader-queue';
import { AppError } from '../../../electron/shared/errors';
import { MANUSCRIPT_LIMITS } from '../../../electron/shared/manuscript';
import { isRunning } from '../../fixtures/reader-children';
import { eventually } from '../server/helpers';

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

describe('a reader child', () => {
  it('exits when the process that started it is killed mid-read', async () => {
    const parent = spawn(
      process.execPath,
      ['--import', tsx, join(import.meta.dirname, '../../fixtures/slow-read-process.ts')],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => parent.once('exit', resolve));
    const pid = await new Promise<number>((resolve, reject) => {
      let out = '';
      parent.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /^reading (\d+)$/m.exec(out);
        if (match) resolve(Number(match[1]));
      });
      void exited.then(() => reject(new Error('the reading process ended before its child ran')));
    });
    expect(isRunning(pid)).toBe(true);
    parent.kill('SIGKILL');
    await exited;
    // Its read would last minutes (past its own 60 s limit): the child ends with its parent.
    await eventually(() => (isRunning(pid) ? undefined : true), MANUSCRIPT_LIMITS.readerTimeoutMs / 3);
  }, 60_000);
});

describe("a reader child's memory", () => {
  it('is stopped by its V8 heap cap where its memory is not polled, naming the file and the limit', async () => {
    // 400,000 elements: parse5's tree of them needs about 180 MB of heap.
    const html = new TextEncoder().encode('<p>a</p>'.repeat(400_000));
    const error = (await readInChild(
      { fileName: 'heavy.html', format: 'html', bytes: html, options: {} },
      // A heap of 72 MiB (128 MiB under the limit), and no polling within the read.
      { timeoutMs: 60_000, maxRssBytes: 200 * 1024 * 1024, pollMs: 60_000 },
    ).catch((e: unknown) => e)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('MANUSCRIPT_TOO_LARGE');
    expect(error.message).toBe(
      '"heavy.html" needs more than 200 MiB of memory to read, the most a manuscript may use; it was stopped.',
    );
  }, 60_000);
});

describe('ReaderQueue', () => {
  it('runs at most `readers` at once in order of arrival, refuses past `waiting`, and drops an aborted wait', async () => {
    const queue = new ReaderQueue({ readers: 2, waiting: 2, waitingPerOwner: 2 });
    const started: string[] = [];
    const finishers = new Map<string, () => void>();
    const read = (name: string, signal?: AbortSignal) =>
      queue.run(
        'key',
        name,
        () =>
          new Promise<string>((resolve) => {
            started.push(name);
            finishers.set(name, () => resolve(name));
          }),
        signal,
      );
    const a = read('a');
    const b = read('b');
    const leaving = new AbortController();
    const c = read('c', leaving.signal);
    const d = read('d');
    expect(queue.load).toEqual({ running: 2, waiting: 2 });
    const refused = (await read('e').catch((e: unknown) => e)) as AppError;
    expect(refused).toBeInstanceOf(AppError);
    expect(refused.code).toBe('TOO_MANY_REQUESTS');
    expect(refused.details).toMatchObject({ file: 'e', retry_after_s: 5 });

    leaving.abort();
    const dropped = (await c.catch((e: unknown) => e)) as AppError;
    expect(dropped.code).toBe('CANCELLED');
    expect(dropped.message).toBe('The read of "c" was stopped: its request went away.');
    expect(queue.load).toEqual({ running: 2, waiting: 1 });

    finishers.get('a')!();
    expect(await a).toBe('a');
    await eventually(() => (started.includes('d') ? true : undefined));
    expect(started).toEqual(['a', 'b', 'd']);
    finishers.get('b')!();
    finishers.get('d')!();
    expect(await Promise.all([b, d])).toEqual(['b', 'd']);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  it('is fair between owners: one filling its places is refused alone, and a freed turn goes to the owner running none', async () => {
    const queue = new ReaderQueue({ readers: 2, waiting: 8, waitingPerOwner: 3 });
    const started: string[] = [];
    const finishers = new Map<string, () => void>();
    const read = (owner: string, name: string) =>
      queue.run(
        owner,
        name,
        () =>
          new Promise<string>((resolve) => {
            started.push(name);
            finishers.set(name, () => resolve(name));
          }),
      );
    const finish = async (name: string, reading: Promise<string>) => {
      finishers.get(name)!();
      expect(await reading).toBe(name);
    };
    // Key A takes both readers and its three places in the queue; its next read is refused.
    const a = Array.from({ length: 5 }, (_, i) => read('A', `a${i}`));
    const refused = (await read('A', 'a5').catch((e: unknown) => e)) as AppError;
    expect(refused).toBeInstanceOf(AppError);
    expect(refused.code).toBe('TOO_MANY_REQUESTS');
    expect(refused.message).toBe(
      '"a5" cannot be read now: this key already has 3 files waiting to be read, the most one key may have waiting; try again in 5 s.',
    );
    expect(refused.details).toMatchObject({ retry_after_s: 5 });
    // Key B is still taken, and B's read gets the first freed reader, ahead of A's waiting reads.
    const b0 = read('B', 'b0');
    const b1 = read('B', 'b1');
    expect(queue.load).toEqual({ running: 2, waiting: 5 });
    await finish('a0', a[0]!);
    await eventually(() => (started.includes('b0') ? true : undefined));
    expect(started).toEqual(['a0', 'a1', 'b0']);
    // A and B run one each: the next freed turn goes to the earliest waiting (A's), then B's.
    await finish('a1', a[1]!);
    await eventually(() => (started.includes('a2') ? true : undefined));
    await finish('a2', a[2]!);
    await eventually(() => (started.includes('a3') ? true : undefined));
    // b0 ends: b1 goes ahead of A's a4, which came first (B runs none, A one).
    await finish('b0', b0);
    await eventually(() => (started.includes('b1') ? true : undefined));
    expect(started).toEqual(['a0', 'a1', 'b0', 'a2', 'a3', 'b1']);
    await finish('a3', a[3]!);
    await eventually(() => (started.includes('a4') ? true : undefined));
    await finish('a4', a[4]!);
    await finish('b1', b1);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });
});
