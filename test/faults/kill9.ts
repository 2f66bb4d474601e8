/**
 * kill -9 during a run: 500 requests are submitted by a few clients while the `serve` process
 * is killed with SIGKILL at random moments and restarted, 20 times (× scale). Afterwards every
 * accepted request must have reached SUCCESS or FAILURE, every audio file must be complete
 * and decode with ffmpeg, every callback must have been delivered at least once, and the
 * credits ledger must balance (charges − refunds = balance change), read from the SQLite file.
 */

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { parseMp3 } from '../fixtures/mp3-frames';
import { parseWavHeader } from '../../electron/core/engine/audio/wav';
import { DEFAULT_BALANCE_MILLI } from '../../electron/shared/pricing';
import { openDatabase } from '../../electron/core/store/sqlite-database';
import { startReceiver } from '../fixtures/callback-receiver';
import { startServerProcess, type ServerProcess } from '../core/server/process';
import {
  ffmpegFailures,
  quantile,
  serveArgs,
  sleep,
  waitUntil,
  type FaultContext,
  type Scenario,
} from './harness';
import { random as createRng } from '../fixtures/random';

const KEY = 'kill9-fault-key-0123456789abcdef';
const VOICES = [
  'en_female_emily_us',
  'en_male_onyx_default',
  'vi_female_thuytrang_mb',
  'es_female_elana_default',
];
const WORDS =
  'the quiet river carried small boats past the old mill while children counted clouds above a field of barley'.split(
    ' ',
  );

interface Attempt {
  index: number;
  /** request_id when the server answered 200. */
  id?: string;
  /** The connection broke before an answer: the request may or may not have been stored. */
  uncertain: boolean;
}

export const scenarios: Scenario[] = [
  {
    name: 'kill9',
    title: 'kill -9 of the server at random moments during a run; nothing accepted is lost',
    run,
  },
];

