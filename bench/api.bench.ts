/**
 * Local API benchmark (npm run bench:api). Servers run in their own processes on loopback;
 * this process is the client and the callback receiver. Prints figures only.
 *
 * `npm run bench:api` (SQLite, one instance, default pool): submit latency while renders run.
 * Two variants, alternated round by round (A, B, A, B, A, B) in one run, each round on a fresh
 * --data-dir and a fresh server (--max-queued raised, so the queue limit is not what is measured),
 * the last round's files removed and written out first (quietDisk):
 *   - submits accepted per second at 50 connections (autocannon, real HTTP, 10 s; every
 *     request is rendered, so renders run all along) and submit latency p50/p99/max, and each
 *     second's accepted submits and p99 (the goal holds in every second, the first included);
 *   - the server's event-loop delay p99/max during that load (loop-delay-preload.mjs, loaded
 *     into the server with NODE_OPTIONS=--import; perf_hooks.monitorEventLoopDelay);
 *   - the server's CPU, submit → callback for a second key meanwhile, submit latency at idle.
 * The variants: this build with the render threads at nice 0 and at their default nice 10
 * (NARRATION_RENDER_NICE); or, with `-- --baseline <commit | …/dist/cli/narration-studio.js>`,
 * another build (a commit is built in a worktree with its own electron/launch/build.ts: see
 * baseline.ts) against this one; or, with `-- --compare node-flags`, this build started with
 * Node's default flags against `npm run serve`'s (server-node-flags.ts), or with `-- --node-flags
 * "<flags>"` too, `npm run serve`'s and those against `npm run serve`'s alone. `-- --rounds N` rounds
 * per variant (3). A shared machine's load shifts from minute to minute: compare variants within one run.
 *
 * `npm run bench:api -- --database <postgres://…>` or `-- --database postgres` measures, in one
 * run and side by side, (a) SQLite with one instance, (b) PostgreSQL with one instance and
 * (c) PostgreSQL with three instances sharing the database and one --data-dir. Each phase:
 *   - submit → callback at idle (200-character text), probes spread over the instances;
 *   - render throughput: 200 requests of ~60 characters with callbacks, submitted across the
 *     instances; first submit → last callback gives renders/s;
 *   - submits accepted per second at 50 connections in all, for 10 s: one autocannon per
 *     instance at the same time (connections split between them), summed; submit p50/p99 over
 *     every response of them all; and submit → callback for another key meanwhile.
 * Every instance gets --pool-size 1 (one engine worker, --concurrency 2), so the ratio of
 * renders/s between 3 instances and 1 measures instances, not cores. It cannot exceed what the
 * machine's cores allow: the core count, the load average, and the CPU each server process and
 * the PostgreSQL backends used during the batch and the load (from /proc, Linux only) are
 * printed beside it. About 2 minutes on 2 cores.
 *
 * Each phase starts from nothing: a fresh data directory and, for PostgreSQL, a fresh database.
 * `--database postgres` creates them with test/fixtures/postgres.ts (its own throwaway server
 * from /usr/lib/postgresql/15/bin, fsync off, or NARRATION_TEST_POSTGRES_URL). With a URL,
 * the bench creates databases named narration_bench_<pid>_<n> next to the given one
 * (CREATE DATABASE: the URL's role needs CREATEDB or superuser) and drops them at the end
 * (DROP DATABASE … WITH (FORCE), PostgreSQL 13 or later); the given database is not touched.
 * DATABASE_URL in the environment is ignored: SQLite means SQLite.
 */

import { execFile, execFileSync, type ChildProcess } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import autocannon from 'autocannon';
import { request } from 'undici';
import { createApiKey } from '../electron/core/jobs/keys';
import { systemClock } from '../electron/core/platform/clock';
import { RENDER_THREAD_NICE } from '../electron/core/engine/threads/thread-priority';
import { SERVER_NODE_FLAGS } from '../electron/launch/server-node-flags';
import { openStore } from '../electron/core/store';
import { createTestDatabase, hasPostgres, withClient } from '../test/fixtures/postgres';
import { baselineCli } from './baseline';
import { cpuSeconds, fmt, machineTicks, runCli, startServe, stopServer } from './lib';

const FLOOD_KEY = 'bench-flood-key-0000000000000000';
const TEXT_200 =
  'The quick brown fox jumps over the lazy dog near the riverbank. ' +
  'Meanwhile, a small bird sings on the old oak tree, and the children laugh in the garden. ' +
  'Evening falls slowly, painting the sky orange!!';
/** The render batch's texts: about 60 characters each, all different. */
const shortText = (i: number) => `Note ${i + 100}: the quick brown fox jumps over the lazy dog, again.`;

const CONNECTIONS = 50;
const LOAD_SECONDS = 10;
const BATCH = 200;
/** Submits of the render batch in flight at once (submitting is quick; rendering is the work). */
const BATCH_SUBMITTERS = 12;
const POOL_SIZE = 1;
/** Submit → callback probes at idle per phase of the comparison. */
const IDLE_PROBES = 20;

