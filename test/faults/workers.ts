/**
 * Synthesis workers that crash or hang, at the server level. The core's engine runs its pool
 * with test/fixtures/faulty-worker.ts: a real eSpeak worker that exits its thread on a text
 * containing "__crash__" and spins forever on "__hang__" (injected through createEngine's
 * `workerUrl`). Requests whose synthesis crashes or hangs a worker must end FAILURE with
 * ENGINE_FAILED / ENGINE_TIMEOUT (the runner does not retry a render that failed: the same
 * text would fail again), within the task timeout, refunded, with no file left behind; the
 * pool replaces the workers (more crashes and hangs than it has workers, and it still serves)
 * and keeps serving during a hang; afterwards N normal requests all succeed with audible audio.
 */

import { readdirSync } from 'node:fs';
import { createEngine } from '../../electron/core/engine/create-engine';
import type { Engine } from '../../electron/core/engine/engine';
import { wavSamples, rmsOf } from '../fixtures/audio-analysis';
import { Agent, request } from 'undici';
import { startTestCore, type TestCore } from '../core/server/helpers';
import { quantile, type FaultContext, type Scenario } from './harness';

const POOL_SIZE = 2;
/**
 * The pool's task timeout: a chunk running longer means a hung worker. A normal chunk here takes
 * well under a second alone; CI runs this suite beside the slow test tier on the same two cores,
 * so the limit leaves room for that (a hang still ends in seconds).
 */
const TASK_TIMEOUT_MS = 5000;
const VOICE = 'en_female_emily_us';
const SENTENCES = [
  'The lighthouse keeper counted the ships that passed before dawn.',
  'A gentle rain fell over the harbour and the gulls went quiet.',
  'Every morning the baker opened her shop at six and sang while she worked.',
  'The old map showed a river that no longer reached the sea.',
  'Children ran along the pier, chasing the shadows of the clouds.',
];

export const scenarios: Scenario[] = [
  {
    name: 'workers',
    title:
      'synthesis workers that crash or hang: the request fails cleanly and is refunded, the pool replaces them and keeps serving',
    run,
  },
];

interface Finished {
  id: string;
  status: string;
  error_code: string | null;
  error_message: string | null;
  elapsedMs: number;
}

function normalText(i: number): string {
  return `Request ${i}. ${SENTENCES[i % SENTENCES.length]} ${SENTENCES[(i + 2) % SENTENCES.length]}`;
}

async function submit(tc: TestCore, text: string): Promise<string> {
  const res = await tc.call('POST', '/api/v1/tts', {
    body: { input_text: text, voice_code: VOICE, audio_type: 'wav' },
  });
  if (res.status !== 200) throw new Error(`submit answered ${res.status}: ${res.text}`);
  return res.json.result.request_id as string;
}

/** Submits and resolves with the final record (read through the API) and submit→finish time. */
async function render(tc: TestCore, text: string): Promise<Finished> {
  const t0 = Date.now();
  const id = await submit(tc, text);
  await tc.core.jobs.whenFinished(id);
  const elapsedMs = Date.now() - t0;
  const res = await tc.call('GET', `/api/v1/tts/${id}`);
  const r = res.json.result;
  return { id, status: r.status, error_code: r.error_code, error_message: r.error_message, elapsedMs };
}

/** SUCCESS with a WAV that downloads and is not silent; returns its RMS or a reason. */
async function audible(
  tc: TestCore,
  downloads: Agent,
  id: string,
): Promise<{ rms: number } | { problem: string }> {
  const res = await tc.call('GET', `/api/v1/tts/${id}`);
  const r = res.json.result;
  if (r.status !== 'SUCCESS') return { problem: `${id} ${r.status} ${r.error_code}: ${r.error_message}` };
  const file = await request(r.audio_link, { dispatcher: downloads });
  const body = new Uint8Array(await file.body.arrayBuffer());
  if (file.statusCode !== 200) return { problem: `${id} audio_link answered ${file.statusCode}` };
  try {
    const { pcm, sampleRate } = wavSamples(body);
    const rms = rmsOf(pcm);
    if (sampleRate !== 22050 || pcm.length < sampleRate * 0.5 || rms < 100)
      return { problem: `${id}: ${pcm.length} samples at ${sampleRate} Hz, RMS ${rms.toFixed(0)}` };
    return { rms };
  } catch (error) {
    return { problem: `${id}: ${(error as Error).message}` };
  }
}