async function run(ctx: FaultContext): Promise<void> {
  const total = Math.max(40, Math.round(500 * ctx.scale));
  const kills = Math.max(4, Math.round(20 * ctx.scale));
  const clients = 4;
  const rng = createRng(ctx.seed ^ 0x9e3779b9);
  const dir = mkdtempSync(join(tmpdir(), 'faults-kill9-'));
  const receiver = await startReceiver();
  const args = serveArgs(dir, KEY, 2, '--callback-delay-ms', '200');
  let server: ServerProcess | undefined;
  let serverUp: Promise<ServerProcess> = startServerProcess(args, undefined, ctx.cli);
  const attempts: Attempt[] = [];
  const submitMs: number[] = [];
  let next = 0;
  let killsDone = 0;
  const restartMs: number[] = [];

  const bodyFor = (index: number) => {
    const words = 4 + Math.floor(rng() ** 2 * 90);
    const text = Array.from({ length: words }, (_, i) => WORDS[(index + i * 7) % WORDS.length]).join(' ');
    return {
      input_text: `Request ${index}. ${text}.`,
      voice_code: VOICES[index % VOICES.length]!,
      audio_type: rng() < 0.7 ? 'mp3' : 'wav',
      generate_srt: rng() < 0.3,
      callback_url: `${receiver.url}?i=${index}`,
    };
  };

  // Submissions are spread over the kill phase so kills land during accepting, rendering and delivering.
  const meanGapMs = (kills * 3000 * clients) / total;
  const client = async () => {
    while (next < total) {
      const index = next++;
      const body = JSON.stringify(bodyFor(index));
      for (;;) {
        const current = await serverUp;
        const started = Date.now();
        try {
          const res = await request(`${current.url}/api/v1/tts`, {
            method: 'POST',
            headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
            body,
            headersTimeout: 15_000,
            bodyTimeout: 15_000,
          });
          const text = await res.body.text();
          if (res.statusCode === 200) {
            const id = (JSON.parse(text) as { result: { request_id: string } }).result.request_id;
            attempts.push({ index, id, uncertain: false });
            submitMs.push(Date.now() - started);
            break;
          }
          // 503 while shutting down cannot happen under SIGKILL; anything else is a defect.
          attempts.push({ index, uncertain: false });
          ctx.check(`submit ${index} answered`, false, `${res.statusCode} ${text.slice(0, 200)}`);
          break;
        } catch {
          // Killed mid-request: maybe stored, maybe not. Send it again to the next server, as a client would.
          attempts.push({ index, uncertain: true });
          await sleep(50);
        }
      }
      await sleep(rng() * 2 * meanGapMs);
    }
  };

  const killer = async () => {
    for (let k = 0; k < kills; k++) {
      server = await serverUp;
      await sleep(100 + rng() * 2900);
      server.child.kill('SIGKILL');
      await server.exited;
      killsDone++;
      const t0 = Date.now();
      serverUp = startServerProcess(args, undefined, ctx.cli);
      server = await serverUp;
      restartMs.push(Date.now() - t0);
    }
  };

  try {
    await Promise.all([killer(), ...Array.from({ length: clients }, () => client())]);
    server = await serverUp;
    const accepted = attempts.filter((a): a is Attempt & { id: string } => a.id !== undefined);
    const uncertain = attempts.filter((a) => a.uncertain).length;
    ctx.log(`${killsDone} kills, ${accepted.length} accepted, ${uncertain} submits cut off by a kill`);
    ctx.check(`killed and restarted ${kills} times`, killsDone === kills, `${killsDone}`);
    ctx.check(`all ${total} requests accepted`, accepted.length === total, `${accepted.length}`);

    // Let the last server drain: nothing queued, no callback pending.
    const base = server.url;
    const auth = { authorization: `Bearer ${KEY}` };
    await waitUntil(
      'the queue to drain',
      async () => {
        // With the key: without one, health says only ok.
        const res = await request(`${base}/api/v1/health`, { headers: auth });
        const health = (await res.body.json()) as { result: { queued: number } };
        return health.result.queued === 0 ? true : undefined;
      },
      180_000 * Math.max(1, ctx.scale),
      200,
    );
    const receivedIds = () =>
      new Set(receiver.received.map((c) => (c.json as { request_id?: string }).request_id));
    await waitUntil(
      'a callback for every accepted request',
      () => (accepted.every((a) => receivedIds().has(a.id)) ? true : undefined),
      60_000,
      100,
    ).catch(() => undefined);

    // Every accepted request finished; every finished audio file is complete and decodable.
    const statuses = new Map<string, number>();
    const reasons = new Map<string, number>();
    const audioDir = mkdtempSync(join(tmpdir(), 'faults-kill9-audio-'));
    const files: { id: string; path: string; type: string }[] = [];
    let badFinish = 0;
    let badFile = 0;
    for (const a of accepted) {
      const res = await request(`${base}/api/v1/tts/${a.id}`, { headers: auth });
      const detail = ((await res.body.json()) as { result: Record<string, unknown> }).result;
      const status = String(detail.status);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status !== 'SUCCESS' && status !== 'FAILURE') {
        badFinish++;
        continue;
      }
      if (status !== 'SUCCESS') {
        const reason = `${String(detail.error_code)}: ${String(detail.error_message)}`;
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        continue;
      }
      const audio = await request(String(detail.audio_link));
      const bytes = Buffer.from(await audio.body.arrayBuffer());
      const type = String(detail.audio_type);
      let complete = audio.statusCode === 200 && bytes.length === detail.audio_bytes;
      try {
        if (type === 'mp3') complete &&= parseMp3(bytes).durationMs > 200;
        else {
          const header = parseWavHeader(bytes);
          complete &&= header.dataBytes === bytes.length - header.dataOffset && header.dataBytes > 0;
        }
      } catch {
        complete = false;
      }
      if (!complete) badFile++;
      const path = join(audioDir, `${a.id}.${type}`);
      writeFileSync(path, bytes);
      files.push({ id: a.id, path, type });
    }
    ctx.check(
      'every accepted request reached SUCCESS or FAILURE',
      badFinish === 0,
      `${badFinish} not finished`,
    );
    ctx.check('every audio file is complete (size and container)', badFile === 0, `${badFile} incomplete`);
    const undecodable = await ffmpegFailures(files.map((f) => f.path));
    ctx.check(
      `every audio file decodes with ffmpeg (${files.length} files)`,
      undecodable.length === 0,
      undecodable.slice(0, 3).join('; '),
    );
    rmSync(audioDir, { recursive: true, force: true });
    const missingCallbacks = accepted.filter((a) => !receivedIds().has(a.id)).length;
    ctx.check(
      'every callback delivered at least once',
      missingCallbacks === 0,
      `${missingCallbacks} missing`,
    );
    const perId = new Map<string, number>();
    for (const c of receiver.received) {
      const id = (c.json as { request_id?: string }).request_id ?? '';
      perId.set(id, (perId.get(id) ?? 0) + 1);
    }
    const duplicates = [...perId.values()].filter((n) => n > 1).length;

    // Stop gracefully, then audit the database file itself.
    server.child.kill('SIGTERM');
    ctx.check('the last server stops cleanly on SIGTERM', (await server.exited) === 0);
    server = undefined;
    const audit = await auditDatabase(
      join(dir, 'studio.db'),
      accepted.map((a) => a.id),
    );
    for (const [name, problem] of audit.checks) ctx.check(name, problem === undefined, problem);
    const leftovers = readdirSync(join(dir, 'audio')).filter((f) => f.endsWith('.partial'));
    ctx.check('no partial files left in the audio folder', leftovers.length === 0, leftovers.join(', '));

    ctx.figure('kills', killsDone);
    ctx.figure('requests accepted', accepted.length);
    ctx.figure('submits cut off by a kill (resent)', uncertain);
    ctx.figure('stored without an answer (cut off after commit)', audit.unacknowledged);
    ctx.figure('SUCCESS', statuses.get('SUCCESS') ?? 0);
    ctx.figure('FAILURE', statuses.get('FAILURE') ?? 0);
    for (const [reason, n] of reasons) ctx.figure(`FAILURE reason (${n}×)`, reason);
    ctx.figure('lost requests', audit.lost);
    ctx.figure('callbacks delivered more than once', duplicates);
    ctx.figure('ledger: charges − refunds vs balance change (milli)', audit.ledgerLine);
    ctx.figure('restart to listening, median ms', Math.round(quantile(restartMs, 0.5)));
    ctx.figure('submit p50 / p99 ms', `${quantile(submitMs, 0.5)} / ${quantile(submitMs, 0.99)}`);
  } finally {
    server?.child.kill('SIGKILL');
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Audit {
  checks: [string, string | undefined][];
  lost: number;
  unacknowledged: number;
  ledgerLine: string;
}

/** Reads the database after the run: every request finished, charged once, refunded at most once. */
async function auditDatabase(path: string, acceptedIds: string[]): Promise<Audit> {
  const db = openDatabase(path);
  try {
    const rows = await db.all<{
      id: string;
      status: string;
      cost_milli: number;
      callback_state: string | null;
    }>('SELECT id, status, cost_milli, callback_state FROM requests');
    const byId = new Map(rows.map((r) => [r.id, r]));
    const lost = acceptedIds.filter((id) => !byId.has(id)).length;
    const acceptedSet = new Set(acceptedIds);
    const unacknowledged = rows.filter((r) => !acceptedSet.has(r.id)).length;
    const unfinished = rows.filter((r) => r.status !== 'SUCCESS' && r.status !== 'FAILURE').length;
    const undelivered = rows.filter((r) => r.callback_state !== 'delivered').length;
    const ledger = await db.all<{ request_id: string; kind: string; amount_milli: number }>(
      'SELECT request_id, kind, amount_milli FROM ledger',
    );
    const key = (await db.get<{ balance_milli: number; queued: number }>(
      'SELECT balance_milli, queued FROM api_keys',
    ))!;
    const keys = (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM api_keys'))!.n;
    let charges = 0;
    let refunds = 0;
    const charged = new Map<string, number>();
    const refunded = new Map<string, number>();
    for (const entry of ledger) {
      if (entry.kind === 'charge') {
        charges += -entry.amount_milli;
        charged.set(entry.request_id, (charged.get(entry.request_id) ?? 0) + 1);
      } else if (entry.kind === 'refund') {
        refunds += entry.amount_milli;
        refunded.set(entry.request_id, (refunded.get(entry.request_id) ?? 0) + 1);
      }
    }
    const change = key.balance_milli - DEFAULT_BALANCE_MILLI;
    let wrongCharges = 0;
    let wrongRefunds = 0;
    for (const row of rows) {
      if ((charged.get(row.id) ?? 0) !== 1) wrongCharges++;
      const expectRefund = row.status === 'FAILURE' && row.cost_milli > 0 ? 1 : 0;
      if ((refunded.get(row.id) ?? 0) !== expectRefund) wrongRefunds++;
    }
    return {
      lost,
      unacknowledged,
      ledgerLine: `${charges} − ${refunds} = ${charges - refunds}; balance fell by ${-change}`,
      checks: [
        ['no accepted request lost from the database', lost === 0 ? undefined : `${lost} lost`],
        ['every stored request finished', unfinished === 0 ? undefined : `${unfinished} unfinished`],
        [
          'every stored request has its callback marked delivered',
          undelivered === 0 ? undefined : `${undelivered} not delivered`,
        ],
        ['one key in the database', keys === 1 ? undefined : `${keys} keys`],
        ['every request charged exactly once', wrongCharges === 0 ? undefined : `${wrongCharges} wrong`],
        ['refunds exactly for the failed requests', wrongRefunds === 0 ? undefined : `${wrongRefunds} wrong`],
        [
          'ledger balances: charges − refunds = balance change',
          charges - refunds === -change ? undefined : `${charges} − ${refunds} ≠ ${-change}`,
        ],
        ['nothing left counted as queued', key.queued === 0 ? undefined : `queued = ${key.queued}`],
      ],
    };
  } finally {
    await db.close();
  }
}