const { values: options } = parseArgs({
  options: {
    database: { type: 'string' },
    baseline: { type: 'string' },
    compare: { type: 'string', default: 'nice' },
    'node-flags': { type: 'string' },
    rounds: { type: 'string', default: '3' },
  },
  strict: true,
});
delete process.env.DATABASE_URL;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

// Everything to undo at the end (or on Ctrl-C).
const servers = new Set<ChildProcess>();
const dataDirs: string[] = [];
const databases: { drop(): Promise<void> }[] = [];

// The callback receiver: notes when each request's callback arrives.
const waiting = new Map<string, (at: number) => void>();
/** Callbacks that arrived before anyone waited for them (the submit's answer was still on its way). */
const early = new Map<string, number>();
let failedRenders = 0;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = performance.now();
    res.writeHead(200).end();
    const payload = JSON.parse(Buffer.concat(chunks).toString()) as { request_id: string; status?: string };
    if (payload.status !== undefined && payload.status !== 'SUCCESS') failedRenders++;
    const waiter = waiting.get(payload.request_id);
    if (waiter) {
      waiting.delete(payload.request_id);
      waiter(at);
    } else early.set(payload.request_id, at);
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

/** When the callback of `id` arrived (performance.now()). */
function callbackOf(id: string): Promise<number> {
  const at = early.get(id);
  if (at !== undefined) {
    early.delete(id);
    return Promise.resolve(at);
  }
  return new Promise((resolve) => waiting.set(id, resolve));
}

const body = (text: string, withCallback: boolean) =>
  JSON.stringify({
    input_text: text,
    voice_code: 'en_female_emily_us',
    audio_type: 'mp3',
    bitrate: 128,
    ...(withCallback ? { callback_url: callbackUrl } : {}),
  });