async function run(ctx: FaultContext): Promise<void> {
  const engine: Engine = await createEngine({
    poolSize: POOL_SIZE,
    taskTimeoutMs: TASK_TIMEOUT_MS,
    workerUrl: new URL('../fixtures/faulty-worker.ts', import.meta.url),
  });
  const tc = await startTestCore({ engine });
  // Downloads go through their own agent, closed before the core (see the end of run()).
  const downloads = new Agent();
  const began = Date.now();
  const phase = (what: string) => ctx.log(`${((Date.now() - began) / 1000).toFixed(1)} s: ${what}`);
  const keyRow = async () => (await tc.core.store.keys.list()).find((k) => k.revoked_at === null)!;
  const startBalance = (await keyRow()).balance_milli;
  const failedIds: string[] = [];
  try {
    const warm = await render(tc, normalText(0));
    ctx.check(
      'a normal request succeeds with the fault-injecting worker',
      warm.status === 'SUCCESS',
      JSON.stringify(warm),
    );

    phase('crashes');
    // --- Crashes: more than the pool has workers, some while normal requests share the pool.
    const crashTexts = [
      '__crash__',
      `${SENTENCES[0]} ${SENTENCES[1]} Then the __crash__ happens here. ${SENTENCES[2]} ${SENTENCES[3]}`,
      ...Array.from({ length: POOL_SIZE }, (_, i) => `Crash number ${i}: __crash__.`),
    ];
    const alongside = Math.max(2, Math.round(6 * ctx.scale));
    const [crashes, neighbours] = await Promise.all([
      Promise.all(crashTexts.map((text) => render(tc, text))),
      Promise.all(Array.from({ length: alongside }, (_, i) => render(tc, normalText(100 + i)))),
    ]);
    failedIds.push(...crashes.map((c) => c.id));
    const badCrash = crashes.filter(
      (c) =>
        c.status !== 'FAILURE' ||
        c.error_code !== 'ENGINE_FAILED' ||
        !/worker stopped unexpectedly \(exit code 3\)/.test(c.error_message ?? ''),
    );
    ctx.check(
      `${crashes.length} requests whose synthesis crashes a worker end FAILURE ENGINE_FAILED with a clear message`,
      badCrash.length === 0,
      badCrash.length ? JSON.stringify(badCrash.slice(0, 3)) : `e.g. "${crashes[0]!.error_message}"`,
    );
    const neighbourProblems: string[] = [];
    for (const n of neighbours) {
      const a = await audible(tc, downloads, n.id);
      if ('problem' in a) neighbourProblems.push(a.problem);
    }
    ctx.check(
      `${alongside} normal requests rendering alongside the crashes all succeed with audible audio`,
      neighbourProblems.length === 0,
      neighbourProblems.slice(0, 3).join('; ') || undefined,
    );
    ctx.figure('crash: submit→FAILURE max (ms)', Math.max(...crashes.map((c) => c.elapsedMs)));

    phase('one hang');
    // --- One hang: the request fails with ENGINE_TIMEOUT after the task timeout; the other worker serves meanwhile.
    const hangPromise = render(tc, 'Please __hang__ now.');
    const duringHang = await Promise.all(
      Array.from({ length: Math.max(2, Math.round(4 * ctx.scale)) }, (_, i) =>
        render(tc, normalText(200 + i)),
      ),
    );
    const hang = await hangPromise;
    failedIds.push(hang.id);
    ctx.check(
      `a hung worker fails its request with ENGINE_TIMEOUT between ${TASK_TIMEOUT_MS} ms and ${TASK_TIMEOUT_MS + 3000} ms`,
      hang.status === 'FAILURE' &&
        hang.error_code === 'ENGINE_TIMEOUT' &&
        hang.elapsedMs >= TASK_TIMEOUT_MS &&
        hang.elapsedMs <= TASK_TIMEOUT_MS + 3000,
      `${hang.status} ${hang.error_code} after ${hang.elapsedMs} ms: ${hang.error_message}`,
    );
    const servedDuringHang = duringHang.filter(
      (d) => d.status === 'SUCCESS' && d.elapsedMs < TASK_TIMEOUT_MS,
    );
    ctx.check(
      `while one worker hangs, ${duringHang.length} normal requests succeed before the timeout (served by the other worker)`,
      servedDuringHang.length === duringHang.length,
      duringHang.map((d) => `${d.status} ${d.elapsedMs} ms`).join(', '),
    );
    ctx.figure('hang: submit→ENGINE_TIMEOUT (ms)', hang.elapsedMs);
    ctx.figure(
      'normal request latency while a worker hangs, max (ms)',
      Math.max(...duringHang.map((d) => d.elapsedMs)),
    );

    phase('all hang');
    // --- Every worker hangs at once: nothing can be served until the pool replaces them.
    const allHang = Array.from({ length: POOL_SIZE }, (_, i) => render(tc, `All hang ${i}: __hang__.`));
    const afterAllHang = await render(tc, normalText(300));
    const hangs = await Promise.all(allHang);
    failedIds.push(...hangs.map((h) => h.id));
    ctx.check(
      `with all ${POOL_SIZE} workers hung, each request ends ENGINE_TIMEOUT`,
      hangs.every((h) => h.status === 'FAILURE' && h.error_code === 'ENGINE_TIMEOUT'),
      hangs.map((h) => `${h.status} ${h.error_code} ${h.elapsedMs} ms`).join(', '),
    );
    ctx.check(
      'a request queued behind the hung workers succeeds once they are replaced',
      afterAllHang.status === 'SUCCESS' && afterAllHang.elapsedMs >= TASK_TIMEOUT_MS - 200,
      `${afterAllHang.status} after ${afterAllHang.elapsedMs} ms`,
    );
    ctx.figure('all workers hung: normal request waited (ms)', afterAllHang.elapsedMs);

    phase('normal requests');
    // --- The pool keeps serving: N normal requests, all audible.
    const n = Math.max(4, Math.round(24 * ctx.scale));
    const t0 = Date.now();
    const finals = await Promise.all(Array.from({ length: n }, (_, i) => render(tc, normalText(400 + i))));
    const wall = Date.now() - t0;
    const problems: string[] = [];
    const rmsValues: number[] = [];
    for (const f of finals) {
      const a = await audible(tc, downloads, f.id);
      if ('problem' in a) problems.push(a.problem);
      else rmsValues.push(a.rms);
    }
    ctx.check(
      `afterwards ${n} normal requests all SUCCESS with audible WAV audio (RMS ≥ 100)`,
      problems.length === 0,
      problems.slice(0, 3).join('; ') ||
        `RMS ${Math.min(...rmsValues).toFixed(0)}–${Math.max(...rmsValues).toFixed(0)}`,
    );
    ctx.figure(`${n} requests after the faults: wall time (ms)`, wall);
    ctx.figure(
      'latency p50 after the faults (ms)',
      quantile(
        finals.map((f) => f.elapsedMs),
        0.5,
      ),
    );

    phase('ledger');
    // --- Credits: every failed request refunded, the balance is what the successes cost.
    const refundProblems: string[] = [];
    for (const id of failedIds) {
      const row = (await tc.core.store.requests.get(id))!;
      const ledger = await tc.core.store.ledger.forRequest(id);
      const charged = ledger
        .filter((l) => l.kind === 'charge')
        .reduce((s, l) => s + Math.abs(l.amount_milli), 0);
      const refunded = ledger.filter((l) => l.kind === 'refund').reduce((s, l) => s + l.amount_milli, 0);
      if (row.cost_milli <= 0 || charged !== row.cost_milli || refunded !== row.cost_milli)
        refundProblems.push(`${id}: cost ${row.cost_milli}, charged ${charged}, refunded ${refunded}`);
    }
    const successCost = (
      await tc.core.store.requests.list({ keyId: (await keyRow()).id, limit: 1000, offset: 0 })
    ).rows
      .filter((r) => r.status === 'SUCCESS')
      .reduce((s, r) => s + r.cost_milli, 0);
    const balance = (await keyRow()).balance_milli;
    ctx.check(
      `${failedIds.length} failed requests refunded in the ledger; balance = start − cost of the successes`,
      refundProblems.length === 0 && balance === startBalance - successCost,
      refundProblems.slice(0, 3).join('; ') ||
        `balance ${balance}, start ${startBalance}, successes ${successCost}`,
    );

    // --- No file for a failed request, no temporary file at all.
    const files = readdirSync(tc.core.jobs.files.location);
    const leftovers = files.filter((f) => f.endsWith('.partial') || failedIds.some((id) => f.startsWith(id)));
    ctx.check(
      'no partial file and no file of a failed request in the files dir',
      leftovers.length === 0,
      leftovers.join(', ') || undefined,
    );
  } finally {
    // Downloads go through their own agent, closed first: a keep-alive connection whose file
    // response has just ended can hold fastify's close() for its 72 s keep-alive timeout.
    await downloads.close();
    await tc.close();
    await engine.close();
  }
}
