/**
 * SQLite writes are on disk before their caller hears back, with the sync off the event loop
 * (sqlite-database.ts: synchronous=NORMAL, the WAL synced on libuv's thread pool; the face's own
 * checkpoints, the file synced on the pool before the WAL is written again). Watched from
 * outside with strace on a real process (test/fixtures/durable-acks-child.ts): its writes to the
 * WAL and the file, its syncs of them (which thread, when they finish) and each answer it writes.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../electron/core/store';

const hasStrace = process.platform === 'linux' && spawnSync('strace', ['-V']).status === 0;

type Event =
  | { kind: 'walWrite'; tid: number }
  | { kind: 'walSync'; tid: number }
  | { kind: 'fileWrite'; tid: number }
  | { kind: 'fileSync'; tid: number }
  | { kind: 'ack'; what: string }
  | { kind: 'phase'; name: string };

/**
 * The trace's events in order: writes and syncs of the WAL and of the database file as they
 * finished, the child's output lines.
 */
function readTrace(text: string, dbPath: string): Event[] {
  const events: Event[] = [];
  const walFds = new Set<number>();
  const fileFds = new Set<number>();
  /** Calls a thread started and has not finished (strace's "<unfinished ...>"). */
  const pending = new Map<number, { name: string; args: string }>();
  const finished = (tid: number, name: string, args: string, result: string) => {
    const fd = Number(args.split(',')[0]);
    const sync = name === 'fsync' || name === 'fdatasync';
    if (name === 'openat' && args.includes(`"${dbPath}-wal"`) && Number(result) >= 0)
      walFds.add(Number(result));
    else if (name === 'openat' && args.includes(`"${dbPath}"`) && Number(result) >= 0)
      fileFds.add(Number(result));
    else if (name === 'close') {
      walFds.delete(fd);
      fileFds.delete(fd);
    } else if (name === 'pwrite64' && walFds.has(fd) && Number(result) > 0)
      events.push({ kind: 'walWrite', tid });
    else if (name === 'pwrite64' && fileFds.has(fd) && Number(result) > 0)
      events.push({ kind: 'fileWrite', tid });
    else if (sync && walFds.has(fd) && result === '0') events.push({ kind: 'walSync', tid });
    else if (sync && fileFds.has(fd) && result === '0') events.push({ kind: 'fileSync', tid });
    else if (name === 'write' && fd === 1) {
      const line = /^1, "(.*?)\\n"/.exec(args)?.[1] ?? '';
      if (line.startsWith('ack ')) events.push({ kind: 'ack', what: line });
      else events.push({ kind: 'phase', name: line });
    }
  };
  for (const raw of text.split('\n')) {
    let m = /^(\d+) +(\w+)\((.*) <unfinished \.\.\.>$/.exec(raw);
    if (m) {
      pending.set(Number(m[1]), { name: m[2]!, args: m[3]! });
      continue;
    }
    m = /^(\d+) +<\.\.\. (\w+) resumed>(.*)\) += (-?\w+)/.exec(raw);
    if (m) {
      const started = pending.get(Number(m[1]));
      pending.delete(Number(m[1]));
      if (started) finished(Number(m[1]), started.name, started.args + m[3]!, m[4]!);
      continue;
    }
    m = /^(\d+) +(\w+)\((.*)\) += (-?\w+)/.exec(raw);
    if (m) finished(Number(m[1]), m[2]!, m[3]!, m[4]!);
  }
  return events;
}

