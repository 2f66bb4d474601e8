/**
 * Misbehaving callback receivers. One core with a short retry policy sends callbacks to
 * receivers on 127.0.0.1 that refuse the connection, hang (→ timeout), answer 500, answer
 * slowly but within the timeout, close mid-response (inside the headers, or inside the body),
 * and to a healthy one. For each request: every attempt is recorded with the right
 * status_code (null when no complete answer arrived) and a meaningful result text, the
 * number of attempts follows the policy, the gaps between attempts respect the backoff, and
 * the final state shows in GET /callback-result, /callback-attempts and the studio's
 * request list (what the UI's Callbacks view reads, through a signed-in session).
 * Meanwhile healthy requests get their callbacks quickly and health/list routes answer.
 */

import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { refusingUrl, startReceiver } from '../fixtures/callback-receiver';
import { fetchUrl, startTestCore, type TestCore } from '../core/server/helpers';
import { signInStudio } from '../fixtures/studio-session';
import { quantile, sleep, waitUntil, type FaultContext, type Scenario } from './harness';

const POLICY = { attempts: 4, baseDelayMs: 200, factor: 2, timeoutMs: 1000 };
/** The slow receiver answers after this long: well within the timeout. */
const SLOW_MS = 600;
/**
 * Render finished → callback received for a healthy request must stay below this while others
 * hang: the receivers' timeout, so a healthy callback queued behind even one hanging attempt
 * fails it. Measured from the render's end, not the submit: the render's own time depends on how
 * busy the machine is (CI runs other suites beside this one), the callback's wait does not.
 */
const HEALTHY_BOUND_MS = POLICY.timeoutMs;

type Kind = 'refused' | 'hang' | 'http500' | 'slow' | 'close-in-headers' | 'close-in-body' | 'healthy';

interface Expectation {
  state: 'delivered' | 'failed';
  attempts: number;
  /** Expected status_code of every attempt. */
  status: number | null;
  /** What every attempt's result text must say. */
  result: RegExp;
}

const EXPECT: Record<Kind, Expectation> = {
  refused: { state: 'failed', attempts: POLICY.attempts, status: null, result: /^connection refused$/ },
  hang: {
    state: 'failed',
    attempts: POLICY.attempts,
    status: null,
    result: /^timeout: no complete answer within 1000 ms/,
  },
  http500: {
    state: 'failed',
    attempts: POLICY.attempts,
    status: 500,
    result: /^HTTP 500 Internal Server Error$/,
  },
  slow: { state: 'delivered', attempts: 1, status: 200, result: /^HTTP 200/ },
  'close-in-headers': {
    state: 'failed',
    attempts: POLICY.attempts,
    status: null,
    result: /^connection closed before a complete answer/,
  },
  'close-in-body': {
    state: 'failed',
    attempts: POLICY.attempts,
    status: null,
    result: /^connection closed before a complete answer/,
  },
  healthy: { state: 'delivered', attempts: 1, status: 200, result: /^HTTP 200/ },
};

export const scenarios: Scenario[] = [
  {
    name: 'callbacks',
    title:
      'callback receivers that refuse, hang, answer 500, answer slowly or close mid-response; retries per policy, the rest unaffected',
    run,
  },
];

/** A receiver that logs arrival times per request id and misbehaves as told. */
interface BadReceiver {
  url: string;
  /** Arrival times of attempts, per X-Request-Id (empty for `refused`). */
  arrivals: Map<string, number[]>;
  close(): Promise<void>;
}

function note(arrivals: Map<string, number[]>, id: string | undefined): void {
  if (!id) return;
  const list = arrivals.get(id) ?? [];
  list.push(Date.now());
  arrivals.set(id, list);
}

