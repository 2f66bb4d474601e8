/**
 * Local API benchmark (npm run bench:api). The server runs in its own process on loopback;
 * this process is the client and the callback receiver. Prints figures only:
 *   - submit → callback time (200-character text, mp3 128 kbps) at idle, p50/p99;
 *   - submits accepted per second at 50 connections (autocannon, 10 s) and submit latency p50/p99;
 *   - submit → callback time for a second key while that load runs, p50/p99.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { request } from 'undici';
import { runCli, startServe } from './lib';

const FLOOD_KEY = 'bench-flood-key-000000000000';
const TEXT_200 =
  'The quick brown fox jumps over the lazy dog near the riverbank. ' +
  'Meanwhile, a small bird sings on the old oak tree, and the children laugh in the garden. ' +
  'Evening falls slowly, painting the sky orange!!';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

const dataDir = mkdtempSync(join(tmpdir(), 'api-bench-'));

// The callback receiver: notes when each request's callback arrives.
const arrivals = new Map<string, (at: number) => void>();
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = performance.now();
    res.writeHead(200).end();
    const id = (JSON.parse(Buffer.concat(chunks).toString()) as { request_id: string }).request_id;
    arrivals.get(id)?.(at);
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

const created = await runCli([
  'keys',
  'create',
  '--name',
  'probe',
  '--balance',
  '1000000000',
  '--data-dir',
  dataDir,
]);
const probeKey = /shown once, store it now\): (\S+)/.exec(created)![1]!;

const { server, base } = await startServe([
  '--data-dir',
  dataDir,
  '--api-key',
  FLOOD_KEY,
  '--balance',
  '1000000000',
  '--max-queued',
  '10000000',
]);

const body = (withCallback: boolean) =>
  JSON.stringify({
    input_text: TEXT_200,
    voice_code: 'en_female_emily_us',
    audio_type: 'mp3',
    bitrate: 128,
    ...(withCallback ? { callback_url: callbackUrl } : {}),
  });

/** One probe: submit with a callback; returns [submit ms, submit → callback ms]. */
async function probe(): Promise<[number, number]> {
  const t0 = performance.now();
  const res = await request(`${base}/api/v1/tts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${probeKey}`, 'content-type': 'application/json' },
    body: body(true),
  });
  const json = (await res.body.json()) as { result: { request_id: string } };
  const submitted = performance.now();
  const at = await new Promise<number>((resolve) => arrivals.set(json.result.request_id, resolve));
  arrivals.delete(json.result.request_id);
  return [submitted - t0, at - t0];
}

// Warm-up: the first renders load each worker's voice.
for (let i = 0; i < 8; i++) await probe();

const idleSubmit: number[] = [];
const idleCallback: number[] = [];
for (let i = 0; i < 50; i++) {
  const [s, c] = await probe();
  idleSubmit.push(s);
  idleCallback.push(c);
}

// Load: 50 connections submitting for 10 s with one key, while another key probes.
const loadCallback: number[] = [];
let loading = true;
const prober = (async () => {
  while (loading) {
    const [, c] = await probe();
    loadCallback.push(c);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
})();
const load = await autocannon({
  url: `${base}/api/v1/tts`,
  connections: 50,
  duration: 10,
  method: 'POST',
  headers: { authorization: `Bearer ${FLOOD_KEY}`, 'content-type': 'application/json' },
  body: body(false),
});
loading = false;
await prober;

console.log(
  `API benchmark (server in its own process, ${availableParallelism()} cores, loopback, 200-character text, mp3 128 kbps)`,
);
console.log(`  idle:  submit p50 ${ms(percentile(idleSubmit, 50))}, p99 ${ms(percentile(idleSubmit, 99))}`);
console.log(
  `  idle:  submit → callback p50 ${ms(percentile(idleCallback, 50))}, p99 ${ms(percentile(idleCallback, 99))} (n=${idleCallback.length})`,
);
console.log(
  `  load:  ${Math.round(load['2xx'] / load.duration)} submits/s accepted at 50 connections ` +
    `(${load['2xx']} accepted, ${load.non2xx} refused, ${load.errors} errors in ${load.duration.toFixed(1)} s)`,
);
console.log(`  load:  submit p50 ${ms(load.latency.p50)}, p99 ${ms(load.latency.p99)}`);
console.log(
  `  load:  submit → callback for another key p50 ${ms(percentile(loadCallback, 50))}, p99 ${ms(percentile(loadCallback, 99))} (n=${loadCallback.length})`,
);

server.kill('SIGKILL');
receiver.close();
rmSync(dataDir, { recursive: true, force: true });
