/**
 * Issue 36, point 8, for audiobook exports (one at a time per instance): on a real core (engine,
 * the run's database, HTTP on 127.0.0.1), key A's long books hold the export queue, then key B
 * exports a short one. B's export runs beside A's first, without waiting for A's books: it is
 * done while A's first still runs and A's second still waits.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestCore, type TestCore } from './helpers';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => {
  await t?.close();
});

const LONG = Array.from(
  { length: 8 },
  (_, i) =>
    `# Chapter ${i + 1}\n\n${'The river ran on past the mill and under the old stone bridge. '.repeat(40)}`,
).join('\n\n');
const SHORT = '# One\n\nThe lamp was lit at dusk.';

const statusOf = async (id: string, key: string) =>
  (await t.call('GET', `/api/v1/exports/${id}`, { key })).json.result.status as string;

describe('exports of several keys', () => {
  it("a key's long books do not make another key's export wait for them", async () => {
    const keyA = await t.newKey(1_000_000_000);
    const keyB = await t.newKey();
    const submit = async (key: string, text: string) => {
      const res = await t.call('POST', '/api/v1/exports', {
        key,
        body: { input_text: text, voice_code: 'en_female_nova_default', format: 'mp3' },
      });
      expect(res.status, res.text).toBe(200);
      return res.json.result.export_id as string;
    };
    const first = await submit(keyA, LONG);
    const second = await submit(keyA, LONG);
    await eventually(async () => ((await statusOf(first, keyA)) === 'processing' ? true : undefined), 60_000);
    const short = await submit(keyB, SHORT);
    const done = await eventually(async () => {
      const status = await statusOf(short, keyB);
      return status === 'SUCCESS' || status === 'FAILURE' ? status : undefined;
    }, 120_000);
    expect(done).toBe('SUCCESS');
    // Structural, not timed: B's export ended while A's first still ran and its second waited.
    expect(await statusOf(first, keyA)).toBe('processing');
    expect(await statusOf(second, keyA)).toBe('new');
    for (const id of [first, second])
      expect((await t.call('POST', `/api/v1/exports/${id}/cancel`, { key: keyA })).status).toBe(200);
  }, 180_000);
});