describe.runIf(hasStrace)('SQLite durability with the sync off the event loop (strace)', () => {
  let dir: string;
  let events: Event[];
  let mainTid: number;
  let dbPath: string;
  const SERIAL = 30;
  const CONCURRENT = 200;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-durability-'));
    dbPath = join(dir, 'studio.db');
    const trace = join(dir, 'trace.txt');
    const child = new URL('../../fixtures/durable-acks-child.ts', import.meta.url).pathname;
    const run = spawnSync(
      'strace',
      [
        '-f',
        '-qq',
        '-s',
        '80',
        '-e',
        'trace=openat,close,pwrite64,write,fsync,fdatasync',
        '-o',
        trace,
      ].concat([process.execPath, '--import', 'tsx', child, dbPath, String(SERIAL), String(CONCURRENT)]),
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(run.stdout.trim().split('\n').at(-1), run.stderr).toBe('done');
    const text = readFileSync(trace, 'utf8');
    mainTid = Number(/^(\d+)/.exec(text)![1]);
    events = readTrace(text, dbPath);
  }, 150_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const phase = (name: string) => events.findIndex((e) => e.kind === 'phase' && e.name === name);

  it('answers each write, one at a time, only after a sync of the WAL that finished after its last WAL write', () => {
    const serial = events.slice(phase('start'), phase('concurrent'));
    const acks = serial.flatMap((e, i) => (e.kind === 'ack' ? [i] : []));
    expect(acks).toHaveLength(SERIAL);
    let previous = 0;
    for (const at of acks) {
      const before = serial.slice(previous, at);
      const lastWrite = before.findLastIndex((e) => e.kind === 'walWrite');
      // Each answer's write wrote the WAL (a submit, or a statement of its own) …
      expect(lastWrite, `${(serial[at] as { what: string }).what}: no WAL write`).toBeGreaterThanOrEqual(0);
      // … and a sync of the WAL finished after that write, before the answer.
      expect(
        before.slice(lastWrite).some((e) => e.kind === 'walSync'),
        `${(serial[at] as { what: string }).what}: answered before the WAL was synced`,
      ).toBe(true);
      previous = at + 1;
    }
  });

  it('syncs on a thread of the pool, not on the thread that answers', () => {
    const serial = events.slice(phase('start'), phase('concurrent'));
    const syncs = serial.filter((e) => e.kind === 'walSync');
    expect(syncs.length).toBeGreaterThanOrEqual(SERIAL);
    expect(syncs.filter((e) => e.tid === mainTid)).toEqual([]);
  });

  it('copies the WAL into the file between the phases, syncing neither on the thread that answers', () => {
    const open = events.slice(phase('start'), phase('closing'));
    expect(open.filter((e) => e.kind === 'fileWrite').length).toBeGreaterThan(0);
    expect(open.filter((e) => (e.kind === 'walSync' || e.kind === 'fileSync') && e.tid === mainTid)).toEqual(
      [],
    );
  });

  it('writes the WAL again after a copy only once a sync of the file finished after the copy', () => {
    const open = events.slice(phase('start'), phase('closing'));
    let copies = 0;
    for (let i = 0; i < open.length; i++) {
      if (open[i]!.kind !== 'fileWrite' || open[i + 1]?.kind === 'fileWrite') continue;
      // i: the last page of a copy. The next WAL write must come after a sync of the file.
      const nextWalWrite = open.findIndex((e, j) => j > i && e.kind === 'walWrite');
      if (nextWalWrite < 0) continue;
      copies++;
      expect(
        open.slice(i, nextWalWrite).some((e) => e.kind === 'fileSync'),
        `WAL written at event ${nextWalWrite} before the file copied at ${i} was synced`,
      ).toBe(true);
    }
    expect(copies).toBeGreaterThan(0);
  });

  it('syncs the file as it closes, before the WAL goes', () => {
    const closing = events.slice(phase('closing'), phase('done'));
    const lastFileWrite = closing.findLastIndex((e) => e.kind === 'fileWrite');
    expect(closing.slice(lastFileWrite).some((e) => e.kind === 'fileSync')).toBe(true);
  });

  it('groups concurrent submits: fewer syncs than answers, each answer after a sync, every answered request stored', async () => {
    const concurrent = events.slice(phase('concurrent'), phase('done'));
    const acks = concurrent.filter((e): e is Extract<Event, { kind: 'ack' }> => e.kind === 'ack');
    expect(acks).toHaveLength(CONCURRENT);
    const firstSync = concurrent.findIndex((e) => e.kind === 'walSync');
    expect(firstSync).toBeGreaterThanOrEqual(0);
    expect(concurrent.findIndex((e) => e.kind === 'ack')).toBeGreaterThan(firstSync);
    expect(concurrent.filter((e) => e.kind === 'walSync').length).toBeLessThan(CONCURRENT / 2);
    const store = await openStore({ path: dbPath });
    try {
      for (const ack of acks) {
        const id = ack.what.split(' ').at(-1)!;
        expect(await store.requests.get(id), id).toMatchObject({ id });
      }
    } finally {
      await store.close();
    }
  });
});