/** Submits one request; resolves with its id once the submit has answered. */
async function submit(base: string, key: string, text: string): Promise<string> {
  const res = await request(`${base}/api/v1/tts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body(text, true),
  });
  const json = (await res.body.json()) as { result?: { request_id: string } };
  if (res.statusCode !== 200 || !json.result)
    throw new Error(`submit answered ${res.statusCode}: ${JSON.stringify(json)}`);
  return json.result.request_id;
}

/** One probe: submit with a callback; returns [submit ms, submit → callback ms]. */
async function probe(base: string, key: string, text = TEXT_200): Promise<[number, number]> {
  const t0 = performance.now();
  const id = await submit(base, key, text);
  const submitted = performance.now();
  const at = await callbackOf(id);
  return [submitted - t0, at - t0];
}

interface Instance {
  server: ChildProcess;
  base: string;
}

interface Setup {
  dataDir: string;
  /** PostgreSQL; SQLite in dataDir without it. */
  databaseUrl?: string;
}

/**
 * Removes a finished round's data directory and writes out what the machine has not yet
 * written (`sync`): otherwise the kernel writes a round's files (its audio, its database) back
 * some 30 s later, during the next round, and that round's fsyncs wait behind them; the next
 * round would measure this one's leftovers. Not for the multi-instance phases (one data dir).
 */
function quietDisk(dir?: string): void {
  if (dir) {
    rmSync(dir, { recursive: true, force: true });
    dataDirs.splice(dataDirs.indexOf(dir), 1);
  }
  try {
    execFileSync('sync');
  } catch {
    // No sync command (not Linux or macOS): the rounds go on as before.
  }
}

/** A fresh data directory, removed at the end. */
function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'api-bench-'));
  dataDirs.push(dir);
  return dir;
}

/**
 * A key with plenty of credits on the setup's database, made by the CLI that will serve it
 * (`entry`: another build's, which may not open a database this build has migrated); returns the key.
 */
async function createKey(setup: Setup, name: string, entry?: string): Promise<string> {
  const created = await runCli(
    [
      'keys',
      'create',
      '--name',
      name,
      '--balance',
      '1000000000',
      ...(setup.databaseUrl ? ['--database', setup.databaseUrl] : ['--data-dir', setup.dataDir]),
    ],
    entry,
  );
  return /shown once, store it now\): (\S+)/.exec(created)![1]!;
}

/**
 * Starts `count` instances on the setup. The first starts alone (it migrates a fresh database
 * and creates the flood key), the others together after it.
 */
async function startInstances(
  setup: Setup,
  count: number,
  extra: string[] = [],
  serve: Parameters<typeof startServe>[1] = {},
): Promise<Instance[]> {
  const args = [
    '--data-dir',
    setup.dataDir,
    '--settings-dir',
    join(setup.dataDir, 'settings'),
    // A shared database makes the server refuse internal callback addresses; the receiver is local.
    ...(setup.databaseUrl ? ['--database', setup.databaseUrl, '--allow-callback-host', '127.0.0.1'] : []),
    '--api-key',
    FLOOD_KEY,
    '--balance',
    '1000000000',
    '--max-queued',
    '10000000',
    ...extra,
  ];
  const start = async () => {
    const instance = await startServe(args, serve);
    servers.add(instance.server);
    return instance;
  };
  const first = await start();
  const rest = await Promise.all(Array.from({ length: count - 1 }, start));
  return [first, ...rest];
}

/** CPU used during a window: per instance and by the database's backends, in cores; undefined where unknown. */
interface Usage {
  instances: (number | undefined)[];
  /** PostgreSQL backends of the phase's database (a server on this machine only). */
  database: number | undefined;
  /** The whole machine's busy share, 0–1. */
  machineBusy: number | undefined;
  /** Cores the rest of the machine used: busy share × cores − servers − backends − this bench process. */
  others: number | undefined;
}

/** The pids of the PostgreSQL backends serving `databaseUrl`'s database (the servers' pools). */
async function backendPids(databaseUrl: string | undefined): Promise<number[]> {
  if (!databaseUrl) return [];
  return withClient(databaseUrl, async (client) =>
    (
      await client.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      )
    ).rows.map((row) => row.pid),
  );
}

/** Starts measuring; the returned function ends the window of `seconds` and gives the usage. */
async function startUsage(
  instances: Instance[],
  databaseUrl: string | undefined,
): Promise<(seconds: number) => Usage> {
  const serverPids = instances.map(({ server }) => server.pid!);
  const dbPids = await backendPids(databaseUrl);
  const before = serverPids.map(cpuSeconds);
  const dbBefore = dbPids.map(cpuSeconds);
  const selfBefore = cpuSeconds(process.pid);
  const ticksBefore = machineTicks();
  return (seconds) => {
    const ticksAfter = machineTicks();
    const instancesUsed = serverPids.map((pid, i) => {
      const after = cpuSeconds(pid);
      const start = before[i];
      return after !== undefined && start !== undefined ? (after - start) / seconds : undefined;
    });
    // Backends that ended meanwhile count for nothing; the pools keep theirs open.
    let database: number | undefined;
    if (dbPids.length > 0 && dbBefore.some((v) => v !== undefined)) {
      database = 0;
      dbPids.forEach((pid, i) => {
        const after = cpuSeconds(pid);
        const start = dbBefore[i];
        if (after !== undefined && start !== undefined) database! += (after - start) / seconds;
      });
    }
    const machineBusy =
      ticksBefore && ticksAfter
        ? (ticksAfter.busy - ticksBefore.busy) / (ticksAfter.total - ticksBefore.total)
        : undefined;
    const selfAfter = cpuSeconds(process.pid);
    const others =
      machineBusy !== undefined &&
      selfBefore !== undefined &&
      selfAfter !== undefined &&
      instancesUsed.every((c) => c !== undefined)
        ? Math.max(
            0,
            machineBusy * availableParallelism() -
              instancesUsed.reduce((sum, c) => sum + c!, 0) -
              (database ?? 0) -
              (selfAfter - selfBefore) / seconds,
          )
        : undefined;
    return { instances: instancesUsed, database, machineBusy, others };
  };
}

/** "CPU 0.43 + 0.41 cores; PostgreSQL 0.20 cores; whole machine 99% busy", as far as known. */
function usageText(usage: Usage): string {
  const parts: string[] = [];
  if (usage.instances.every((c) => c !== undefined))
    parts.push(`servers ${usage.instances.map((c) => c!.toFixed(2)).join(' + ')} cores`);
  if (usage.database !== undefined) parts.push(`PostgreSQL backends ${usage.database.toFixed(2)} cores`);
  if (usage.machineBusy !== undefined) {
    parts.push(
      `whole machine ${Math.round(usage.machineBusy * 100)}% busy` +
        (usage.others !== undefined ? ` (other processes ${usage.others.toFixed(2)} cores)` : ''),
    );
  }
  return parts.join('; ');
}

interface LoadResult {
  accepted: number;
  refused: number;
  errors: number;
  seconds: number;
  perSecond: number;
  /** Over every response of every autocannon, ms. */
  p50: number;
  p99: number;
  /** Submit → callback of the other key's probes meanwhile, ms. */
  callbacks: number[];
  usage: Usage;
}

/**
 * 50 connections submitting with the flood key for `seconds`, split over the instances (one
 * autocannon per instance, all at once), while the probe key probes them in turn.
 */
async function loadInstances(
  instances: Instance[],
  probeKey: string,
  seconds: number,
  databaseUrl: string | undefined,
): Promise<LoadResult> {
  const endUsage = await startUsage(instances, databaseUrl);
  const callbacks: number[] = [];
  let loading = true;
  const prober = (async () => {
    for (let i = 0; loading; i++) {
      const [, c] = await probe(instances[i % instances.length]!.base, probeKey);
      callbacks.push(c);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const latencies: number[] = [];
  const runs = instances.map((instance, i) => {
    const connections =
      Math.floor(CONNECTIONS / instances.length) + (i < CONNECTIONS % instances.length ? 1 : 0);
    const run = autocannon({
      url: `${instance.base}/api/v1/tts`,
      connections,
      duration: seconds,
      method: 'POST',
      headers: { authorization: `Bearer ${FLOOD_KEY}`, 'content-type': 'application/json' },
      body: body(TEXT_200, false),
    });
    // The promise autocannon returns is also its tracker: every response, with its time in ms.
    (run as unknown as EventEmitter).on(
      'response',
      (_client: unknown, _status: number, _bytes: number, time: number) => latencies.push(time),
    );
    return run;
  });
  const results = await Promise.all(runs);
  const elapsed = Math.max(...results.map((r) => r.duration));
  const usage = endUsage(elapsed);
  loading = false;
  await prober;
  const accepted = results.reduce((sum, r) => sum + r['2xx'], 0);
  return {
    accepted,
    refused: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    seconds: elapsed,
    perSecond: accepted / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    callbacks,
    usage,
  };
}

interface BatchResult {
  seconds: number;
  perSecond: number;
  /** Per instance: mean of `running` in /api/v1/health, sampled every 250 ms during the batch. */
  running: number[];
  usage: Usage;
}

interface Health {
  running: number;
  instance: { id: string; pid: number };
}

/** The full health answer (the key's: without one, health says only ok). */
async function health(base: string): Promise<Health> {
  const res = await request(`${base}/api/v1/health`, { headers: { authorization: `Bearer ${FLOOD_KEY}` } });
  return ((await res.body.json()) as { result: Health }).result;
}

/** Renders `BATCH` short requests submitted across the instances: first submit → last callback. */
async function renderBatch(
  instances: Instance[],
  key: string,
  databaseUrl: string | undefined,
): Promise<BatchResult> {
  const failedBefore = failedRenders;
  const endUsage = await startUsage(instances, databaseUrl);
  const samples: number[][] = instances.map(() => []);
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const states = await Promise.all(instances.map(({ base }) => health(base)));
      states.forEach((state, i) => samples[i]!.push(state.running));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();

  const t0 = performance.now();
  const arrivals: Promise<number>[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: BATCH_SUBMITTERS }, async () => {
      while (next < BATCH) {
        const i = next++;
        const id = await submit(instances[i % instances.length]!.base, key, shortText(i));
        arrivals.push(callbackOf(id));
      }
    }),
  );
  const last = Math.max(...(await Promise.all(arrivals)));
  const seconds = (last - t0) / 1000;
  const usage = endUsage(seconds);
  sampling = false;
  await sampler;
  if (failedRenders > failedBefore)
    throw new Error(`${failedRenders - failedBefore} renders of the batch failed`);
  return {
    seconds,
    perSecond: BATCH / seconds,
    running: samples.map((s) => s.reduce((a, b) => a + b, 0) / Math.max(1, s.length)),
    usage,
  };
}

/** Warm-up: the first renders load each worker's voice; a few at once per instance reach every one. */
async function warmUp(instances: Instance[], key: string): Promise<void> {
  for (let round = 0; round < 2; round++) {
    await Promise.all(instances.flatMap((instance) => [0, 1, 2].map(() => probe(instance.base, key))));
  }
}

/** Stops every server (SIGTERM, then SIGKILL), drops the databases, removes the directories. */
async function cleanUp(): Promise<void> {
  await Promise.all([...servers].map((server) => stopServer(server)));
  servers.clear();
  for (const database of databases.splice(0)) {
    await database.drop().catch((error: unknown) => console.warn(`dropping a database: ${String(error)}`));
  }
  receiver.close();
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const server of servers) server.kill('SIGKILL');
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
}

/** The event-loop delay preload (loop-delay-preload.mjs), for the servers of the submit measure. */
const LOOP_DELAY_PRELOAD = new URL('./loop-delay-preload.mjs', import.meta.url).href;

interface LoopDelay {
  seq: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * The server's event-loop delay since the last call (SIGUSR2 to the preload, which writes the
 * file and starts again); the first call only starts the window.
 */
async function loopDelay(server: ChildProcess, file: string, seq: number): Promise<LoopDelay> {
  server.kill('SIGUSR2');
  for (let tries = 0; tries < 500; tries++) {
    try {
      const read = JSON.parse(readFileSync(file, 'utf8')) as LoopDelay;
      if (read.seq === seq) return read;
    } catch {
      // Not written yet (or half-written): read again.
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the server wrote no event-loop delay to ${file}`);
}

