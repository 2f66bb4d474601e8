/**
 * `npm run test:fuzz [-- --scale <n>] [-- --seed <n>]`: starts the real server in-process
 * (HTTP on 127.0.0.1, temp data dir) and sends 10,000 × scale malformed requests.
 */

import { createApiKey, revokeApiKey } from '../../electron/core/jobs/keys';
import { systemClock } from '../../electron/core/platform/clock';
import { startTestCore } from '../core/server/helpers';
import { checkAnswer, generateCase, send, type FuzzCase } from './api.fuzz';
import { random as createRng } from '../fixtures/random';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const scale = Number(arg('scale') ?? 1);
if (!(scale > 0)) throw new Error('--scale must be a positive number');
const seed = Number(arg('seed') ?? Math.floor(Math.random() * 2 ** 31));
const total = Math.round(10_000 * scale);
const concurrency = 8;
const timeLimitMs = 10 * 60_000 * Math.max(1, scale);
const VALID_EVERY = 500;
const VALID_VOICE = 'en_female_emily_us';

console.log(`fuzz: seed ${seed}, ${total} cases (reproduce with --seed ${seed} --scale ${scale})`);
const started = Date.now();
// The failed-auth slow-down (tested in test/core/server/auth-throttle.test.ts) would spend the run
// waiting on the thousands of bad keys sent here; this suite is about answers, not timing.
const t = await startTestCore({ authThrottle: { baseDelayMs: 0 } });
// Revoked by its id: a key's stored prefix (4 characters, `nsk_`) names every generated key.
const { key: revokedKey, row: revokedRow } = await createApiKey(t.core.store, systemClock, {});
await revokeApiKey(t.core.store, systemClock, revokedRow.id);
const target = { url: t.core.url, key: t.key, revokedKey, validVoice: VALID_VOICE };

const rng = createRng(seed);
const counts = new Map<string, { passed: number; failed: number }>();
const failures: string[] = [];
const validIds: string[] = [];
let passed = 0;
let failed = 0;
let next = 0;

function record(category: string, problem: string | undefined, c: FuzzCase): void {
  const entry = counts.get(category) ?? { passed: 0, failed: 0 };
  counts.set(category, entry);
  if (problem === undefined) {
    entry.passed++;
    passed++;
  } else {
    entry.failed++;
    failed++;
    if (failures.length < Number(process.env.FUZZ_SHOW ?? 30)) {
      const body = c.body === undefined ? '' : String(c.body).slice(0, 100);
      failures.push(`[${category}] ${c.method} ${c.path.slice(0, 100)} ${JSON.stringify(body)}: ${problem}`);
    }
  }
}

/** What the server answered, by HTTP status and by error_code (the report's figures). */
const byStatus = new Map<string, number>();
const byCode = new Map<string, number>();
const tally = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
const listed = (map: Map<string, number>) =>
  [...map.entries()]
    .sort(([, a], [, b]) => b - a)
    .map(([name, n]) => `${name}=${n}`)
    .join(', ');

async function run(c: FuzzCase): Promise<void> {
  try {
    const answer = await send(target.url, c);
    tally(byStatus, String(answer.status));
    let code = '(no error code)';
    try {
      const body = JSON.parse(answer.text) as { error_code?: unknown; error?: { code?: unknown } };
      // The OpenAI-compatible route answers in OpenAI's error shape.
      const found = c.openai ? body.error?.code : body.error_code;
      if (typeof found === 'string') code = c.openai ? `openai:${found}` : found;
    } catch {
      // Not JSON: checkAnswer reports it.
    }
    tally(byCode, code);
    record(c.category, checkAnswer(c, answer), c);
  } catch (error) {
    record(c.category, `no answer: ${(error as Error).message}`, c);
  }
}

async function submitValid(): Promise<void> {
  const c: FuzzCase = {
    category: 'valid',
    method: 'POST',
    path: '/api/v1/tts',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
    body: JSON.stringify({ input_text: `Valid request ${validIds.length}.`, voice_code: VALID_VOICE }),
  };
  try {
    const answer = await send(target.url, c);
    const id = (JSON.parse(answer.text) as { result?: { request_id?: string } }).result?.request_id;
    if (answer.status === 200 && id) {
      validIds.push(id);
      record('valid', undefined, c);
    } else record('valid', `valid request refused: ${answer.status} ${answer.text.slice(0, 100)}`, c);
  } catch (error) {
    record('valid', `no answer: ${(error as Error).message}`, c);
  }
}

async function hugeBody(): Promise<void> {
  const body = `{"input_text":"${'a'.repeat(10 * 1024 * 1024)}","voice_code":"${VALID_VOICE}"}`;
  const c: FuzzCase = {
    category: 'huge_body',
    method: 'POST',
    path: '/api/v1/tts',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
    body,
  };
  await run(c);
  await run({ ...c, path: '/v1/audio/speech', openai: true });
}

async function worker(): Promise<void> {
  while (next < total && Date.now() - started < timeLimitMs) {
    const n = next++;
    if (n % VALID_EVERY === 0) await submitValid();
    if (n % 3000 === 0) await hugeBody();
    await run(generateCase(rng, target));
  }
}

try {
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  // The server must still be up and every valid request must finish.
  const health = await send(target.url, {
    category: 'health',
    method: 'GET',
    path: '/api/v1/voices',
    headers: { authorization: `Bearer ${t.key}` },
  });
  if (health.status !== 200) record('health', `server not healthy: ${health.status}`, {} as FuzzCase);
  const deadline = Date.now() + 30_000;
  for (const id of validIds) {
    let status = '';
    while (Date.now() < deadline) {
      status = (await t.core.store.requests.get(id))?.status ?? '';
      if (status === 'SUCCESS' || status === 'FAILURE') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const c = { category: 'valid_success', method: 'GET', path: `/api/v1/tts/${id}`, headers: {} };
    record('valid_success', status === 'SUCCESS' ? undefined : `valid request ${id} ended ${status}`, c);
  }
} finally {
  await t.close();
}

const seconds = ((Date.now() - started) / 1000).toFixed(1);
for (const line of failures) console.log(`FAIL ${line}`);
const perCategory = [...counts.entries()]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([name, c]) => `${name}=${c.passed + c.failed}${c.failed ? ` (${c.failed} failed)` : ''}`)
  .join(', ');
console.log(`categories: ${perCategory}`);
console.log(`answers by HTTP status: ${listed(byStatus)}`);
console.log(`answers by error_code: ${listed(byCode)}`);
console.log(`seed ${seed}, ${seconds} s`);
console.log(`fuzz: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
