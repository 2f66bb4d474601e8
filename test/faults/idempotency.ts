/**
 * kill -9 during idempotent submits: a few clients submit without pause, each request under
 * its own Idempotency-Key, while the `serve` process is killed with SIGKILL at random moments
 * and restarted (2 times × scale, at least 2). A submit whose answer did not arrive is sent again, with the
 * same key, to the next server, until it is answered. Afterwards each key must map to exactly
 * one stored request (the one every answer named), every request to exactly one key and one
 * charge, and the ledger must balance, read from the SQLite file; every key sent once more is
 * answered as a replay of the same request.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { openDatabase } from '../../electron/core/store/sqlite-database';
import { DEFAULT_BALANCE_MILLI } from '../../electron/shared/pricing';
import { startServerProcess, type ServerProcess } from '../core/server/process';
import { random as createRng } from '../fixtures/random';
import { serveArgs, sleep, type FaultContext, type Scenario } from './harness';

const KEY = 'idempotency-fault-key-0123456789abcdef';
const VOICES = ['en_female_emily_us', 'vi_female_thuytrang_mb', 'en_male_onyx_default'];

export const scenarios: Scenario[] = [
  {
    name: 'kill9-idempotent',
    title: 'kill -9 mid-submit, keys resent after a restart: each Idempotency-Key stored and charged once',
    run,
  },
];

interface Answer {
  id: string;
  replayed: boolean;
}

async function run(ctx: FaultContext): Promise<void> {
  // Each restart of `serve` costs seconds: few kills, many submits in flight at each.
  const kills = Math.max(2, Math.round(2 * ctx.scale));
  const clients = 12;
  const rng = createRng(ctx.seed ^ 0x1de4b07e);
  const dir = mkdtempSync(join(tmpdir(), 'faults-idempotency-'));
  const args = serveArgs(dir, KEY, 1);
  let serverUp: Promise<ServerProcess> = startServerProcess(args, undefined, ctx.cli);
  let server: ServerProcess | undefined;
  let killing = true;
  let next = 0;
  /** Every 200 answer per key, in order. */
  const answers = new Map<string, Answer[]>();
  const bodies = new Map<string, string>();
  /** Keys whose first send was cut off by a kill. */
  const cutOff = new Set<string>();
  let resends = 0;
  let refused = 0;

  const send = async (base: string, key: string): Promise<Answer | 'refused'> => {
    const res = await request(`${base}/api/v1/tts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: bodies.get(key)!,
      headersTimeout: 15_000,
      bodyTimeout: 15_000,
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) {
      ctx.check(`submit ${key} answered`, false, `${res.statusCode} ${text.slice(0, 200)}`);
      return 'refused';
    }
    return {
      id: (JSON.parse(text) as { result: { request_id: string } }).result.request_id,
      replayed: res.headers['idempotent-replayed'] === 'true',
    };
  };

  const client = async () => {
    while (killing) {
      const index = next++;
      const key = `fault-${ctx.seed}-${index}`;
      bodies.set(
        key,
        JSON.stringify({
          input_text: `Submit number ${index} is stored once.`,
          voice_code: VOICES[index % VOICES.length],
        }),
      );
      // Sent until answered, always with the same key: what a careful client does after a crash.
      for (let attempt = 0; ; attempt++) {
        const current = await serverUp;
        try {
          const answer = await send(current.url, key);
          if (answer === 'refused') refused++;
          else answers.set(key, [answer]);
          break;
        } catch {
          if (attempt === 0) cutOff.add(key);
          resends++;
          await sleep(20);
        }
      }
      await sleep(rng() * 10);
    }
  };

  const killer = async () => {
    for (let k = 0; k < kills; k++) {
      server = await serverUp;
      await sleep(100 + rng() * 500);
      server.child.kill('SIGKILL');
      await server.exited;
      serverUp = startServerProcess(args, undefined, ctx.cli);
    }
    server = await serverUp;
    // Let the clients submit to the last server a moment before they stop.
    await sleep(200);
    killing = false;
  };

  try {
    await Promise.all([killer(), ...Array.from({ length: clients }, () => client())]);
    server = await serverUp;
    const keys = [...answers.keys()];
    ctx.log(
      `${kills} kills, ${keys.length} keys answered, ${cutOff.size} cut off by a kill, ${resends} resends`,
    );
    ctx.check(
      'every key was answered 200',
      refused === 0 && keys.length === next,
      `${keys.length} of ${next}`,
    );
    ctx.check('kills cut off submits in flight', cutOff.size > 0, `${cutOff.size}`);
    const replayedOnResend = [...cutOff].filter((key) => answers.get(key)?.[0]?.replayed).length;

    // Every key once more, to the last server: a replay of the request each key first named.
    let wrongReplays = 0;
    for (const key of keys) {
      const answer = await send(server.url, key);
      if (answer === 'refused') continue;
      const first = answers.get(key)![0]!;
      if (!answer.replayed || answer.id !== first.id) wrongReplays++;
      answers.get(key)!.push(answer);
    }
    ctx.check(
      'every key sent again is a replay of its request (Idempotent-Replayed: true, same request_id)',
      wrongReplays === 0,
      `${wrongReplays} wrong`,
    );

    server.child.kill('SIGTERM');
    ctx.check('the last server stops cleanly on SIGTERM', (await server.exited) === 0);
    server = undefined;
    for (const [name, problem] of await auditDatabase(join(dir, 'studio.db'), answers))
      ctx.check(name, problem === undefined, problem);

    ctx.figure('kills', kills);
    ctx.figure('idempotency keys', keys.length);
    ctx.figure('submits cut off by a kill (resent with the same key)', cutOff.size);
    ctx.figure('of those, stored before the kill and replayed on resend', replayedOnResend);
  } finally {
    server?.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Reads the database after the run: keys ↔ requests one to one, one charge each, the ledger balanced. */
async function auditDatabase(
  path: string,
  answers: Map<string, Answer[]>,
): Promise<[string, string | undefined][]> {
  const db = openDatabase(path);
  try {
    const keyRows = await db.all<{ idem_key: string; request_id: string }>(
      'SELECT idem_key, request_id FROM idempotency_keys',
    );
    const requests = await db.all<{ id: string; status: string; cost_milli: number }>(
      'SELECT id, status, cost_milli FROM requests',
    );
    const ledger = await db.all<{ request_id: string; kind: string; amount_milli: number }>(
      'SELECT request_id, kind, amount_milli FROM ledger',
    );
    const balance = (await db.get<{ balance_milli: number }>('SELECT balance_milli FROM api_keys'))!
      .balance_milli;

    const requestOfKey = new Map(keyRows.map((r) => [r.idem_key, r.request_id]));
    let wrongKeys = 0;
    for (const [key, list] of answers) {
      const stored = requestOfKey.get(key);
      if (stored === undefined || list.some((answer) => answer.id !== stored)) wrongKeys++;
    }
    const keysPerRequest = new Map<string, number>();
    for (const row of keyRows)
      keysPerRequest.set(row.request_id, (keysPerRequest.get(row.request_id) ?? 0) + 1);
    const notOneKey = requests.filter((r) => keysPerRequest.get(r.id) !== 1).length;

    let charges = 0;
    let refunds = 0;
    const charged = new Map<string, number>();
    for (const entry of ledger) {
      if (entry.kind === 'charge') {
        charges += -entry.amount_milli;
        charged.set(entry.request_id, (charged.get(entry.request_id) ?? 0) + 1);
      } else if (entry.kind === 'refund') refunds += entry.amount_milli;
    }
    const wrongCharges = requests.filter((r) => charged.get(r.id) !== 1).length;
    const fell = DEFAULT_BALANCE_MILLI - balance;
    return [
      [
        'each key maps to exactly one stored request, the one every answer named',
        wrongKeys === 0 && keyRows.length === answers.size
          ? undefined
          : `${wrongKeys} wrong, ${keyRows.length} key rows for ${answers.size} keys`,
      ],
      [
        'each stored request has exactly one key (nothing stored twice or without its key)',
        notOneKey === 0 && requests.length === answers.size
          ? undefined
          : `${notOneKey} wrong, ${requests.length} requests for ${answers.size} keys`,
      ],
      ['every request charged exactly once', wrongCharges === 0 ? undefined : `${wrongCharges} wrong`],
      [
        'ledger balances: charges − refunds = balance change',
        charges - refunds === fell ? undefined : `${charges} − ${refunds} ≠ ${fell}`,
      ],
    ];
  } finally {
    await db.close();
  }
}
