/**
 * How long POST /api/v1/reading holds the server's event loop (npm run bench:reading-route): the
 * reading is worked out on the engine's thread (a real engine host here), so what stays on the
 * HTTP thread is the request's JSON, the lexicon and the answer's JSON; the event-loop delay
 * while the largest text it takes (READING_MAX_CHARS) is read is the longest stall it can cause. Two texts of that size:
 * the sample story (prose, few changes) and news-like Vietnamese dense with dates, money and
 * numbers (a change every ~15 characters, the worst case for the answer's size), read with 50
 * lexicon entries. Each is read 5 times through the real app (fastify's inject: JSON parse,
 * auth, the lexicon file, the reading, the answer's JSON; no socket); printed: the time of a
 * call (median, max) and perf_hooks' event-loop delay max meanwhile. Prints figures only.
 */

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { READING_MAX_CHARS } from '../electron/shared/api';
import { createLexiconStore } from '../electron/core/lexicon/lexicon-store';
import { createEngineHost } from '../electron/core/engine';
import { buildTestApp } from '../test/core/server/inject';
import { median } from './lib';

const ROUNDS = 5;

/** `unit` repeated to exactly READING_MAX_CHARS characters (the texts are BMP only). */
const filled = (unit: string) =>
  unit.repeat(Math.ceil(READING_MAX_CHARS / unit.length)).slice(0, READING_MAX_CHARS);

const story = filled(
  `${readFileSync(join(import.meta.dirname, '..', 'assets', 'samples', 'vi-story.txt'), 'utf8')}\n`,
);
const dense = filled(
  'Ngày 21/11/2026, UBND TP giao 50.000đ cho 12 hộ; lúc 14:30 giá vàng lên $5, tăng 2,5%, ngày 3/4/2025 là 1.250.000 đồng. ',
);

const engine = await createEngineHost({ poolSize: 1 });
const t = await buildTestApp({ lexicon: (dir) => createLexiconStore({ dataDir: dir }), reader: engine });
try {
  const session = await t.signIn();
  for (let i = 0; i < 50; i++) {
    const res = await t.call('POST', '/api/v1/lexicon', {
      key: null,
      headers: session.headers,
      body: { language: 'vi', match: `từ${i}`, kind: 'respell', replacement: `chữ ${i}` },
    });
    if (res.status !== 200) throw new Error(`lexicon entry refused: ${res.text}`);
  }
  console.log(
    `POST /api/v1/reading, ${READING_MAX_CHARS.toLocaleString('en')} characters, ${ROUNDS} calls each`,
  );
  for (const [name, text] of [
    ['story (vi-story.txt)', story],
    ['dense news', dense],
  ] as const) {
    const times: number[] = [];
    let changes = 0;
    let bytes = 0;
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    // The request's JSON is made before, the answer's parsed after: the delay measured is the server's.
    const payload = JSON.stringify({ text, language: 'vi' });
    const headers = {
      host: `127.0.0.1:${t.port}`,
      authorization: `Bearer ${t.key}`,
      'content-type': 'application/json',
    };
    const answers: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/reading', headers, payload });
      times.push(performance.now() - started);
      if (res.statusCode !== 200) throw new Error(`reading refused: ${res.body.slice(0, 200)}`);
      answers.push(res.body);
    }
    delay.disable();
    changes = (JSON.parse(answers[0] as string) as { result: { changes: unknown[] } }).result.changes.length;
    bytes = (answers[0] as string).length;
    console.log(
      `  ${name}: ${changes} changes, answer ${(bytes / 1024).toFixed(0)} KiB; call median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms; event-loop delay max ${(delay.max / 1e6).toFixed(0)} ms`,
    );
  }
} finally {
  await t.close();
  await engine.close();
}