interface Variant {
  label: string;
  env: NodeJS.ProcessEnv;
  /** Another build's compiled CLI; this checkout's when absent. */
  entry?: string;
  /** Node's flags for the server; `npm run serve`'s when absent (server-node-flags.ts). */
  nodeFlags?: readonly string[];
}

/**
 * What the submit measure compares, alternated in one run on one machine: with `--baseline
 * <commit | …/dist/cli/narration-studio.js>` (baseline.ts), that build against this one; with
 * `--compare node-flags`, this build started with Node's own defaults against `npm run serve`'s
 * flags (server-node-flags.ts); otherwise this build with the render threads at the process's
 * priority and at their own lower one (thread-priority.ts).
 */
const baseline = options.baseline ? baselineCli(options.baseline) : undefined;
process.on('exit', () => baseline?.remove());
const VARIANTS: Variant[] = baseline
  ? [
      { label: `baseline (${baseline.label})`, env: {}, entry: baseline.entry },
      { label: 'this build', env: {} },
    ]
  : options.compare === 'node-flags'
    ? [
        options['node-flags'] === undefined
          ? { label: "Node's default flags", env: {}, nodeFlags: [] }
          : {
              label: `${SERVER_NODE_FLAGS.join(' ')} ${options['node-flags']}`,
              env: {},
              nodeFlags: [...SERVER_NODE_FLAGS, ...options['node-flags'].split(' ')],
            },
        { label: `${SERVER_NODE_FLAGS.join(' ')} (npm run serve's)`, env: {} },
      ]
    : [
        { label: 'render threads at nice 0', env: { NARRATION_RENDER_NICE: '0' } },
        { label: `render threads at nice ${RENDER_THREAD_NICE} (default)`, env: {} },
      ];