async function listen(server: Server | NetServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function startBadReceiver(kind: Exclude<Kind, 'healthy'>): Promise<BadReceiver> {
  const arrivals = new Map<string, number[]>();
  if (kind === 'refused') return { url: await refusingUrl(), arrivals, close: async () => undefined };
  if (kind === 'close-in-headers' || kind === 'close-in-body') {
    // Raw TCP: read the request, write part of an answer, then destroy the socket.
    const sockets = new Set<Socket>();
    const server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      let head = '';
      socket.on('data', (chunk: Buffer) => {
        const before = head.length;
        head += chunk.toString('latin1');
        const end = head.indexOf('\r\n\r\n');
        if (end < 0 || before > end) return;
        const id = /x-request-id: *([0-9a-f]+)/i.exec(head.slice(0, end))?.[1];
        note(arrivals, id);
        head = '';
        const partial =
          kind === 'close-in-headers'
            ? 'HTTP/1.1 200 OK\r\nContent-Type: text/pl'
            : 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\npartial bo';
        socket.write(partial, () => setTimeout(() => socket.destroy(), 20));
      });
    });
    const port = await listen(server);
    return {
      url: `http://127.0.0.1:${port}/hook`,
      arrivals,
      close: () =>
        new Promise<void>((resolve) => {
          for (const s of sockets) s.destroy();
          server.close(() => resolve());
        }),
    };
  }
  const server = createHttpServer((req, res) => {
    const id = req.headers['x-request-id'];
    req.resume();
    req.on('end', () => {
      note(arrivals, typeof id === 'string' ? id : undefined);
      if (kind === 'hang') return; // accepted, never answered
      if (kind === 'http500') {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('internal oops');
        return;
      }
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok, slowly'), SLOW_MS);
    });
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Submitted {
  kind: Kind;
  id: string;
  submittedAt: number;
}

async function submit(tc: TestCore, text: string, callbackUrl: string): Promise<string> {
  const res = await tc.call('POST', '/api/v1/tts', {
    body: {
      input_text: text,
      voice_code: 'en_female_emily_us',
      audio_type: 'mp3',
      callback_url: callbackUrl,
    },
  });
  if (res.status !== 200) throw new Error(`submit answered ${res.status}: ${res.text}`);
  return res.json.result.request_id as string;
}

async function run(ctx: FaultContext): Promise<void> {
  const perKind = Math.max(1, Math.round(3 * ctx.scale));
  const tc = await startTestCore({ retry: POLICY, poolSize: 2 });
  const bad = new Map<Exclude<Kind, 'healthy'>, BadReceiver>();
  const healthy = await startReceiver();
  try {
    for (const kind of ['refused', 'hang', 'http500', 'slow', 'close-in-headers', 'close-in-body'] as const)
      bad.set(kind, await startBadReceiver(kind));

    // --- Phase 1: every misbehaving kind at once.
    const submitted: Submitted[] = [];
    for (let i = 0; i < perKind; i++) {
      for (const [kind, receiver] of bad) {
        const id = await submit(tc, `Callback fault ${kind} number ${i}.`, receiver.url);
        submitted.push({ kind, id, submittedAt: Date.now() });
      }
    }
    ctx.log(`${submitted.length} requests with misbehaving receivers submitted`);

    // --- Phase 2: while the hanging receivers hold connections, healthy requests and other routes.
    // Renders first: a healthy request must not merely wait behind the others' synthesis.
    await waitUntil(
      'the misbehaving requests to finish rendering',
      async () => {
        const rows = await Promise.all(submitted.map((s) => tc.core.store.requests.get(s.id)));
        return rows.every((row) => row?.status === 'SUCCESS') ? true : undefined;
      },
      60_000,
    );
    const hang = bad.get('hang')!;
    await waitUntil(
      'a hanging callback in progress',
      () => (hang.arrivals.size > 0 ? true : undefined),
      10_000,
    );
    const healthyLatency: number[] = [];
    const healthyDelivery: number[] = [];
    const routeLatency: number[] = [];
    let routesOk = true;
    let routeDetail = '';
    const healthyCount = Math.max(3, Math.round(8 * ctx.scale));
    // Spread over the first attempts and backoff of the bad ones (≈ attempts × timeout).
    const spreadMs = ((POLICY.attempts * POLICY.timeoutMs) / healthyCount) * 0.9;
    let hangingDuringHealthy = 0;
    for (let i = 0; i < healthyCount; i++) {
      const t0 = Date.now();
      const id = await submit(tc, `Healthy request ${i} while others hang.`, `${healthy.url}?i=${i}`);
      submitted.push({ kind: 'healthy', id, submittedAt: t0 });
      const [got] = await healthy.waitFor(1, (c) => c.headers['x-request-id'] === id, 15_000);
      healthyLatency.push(got!.at - t0);
      const finishedAt = (await tc.core.store.requests.get(id))?.finished_at;
      healthyDelivery.push(finishedAt ? got!.at - Date.parse(finishedAt) : Infinity);
      // A hanging attempt was open during this healthy round trip (it lasts timeoutMs).
      for (const times of hang.arrivals.values())
        if (times.some((at) => at <= got!.at && at + POLICY.timeoutMs >= t0)) {
          hangingDuringHealthy++;
          break;
        }
      for (const path of ['/api/v1/health', '/api/v1/tts?page=1&page_size=50']) {
        const r0 = Date.now();
        const res = await tc.call('GET', path);
        routeLatency.push(Date.now() - r0);
        if (res.status !== 200 || res.json?.status !== 1) {
          routesOk = false;
          routeDetail = `${path} answered ${res.status}`;
        }
      }
      await sleep(Math.max(0, spreadMs - (Date.now() - t0)));
    }
    ctx.check(
      `healthy callbacks overlapped hanging ones (${hangingDuringHealthy}/${healthyCount})`,
      // At least one: how many depends on the machine's speed (a busy machine renders slower).
      hangingDuringHealthy >= 1,
      'the healthy requests must run while bad receivers hold connections, or the latency check proves nothing',
    );
    const maxDelivery = Math.max(...healthyDelivery);
    ctx.check(
      `healthy render finished→callback stays below ${HEALTHY_BOUND_MS} ms while receivers hang`,
      maxDelivery < HEALTHY_BOUND_MS,
      `max ${maxDelivery} ms, all ${healthyDelivery.join(', ')} (submit→callback ${healthyLatency.join(', ')})`,
    );
    ctx.check('health and list routes answer while receivers hang', routesOk, routeDetail || undefined);
    ctx.figure('healthy submit→callback p50 (ms)', quantile(healthyLatency, 0.5));
    ctx.figure('healthy submit→callback max (ms)', Math.max(...healthyLatency));
    ctx.figure('healthy render finished→callback max (ms)', maxDelivery);
    ctx.figure('health/list route max latency while hanging (ms)', Math.max(...routeLatency));

    // --- Phase 3: wait for every bad request to reach its final callback state.
    const worstMs =
      POLICY.attempts * (POLICY.timeoutMs + 500) +
      POLICY.baseDelayMs * ((POLICY.factor ** (POLICY.attempts - 1) - 1) / (POLICY.factor - 1)) +
      10_000;
    const finalRows = new Map<string, { state: string; attempts: number; next: unknown }>();
    await waitUntil(
      'every callback to reach delivered or failed',
      async () => {
        for (const s of submitted) {
          if (finalRows.has(s.id)) continue;
          const res = await tc.call('GET', `/api/v1/tts/${s.id}`);
          const r = res.json?.result;
          if (r && (r.callback_state === 'delivered' || r.callback_state === 'failed'))
            finalRows.set(s.id, {
              state: r.callback_state,
              attempts: r.callback_attempts,
              next: r.callback_next_attempt_at,
            });
        }
        return finalRows.size === submitted.length ? true : undefined;
      },
      worstMs,
      100,
    );
    // Give a wrongly scheduled extra attempt the chance to show up before counting.
    await sleep(POLICY.baseDelayMs * POLICY.factor ** (POLICY.attempts - 1) + 300);

    // The UI's Callbacks view: the signed-in studio lists requests and reads their attempts.
    const signIn = await signInStudio(tc.core.loginUrl).catch((error: unknown) => error as Error);
    ctx.check(
      'studio sign-in gives a session cookie and its header',
      !(signIn instanceof Error) && signIn.cookie.includes('='),
      signIn instanceof Error ? signIn.message : 'signed in',
    );
    const studioHeaders = signIn instanceof Error ? {} : signIn.headers;
    const studioGet = (path: string) => fetchUrl(`${tc.core.url}${path}`, 'GET', { headers: studioHeaders });
    const uiList = await studioGet('/api/v1/tts?page=1&page_size=100');
    const uiItems = new Map<string, { callback_state: string; callback_attempts: number }>(
      (
        (uiList.json?.result?.items ?? []) as Array<{
          request_id: string;
          callback_state: string;
          callback_attempts: number;
        }>
      ).map((item) => [item.request_id, item]),
    );
    ctx.check('studio request list answers', uiList.status === 200 && uiItems.size > 0, `${uiList.status}`);

    const gapsByKind = new Map<Kind, number[][]>();
    const durationsByKind = new Map<Kind, number[]>();
    const problems = new Map<Kind, string[]>();
    const fail = (kind: Kind, what: string) => problems.set(kind, [...(problems.get(kind) ?? []), what]);
    for (const s of submitted) {
      const want = EXPECT[s.kind];
      const final = finalRows.get(s.id)!;
      if (final.state !== want.state) fail(s.kind, `${s.id}: state ${final.state}, want ${want.state}`);
      if (final.attempts !== want.attempts)
        fail(s.kind, `${s.id}: ${final.attempts} attempts, want ${want.attempts}`);
      if (final.next !== null) fail(s.kind, `${s.id}: still has a next attempt at ${String(final.next)}`);

      // The spec's get-callback-result: the latest attempt.
      const latest = await tc.call('GET', `/api/v1/tts/${s.id}/callback-result`);
      const lr = latest.json?.result;
      if (latest.status !== 200 || latest.json?.status !== 1)
        fail(s.kind, `callback-result answered ${latest.status}`);
      else {
        if (lr.request_id !== s.id || lr.payload?.request_id !== s.id || lr.payload?.status !== 'SUCCESS')
          fail(s.kind, `callback-result payload wrong: ${JSON.stringify(lr).slice(0, 200)}`);
        if (typeof lr.callback_url !== 'string' || !lr.callback_url.startsWith('http://127.0.0.1:'))
          fail(s.kind, `callback-result callback_url ${lr.callback_url}`);
        if (lr.status_code !== want.status)
          fail(s.kind, `callback-result status_code ${lr.status_code}, want ${want.status}`);
        if (typeof lr.result !== 'string' || !want.result.test(lr.result))
          fail(s.kind, `callback-result result "${lr.result}" does not match ${want.result}`);
      }

      // Every attempt, through the route the UI reads (signed-in session).
      const all = await studioGet(`/api/v1/tts/${s.id}/callback-attempts`);
      // Answered newest first: read oldest first here.
      const items = [
        ...((all.json?.result?.items ?? []) as Array<{
          attempt: number;
          created_at: string;
          status_code: number | null;
          result: string;
          duration_ms: number;
        }>),
      ].reverse();
      if (!durationsByKind.has(s.kind))
        durationsByKind.set(
          s.kind,
          items.map((a) => a.duration_ms),
        );
      if (items.length !== want.attempts)
        fail(s.kind, `${items.length} attempt records, want ${want.attempts}`);
      items.forEach((a, i) => {
        if (a.attempt !== i + 1) fail(s.kind, `attempt numbering ${a.attempt} at ${i}`);
        if (a.status_code !== want.status) fail(s.kind, `attempt ${a.attempt} status_code ${a.status_code}`);
        if (!want.result.test(a.result)) fail(s.kind, `attempt ${a.attempt} result "${a.result}"`);
      });
      if (s.kind === 'hang')
        for (const a of items)
          if (a.duration_ms < POLICY.timeoutMs - 50 || a.duration_ms > POLICY.timeoutMs + 1500)
            fail(s.kind, `hanging attempt took ${a.duration_ms} ms, want ≈ ${POLICY.timeoutMs}`);
      if (s.kind === 'slow' && items[0] && items[0].duration_ms < SLOW_MS - 20)
        fail(s.kind, `slow attempt took ${items[0].duration_ms} ms, below the receiver's ${SLOW_MS} ms`);

      // Backoff: the next attempt starts at least delay_i after the previous one ended.
      const gaps: number[] = [];
      for (let i = 1; i < items.length; i++) {
        const prev = items[i - 1]!;
        const gap = Date.parse(items[i]!.created_at) - Date.parse(prev.created_at);
        const delay = POLICY.baseDelayMs * POLICY.factor ** (i - 1);
        gaps.push(gap);
        if (gap < prev.duration_ms + delay - 2)
          fail(
            s.kind,
            `gap ${i}→${i + 1} is ${gap} ms, below duration ${prev.duration_ms} + backoff ${delay}`,
          );
        if (gap > prev.duration_ms + delay + 1500)
          fail(
            s.kind,
            `gap ${i}→${i + 1} is ${gap} ms, far above duration ${prev.duration_ms} + backoff ${delay}`,
          );
      }
      gapsByKind.set(s.kind, [...(gapsByKind.get(s.kind) ?? []), gaps]);

      // The receiver's own clock agrees: as many arrivals as attempts, spaced by the backoff.
      const arrivals =
        s.kind === 'healthy' || s.kind === 'refused' ? undefined : bad.get(s.kind)!.arrivals.get(s.id);
      if (arrivals) {
        if (arrivals.length !== want.attempts)
          fail(s.kind, `receiver saw ${arrivals.length} attempts, want ${want.attempts}`);
        for (let i = 1; i < arrivals.length; i++) {
          const delay = POLICY.baseDelayMs * POLICY.factor ** (i - 1);
          if (arrivals[i]! - arrivals[i - 1]! < delay)
            fail(
              s.kind,
              `receiver gap ${i}→${i + 1} ${arrivals[i]! - arrivals[i - 1]!} ms < backoff ${delay}`,
            );
        }
      }

      // The UI's list shows the same final state.
      const ui = uiItems.get(s.id);
      if (!ui) fail(s.kind, `${s.id} missing from the studio list`);
      else if (ui.callback_state !== want.state || ui.callback_attempts !== want.attempts)
        fail(s.kind, `studio list shows ${ui.callback_state}/${ui.callback_attempts}`);
    }
    for (const kind of Object.keys(EXPECT) as Kind[]) {
      const count = submitted.filter((s) => s.kind === kind).length;
      const issues = problems.get(kind) ?? [];
      const e = EXPECT[kind];
      ctx.check(
        `${kind}: ${count} request(s) end ${e.state} after ${e.attempts} attempt(s), status_code ${e.status}, result ${e.result}, backoff respected, same in callback-result, attempts and studio list`,
        count > 0 && issues.length === 0,
        issues.slice(0, 5).join('; ') || undefined,
      );
      const example = submitted.find((s) => s.kind === kind);
      if (example) {
        const latest = await tc.call('GET', `/api/v1/tts/${example.id}/callback-result`);
        ctx.figure(`${kind}: result text`, JSON.stringify(latest.json?.result?.result ?? null));
      }
      const gaps = gapsByKind.get(kind)?.[0];
      if (gaps && gaps.length > 0) ctx.figure(`${kind}: gaps between attempts (ms)`, gaps.join(' / '));
      const durations = durationsByKind.get(kind);
      if (durations) ctx.figure(`${kind}: attempt durations (ms)`, durations.join(' / '));
    }
    ctx.figure('attempts per failing callback', POLICY.attempts);
    ctx.figure('requests per misbehaving kind', perKind);

    // Nothing else was disturbed: the health route still answers and nothing is stuck.
    const health = await tc.call('GET', '/api/v1/health');
    ctx.check(
      'server healthy afterwards with nothing queued or running',
      health.status === 200 && health.json?.result?.queued === 0 && health.json?.result?.running === 0,
      JSON.stringify(health.json?.result),
    );
  } finally {
    await tc.close();
    await healthy.close();
    for (const r of bad.values()) await r.close();
  }
}
