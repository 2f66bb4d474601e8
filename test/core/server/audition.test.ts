/**
 * Auditions on the full core over real HTTP: the WAV is streamed while it is synthesised
 * (header first, a sentence at a time), decodes cleanly, costs nothing; errors keep the API's
 * shape; the GET variant (the studio's audio element) takes the options in the query and
 * needs the session.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWavHeader } from '../../../electron/core/engine/audio/wav';
import { probeAudio } from '../../fixtures/ffprobe';
import { startSignedInCore, type SignedInTestCore } from './helpers';

const LONG_TEXT =
  'This is the first sentence of a longer sample. Here comes a second one, a little longer. ' +
  'The third sentence follows it. A fourth keeps the engine busy. And the fifth one ends it.';
const PATH = '/api/v1/voices/en_female_emily_us/audition';

let t: SignedInTestCore;
let cookie: string;
/** Cookie and X-Studio-Session: a signed-in call. */
let studio: Record<string, string>;
let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'audition-test-'));
  t = await startSignedInCore();
  ({ cookie, headers: studio } = t.studio);
});
afterAll(async () => {
  await t?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The answer's body as the pieces that arrived. */
async function pieces(
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; type: string | undefined; chunks: Buffer[] }> {
  const response = await request(`${t.core.url}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(chunk as Buffer);
  return { status: response.statusCode, type: response.headers['content-type'] as string, chunks };
}

async function decode(bytes: Buffer, name: string) {
  const path = join(scratch, name);
  writeFileSync(path, bytes);
  return probeAudio(path);
}

describe('auditions', () => {
  it('streams a longer audition: a WAV header first, more than one piece, decoding without errors', async () => {
    const before = (await t.call('GET', '/api/v1/usage')).json.result.balance_milli;
    const { status, type, chunks } = await pieces(
      'POST',
      PATH,
      { authorization: `Bearer ${t.key}` },
      { text: LONG_TEXT },
    );
    expect(status).toBe(200);
    expect(type).toBe('audio/wav');
    expect(chunks.length).toBeGreaterThan(1);
    // The first piece states the format (sizes unknown: the length is not known yet) and has audio.
    const header = parseWavHeader(chunks[0]!);
    expect(header).toMatchObject({
      sampleRate: 22050,
      channels: 1,
      bitsPerSample: 16,
      dataBytes: 0xffffffff,
    });
    expect(chunks[0]!.length).toBeGreaterThan(header.dataOffset);
    const probed = await decode(Buffer.concat(chunks), 'long.wav');
    expect(probed.errors).toBe('');
    expect(probed.durationMs).toBeGreaterThan(6000);
    expect((await t.call('GET', '/api/v1/usage')).json.result.balance_milli).toBe(before);
  });

  it('answers errors in the API shape before any audio', async () => {
    const post = (path: string, body: unknown) => t.call('POST', path, { body });
    const unknown = await post('/api/v1/voices/xx_nobody/audition', {});
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({ status: 0, error_code: 'UNKNOWN_VOICE' });
    const invalid = await post(PATH, { speed_rate: 9 });
    expect(invalid.json).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
    const silent = await post(PATH, { text: '!!! ***' });
    expect(silent.status).toBe(400);
    expect(silent.json).toMatchObject({ status: 0, error_code: 'NOTHING_TO_SPEAK' });
    expect(silent.headers['content-type']).toMatch(/json/);
  });

  it('GET takes the options in the query and plays for the session only', async () => {
    const slow = await pieces('GET', `${PATH}?speed_rate=0.5&volume=120`, studio);
    const fast = await pieces('GET', `${PATH}?speed_rate=2`, studio);
    expect(slow.status).toBe(200);
    expect(slow.type).toBe('audio/wav');
    const slowAudio = await decode(Buffer.concat(slow.chunks), 'slow.wav');
    const fastAudio = await decode(Buffer.concat(fast.chunks), 'fast.wav');
    expect(slowAudio.errors).toBe('');
    expect(slowAudio.durationMs).toBeGreaterThan(fastAudio.durationMs * 2);

    const noSession = await t.call('GET', PATH, { key: null });
    expect(noSession.status).toBe(401);
    expect(noSession.json).toMatchObject({ status: 0, error_code: 'UNAUTHORIZED' });
    // A bearer key is the API's way in (POST), not the audio element's.
    expect((await t.call('GET', PATH)).status).toBe(401);
    expect((await t.call('GET', PATH, { key: null, headers: { cookie: `${cookie}x` } })).status).toBe(401);
    const badQuery = await t.call('GET', `${PATH}?speed_rate=fast`, { key: null, headers: studio });
    expect(badQuery.json).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
  });

  it('keeps serving after a listener hangs up mid-stream', async () => {
    const controller = new AbortController();
    const response = await request(
      `${t.core.url}${PATH}?text=${encodeURIComponent(LONG_TEXT.repeat(3).slice(0, 300))}`,
      {
        headers: studio,
        signal: controller.signal,
      },
    );
    expect(response.statusCode).toBe(200);
    controller.abort();
    await response.body.text().catch(() => undefined);
    const after = await pieces('GET', PATH, studio);
    expect(after.status).toBe(200);
    expect((await decode(Buffer.concat(after.chunks), 'after.wav')).errors).toBe('');
  });
});