/** Rounds per variant (A, B, A, B, …): a shared machine's load shifts from minute to minute. */
const ROUNDS = Number(options.rounds);
const GOAL_P99_MS = 50;
const GOAL_PER_SECOND = 1500;

interface Round {
  perSecond: number;
  refused: number;
  errors: number;
  /** Every accepted submit's latency, ms. */
  latencies: number[];
  /** The accepted submits' latencies by the second of the load they ended in (0: the first). */
  seconds: number[][];
  loop: LoopDelay;
  /** Submit → callback of another key during the load, ms. */
  callbacks: number[];
  idleSubmit: number[];
  idleCallback: number[];
  /** Cores the server process used during the load (all its threads). */
  cores: number | undefined;
}

/** One round: a fresh server, idle probes, then 50 connections submitting for 10 s while it renders. */
async function submitRound({ env, entry, nodeFlags }: Variant): Promise<Round> {
  const setup: Setup = { dataDir: freshDataDir() };
  const probeKey = await createKey(setup, 'probe', entry);
  const loopFile = join(setup.dataDir, 'loop-delay.json');
  const [instance] = (await startInstances(setup, 1, [], {
    env: {
      ...env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${LOOP_DELAY_PRELOAD}`.trim(),
      NARRATION_BENCH_LOOP_DELAY: loopFile,
    },
    ...(entry ? { entry } : {}),
    ...(nodeFlags ? { nodeFlags } : {}),
  })) as [Instance];
  const { base, server } = instance;

  for (let i = 0; i < 8; i++) await probe(base, probeKey);
  const idleSubmit: number[] = [];
  const idleCallback: number[] = [];
  for (let i = 0; i < 20; i++) {
    const [s, c] = await probe(base, probeKey);
    idleSubmit.push(s);
    idleCallback.push(c);
  }

  // Load: 50 connections submitting for 10 s with one key (every request is rendered: the
  // renders run all along), while another key probes.
  const callbacks: number[] = [];
  let loading = true;
  const prober = (async () => {
    while (loading) {
      const [, c] = await probe(base, probeKey);
      callbacks.push(c);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  await loopDelay(server, loopFile, 1);
  const endUsage = await startUsage([instance], undefined);
  const latencies: number[] = [];
  const seconds: number[][] = [];
  const loadStart = performance.now();
  const run = autocannon({
    url: `${base}/api/v1/tts`,
    connections: CONNECTIONS,
    duration: LOAD_SECONDS,
    method: 'POST',
    headers: { authorization: `Bearer ${FLOOD_KEY}`, 'content-type': 'application/json' },
    body: body(TEXT_200, false),
  });
  // The promise autocannon returns is also its tracker: every response, with its time in ms.
  (run as unknown as EventEmitter).on(
    'response',
    (_client: unknown, status: number, _bytes: number, time: number) => {
      if (status !== 200) return;
      latencies.push(time);
      const second = Math.min(LOAD_SECONDS - 1, Math.floor((performance.now() - loadStart) / 1000));
      (seconds[second] ??= []).push(time);
    },
  );
  const load = await run;
  const usage = endUsage(load.duration);
  const loop = await loopDelay(server, loopFile, 2);
  loading = false;
  await prober;
  await stopServer(server);
  servers.delete(server);
  quietDisk(setup.dataDir);
  return {
    perSecond: load['2xx'] / load.duration,
    refused: load.non2xx,
    errors: load.errors,
    latencies,
    seconds,
    loop,
    callbacks,
    idleSubmit,
    idleCallback,
    cores: usage.instances[0],
  };
}

const median = (values: number[]) => percentile(values, 50);

/** Each second of a load: submits accepted in it and their p99, and the worst second's p99. */
function bySecond(seconds: number[][]): string {
  const cells = Array.from({ length: LOAD_SECONDS }, (_, s) => {
    const times = seconds[s] ?? [];
    return `${s + 1}: ${fmt(times.length)} ${times.length > 0 ? ms(percentile(times, 99)) : '–'}`;
  });
  // A second without an answer (the server stalled through it) shows as "–"; its submits
  // count in the second they were answered in.
  const worst = Math.max(
    ...Array.from({ length: LOAD_SECONDS }, (_, s) => seconds[s] ?? []).map((times) =>
      times.length > 0 ? percentile(times, 99) : 0,
    ),
  );
  return `${cells.join(', ')}; worst second p99 ${ms(worst)} (goal ≤ ${GOAL_P99_MS} ms each second)`;
}

/**
 * SQLite, one instance, the default pool: submit latency while renders run, the render threads
 * at the process's priority and at their own, alternated round by round in one run.
 */
async function singleSqlite(): Promise<void> {
  const cores = availableParallelism();
  const loadAtStart = loadavg()[0]!;
  const rounds: Round[][] = VARIANTS.map(() => []);
  quietDisk();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [v, variant] of VARIANTS.entries()) {
      const result = await submitRound(variant);
      rounds[v]!.push(result);
      console.log(
        `  round ${round + 1}, ${variant.label}: ${fmt(result.perSecond)} submits/s, p99 ${ms(percentile(result.latencies, 99))}, ` +
          `event loop p99 ${ms(result.loop.p99)} max ${ms(result.loop.max)}`,
      );
      console.log(`    by second (accepted, p99): ${bySecond(result.seconds)}`);
    }
  }
  console.log('');
  console.log(
    `API benchmark: submit latency while rendering (server in its own process, SQLite, default pool, ${cores} cores, ` +
      `loopback; load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end)`,
  );
  console.log(
    `${CONNECTIONS} connections × ${LOAD_SECONDS} s (autocannon, real HTTP, in this process), 200-character text, mp3 128 kbps, ` +
      `every request rendered; --max-queued 10000000; ${ROUNDS} rounds per variant, alternated, each on a fresh server.`,
  );
  console.log(
    'accepted/s and event-loop delay: median of the rounds (max: the largest); submit latency: over every accepted submit of the rounds.',
  );
  console.log('');
  console.log(
    '| variant | accepted/s | submit p50 / p99 / max | event loop p99 / max | server CPU | submit → callback, other key, p50 | idle: submit p50 / p99, submit → callback p50 |',
  );
  console.log('|---|---|---|---|---|---|---|');
  VARIANTS.forEach((variant, v) => {
    const rs = rounds[v]!;
    const all = (pick: (r: Round) => number[]) => rs.flatMap(pick);
    const latencies = all((r) => r.latencies);
    const idle = all((r) => r.idleSubmit);
    const idleCallback = all((r) => r.idleCallback);
    const callbacks = all((r) => r.callbacks);
    const used = rs.map((r) => r.cores).filter((c): c is number => c !== undefined);
    console.log(
      `| ${variant.label} | ${fmt(median(rs.map((r) => r.perSecond)))} (${rs.map((r) => fmt(r.perSecond)).join(', ')}; ` +
        `${rs.reduce((n, r) => n + r.refused, 0)} refused, ${rs.reduce((n, r) => n + r.errors, 0)} errors) | ` +
        `${ms(percentile(latencies, 50))} / ${ms(percentile(latencies, 99))} / ${ms(percentile(latencies, 100))} ` +
        `(p99 per round ${rs.map((r) => percentile(r.latencies, 99).toFixed(0)).join(', ')}) | ` +
        `${ms(median(rs.map((r) => r.loop.p99)))} / ${ms(Math.max(...rs.map((r) => r.loop.max)))} | ` +
        `${used.length > 0 ? `${median(used).toFixed(2)} cores` : 'unknown'} | ` +
        `${ms(percentile(callbacks, 50))} | ` +
        `${ms(percentile(idle, 50))} / ${ms(percentile(idle, 99))}, ${ms(percentile(idleCallback, 50))} |`,
    );
  });
  const now = rounds.at(-1)!;
  const nowPerSecond = median(now.map((r) => r.perSecond));
  const nowP99 = percentile(
    now.flatMap((r) => r.latencies),
    99,
  );
  console.log('');
  console.log(
    `goal: submit p99 ≤ ${GOAL_P99_MS} ms at ≥ ${fmt(GOAL_PER_SECOND)} accepted/s: ` +
      (nowP99 <= GOAL_P99_MS && nowPerSecond >= GOAL_PER_SECOND ? 'met' : 'not met') +
      ` (p99 ${ms(nowP99)} at ${fmt(nowPerSecond)}/s)`,
  );
}

interface PhaseResult {
  label: string;
  idleCallbackP50: number;
  renders: BatchResult;
  load: LoadResult;
}

/** One phase of the comparison: fresh setup, `count` instances of pool 1, the measures, stop. */
async function phase(label: string, setup: Setup, count: number): Promise<PhaseResult> {
  const t0 = performance.now();
  const probeKey = await createKey(setup, 'probe');
  const instances = await startInstances(setup, count, [
    '--pool-size',
    String(POOL_SIZE),
    '--concurrency',
    String(2 * POOL_SIZE),
  ]);
  const ids = new Set(
    (await Promise.all(instances.map(({ base }) => health(base)))).map((h) => h.instance.id),
  );
  if (ids.size !== count) throw new Error(`${count} instances report ${ids.size} instance id(s)`);
  await warmUp(instances, probeKey);
  const idleCallback: number[] = [];
  for (let i = 0; i < IDLE_PROBES; i++)
    idleCallback.push((await probe(instances[i % count]!.base, probeKey))[1]);
  const renders = await renderBatch(instances, probeKey, setup.databaseUrl);
  // Last: the flood leaves thousands of requests queued, which the servers' stop abandons.
  const load = await loadInstances(instances, probeKey, LOAD_SECONDS, setup.databaseUrl);
  await Promise.all(instances.map(({ server }) => stopServer(server).then(() => servers.delete(server))));
  console.log(`  ${label}: done in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return { label, idleCallbackP50: percentile(idleCallback, 50), renders, load };
}

/** A fresh PostgreSQL database for a phase, dropped at the end. */
async function freshDatabase(target: string): Promise<string> {
  if (target === 'postgres') {
    const database = await createTestDatabase();
    databases.push(database);
    return database.url;
  }
  const name = `narration_bench_${process.pid}_${databases.length + 1}`;
  await withClient(target, (client) => client.query(`CREATE DATABASE "${name}"`));
  databases.push({
    drop: () =>
      withClient(target, async (client) => {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }),
  });
  const url = new URL(target);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Submits in flight per process in the database-path measure (HTTP's 50 connections, split). */
const STORE_IN_FLIGHT = 50;
const STORE_SECONDS = 5;

interface StoreSubmits {
  perSecond: number;
  accepted: number;
  p50: number;
  p99: number;
}

/**
 * The database path alone: `count` processes, each a submitter on its own pool (as an instance
 * has), submitting for one key at once on a fresh database, without HTTP or rendering (see
 * store-submit-child.ts); accepted submits per second, summed.
 */
async function storeSubmits(target: string, count: number): Promise<StoreSubmits> {
  const url = await freshDatabase(target);
  const store = await openStore({ url });
  const { row } = await createApiKey(store, systemClock, { name: 'bench', balanceMilli: 1e15 });
  await store.close();
  const child = new URL('./store-submit-child.ts', import.meta.url).pathname;
  // Every process starts at the same moment, once all have connected.
  const startAt = Date.now() + 3000;
  const outputs = await Promise.all(
    Array.from({ length: count }, () =>
      promisify(execFile)(process.execPath, [
        '--import',
        'tsx',
        child,
        url,
        row.id,
        String(STORE_SECONDS),
        String(Math.ceil(STORE_IN_FLIGHT / count)),
        String(startAt),
      ]),
    ),
  );
  const runs = outputs.map(
    (o) =>
      JSON.parse(o.stdout.trim().split('\n').at(-1)!) as {
        accepted: number;
        seconds: number;
        p50: number;
        p99: number;
      },
  );
  const accepted = runs.reduce((n, r) => n + r.accepted, 0);
  return {
    accepted,
    perSecond: accepted / Math.max(...runs.map((r) => r.seconds)),
    p50: Math.max(...runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
  };
}

async function compare(target: string): Promise<void> {
  if (target === 'postgres' && !hasPostgres()) {
    throw new Error(
      '--database postgres needs PostgreSQL binaries (/usr/lib/postgresql/15/bin, or NARRATION_POSTGRES_BIN) or NARRATION_TEST_POSTGRES_URL',
    );
  }
  if (target !== 'postgres' && !/^postgres(ql)?:\/\//i.test(target)) {
    throw new Error('--database takes a postgres:// URL, or "postgres" for a throwaway server');
  }
  const cores = availableParallelism();
  const loadAtStart = loadavg()[0]!;
  const t0 = performance.now();
  console.log('API benchmark: SQLite and PostgreSQL, 1 and 3 instances (each phase from a fresh database)');
  const results = [
    await phase('SQLite, 1 instance', { dataDir: freshDataDir() }, 1),
    await phase(
      'PostgreSQL, 1 instance',
      { dataDir: freshDataDir(), databaseUrl: await freshDatabase(target) },
      1,
    ),
    await phase(
      'PostgreSQL, 3 instances',
      { dataDir: freshDataDir(), databaseUrl: await freshDatabase(target) },
      3,
    ),
  ];
  console.log('  the database path alone, 1 and 3 processes…');
  const store1 = await storeSubmits(target, 1);
  const store3 = await storeSubmits(target, 3);
  const loadAtEnd = loadavg()[0]!;
  const [sqlite, pg1, pg3] = results as [PhaseResult, PhaseResult, PhaseResult];

  console.log('');
  console.log(
    `${cores} cores, loopback; servers in their own processes, this process is the load generator and callback receiver ` +
      `(load average ${loadAtStart.toFixed(1)} at the start, ${loadAtEnd.toFixed(1)} at the end; ${((performance.now() - t0) / 1000).toFixed(0)} s in all).`,
  );
  console.log(
    `Every instance: --pool-size ${POOL_SIZE} (one engine worker), --concurrency ${2 * POOL_SIZE}, so renders/s compares instances, not cores.`,
  );
  console.log(
    target === 'postgres'
      ? 'PostgreSQL: a throwaway local server (test/fixtures/postgres.ts: fsync off), a fresh database per phase; 3 instances share it and one --data-dir.'
      : 'PostgreSQL: the given server, a fresh database per phase; 3 instances share it and one --data-dir.',
  );
  console.log(
    `submits: ${CONNECTIONS} connections in all for ${LOAD_SECONDS} s, one autocannon per instance at once, summed; 200-character text, mp3 128 kbps, no callback.`,
  );
  console.log(
    `renders: ${BATCH} requests of ~60 characters with callbacks, submitted across the instances; first submit → last callback.`,
  );
  console.log('');
  console.log(
    '| setup | submits/s at 50 connections | submit p50 / p99 | submit → callback p50, idle | submit → callback p50, other key under load | renders/s |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.label} | ${fmt(r.load.perSecond)} (${fmt(r.load.accepted)} in ${r.load.seconds.toFixed(1)} s, ` +
        `${r.load.refused} refused, ${r.load.errors} errors) | ${ms(r.load.p50)} / ${ms(r.load.p99)} | ` +
        `${ms(r.idleCallbackP50)} | ${ms(percentile(r.load.callbacks, 50))} (n=${r.load.callbacks.length}) | ` +
        `${fmt(r.renders.perSecond, 1)} (${BATCH} in ${r.renders.seconds.toFixed(1)} s) |`,
    );
  }
  console.log('');
  console.log('CPU used (per server process, all its threads; the PostgreSQL backends of the phase):');
  for (const r of results) {
    console.log(
      `  ${r.label}: render batch: ${usageText(r.renders.usage)}; ` +
        `renders in flight per instance (mean, /api/v1/health) ${r.renders.running.map((n) => n.toFixed(1)).join(' / ')}`,
    );
    console.log(`  ${' '.repeat(r.label.length)}  submit load: ${usageText(r.load.usage)}`);
  }
  console.log('');
  const ratio = pg3.renders.perSecond / pg1.renders.perSecond;
  // What one instance uses when it gets the cores: the larger of the two one-instance phases
  // (another process on the machine can hold either back).
  const oneInstanceCores =
    sqlite.renders.usage.instances[0] !== undefined && pg1.renders.usage.instances[0] !== undefined
      ? Math.max(sqlite.renders.usage.instances[0], pg1.renders.usage.instances[0])
      : undefined;
  console.log(
    `renders/s, 3 instances vs 1 (PostgreSQL): ${ratio.toFixed(2)}× — goal ≥ 2.5×: ${ratio >= 2.5 ? 'met' : 'not met'}; ` +
      `this machine has ${cores} cores`,
  );
  if (oneInstanceCores !== undefined) {
    const needed = 2.5 * oneInstanceCores;
    const othersMax = Math.max(...results.map((r) => r.renders.usage.others ?? 0));
    console.log(
      `  one instance with one engine worker used up to ${oneInstanceCores.toFixed(2)} cores rendering (its synthesis ` +
        `worker, the engine host thread joining and encoding MP3, the HTTP thread): 2.5× needs about ` +
        `${needed.toFixed(1)} cores for the servers alone` +
        (needed > cores ? `, more than this machine has` : '') +
        (othersMax > 0.2
          ? `; other processes on the machine used up to ${othersMax.toFixed(2)} cores during a batch`
          : '') +
        '.',
    );
  }
  console.log(
    `submits/s on the shared database (3 instances, through HTTP while they render): ${fmt(pg3.load.perSecond)} — goal ≥ 2,000/s: ${pg3.load.perSecond >= 2000 ? 'met' : 'not met'}` +
      ` (1 instance: ${fmt(pg1.load.perSecond)})`,
  );
  console.log(
    `submits/s of the database path alone (each process a submitter on its own pool, one key, ` +
      `${STORE_IN_FLIGHT} in flight in all, ${STORE_SECONDS} s, no HTTP, no rendering): ` +
      `1 process ${fmt(store1.perSecond)} (p50 ${ms(store1.p50)}, p99 ${ms(store1.p99)}); ` +
      `3 processes ${fmt(store3.perSecond)} (p50 ${ms(store3.p50)}, p99 ${ms(store3.p99)}) — goal ≥ 2,000/s: ` +
      `${store3.perSecond >= 2000 ? 'met' : 'not met'}`,
  );
}

try {
  if (options.database === undefined) await singleSqlite();
  else await compare(options.database);
} finally {
  await cleanUp();
}
