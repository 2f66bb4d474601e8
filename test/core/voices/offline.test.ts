/**
 * A download site this machine cannot reach: one sentence naming the host and how to import a
 * voice instead (VOICE_DOWNLOAD_FAILED, details `{ reason: 'offline', host }`), never the
 * resolver's "getaddrinfo ENOTFOUND … (after 5 attempts)". A closed port of 127.0.0.1 (a real
 * server started and closed, so nothing listens there) and a name under `.invalid`, which never
 * resolves (RFC 6761). Connection attempts are counted on undici's own diagnostics channel and
 * the time measured with the default retry policy (five attempts with growing pauses would take
 * at least 5 s).
 */

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cannotReachMessage, createHttpClient, downloadFile } from '../../../electron/core/voices/download';
import { installPack } from '../../../electron/core/voices/install';
import { checkOnnxHeader } from '../../fixtures/onnx-header';
import { runEntry } from '../server/process';
import { VoiceMirror, appErrorOf, syntheticPiperPack, voicesLeft } from '../../fixtures/voice-mirror';

let work: string;
/** A port of 127.0.0.1 where nothing listens (a server was started there and closed). */
let closedPort: number;
/** Hosts undici set out to connect to (one per attempt). */
const connects: string[] = [];
const onConnect = (message: unknown) => {
  connects.push((message as { connectParams: { hostname: string } }).connectParams.hostname);
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'voices-offline-'));
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closedPort = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  subscribe('undici:client:beforeConnect', onConnect);
});
afterAll(() => {
  unsubscribe('undici:client:beforeConnect', onConnect);
  rmSync(work, { recursive: true, force: true });
});
beforeEach(() => {
  connects.length = 0;
});

/** Downloads `url` with the default network policy (a client allowed plain http to `mirror`). */
async function download(url: string, mirror: string) {
  const client = createHttpClient({}, mirror);
  const started = performance.now();
  try {
    const error = await appErrorOf(
      downloadFile({ url, partPath: join(work, 'voice.onnx.part'), name: 'voice.onnx', client }),
    );
    return { error, ms: performance.now() - started };
  } finally {
    await client.close();
  }
}

const SENTENCE_PARTS = [
  /^This computer cannot reach \S+, where voices are downloaded from/,
  /a \.zip or \.tar\.gz of the pack in the Voice library \(Import from disk…\)/,
  /npm run voices -- install <file or folder>\.$/,
];

describe('a download site that cannot be reached', () => {
  it('names the host in a sentence that says how to import instead', () => {
    const sentence = cannotReachMessage('huggingface.co');
    for (const part of SENTENCE_PARTS) expect(sentence).toMatch(part);
    expect(sentence).toContain('cannot reach huggingface.co,');
    expect(sentence).not.toMatch(/ENOTFOUND|getaddrinfo|attempts/);
  });

  it('a closed port of a local mirror: the sentence after one retry, within a second', async () => {
    const host = `127.0.0.1:${closedPort}`;
    const { error, ms } = await download(`http://${host}/piper/voice.onnx`, `http://${host}`);
    expect(error.code).toBe('VOICE_DOWNLOAD_FAILED');
    expect(error.message).toBe(cannotReachMessage(host));
    expect(error.details).toEqual({ file: 'voice.onnx', reason: 'offline', host });
    expect(connects).toEqual(['127.0.0.1', '127.0.0.1']);
    // One pause of 500 ms between the two attempts; five attempts would take ≥ 5 s.
    expect(ms).toBeGreaterThanOrEqual(450);
    expect(ms).toBeLessThan(2000);
    console.log(`closed port: ${connects.length} attempts, ${ms.toFixed(0)} ms`);
  });

  it('a name that does not resolve: the sentence at once, not after five attempts', async () => {
    const { error, ms } = await download(
      'http://nonexistent.invalid/piper/voice.onnx',
      'http://nonexistent.invalid',
    );
    expect(error.code).toBe('VOICE_DOWNLOAD_FAILED');
    expect(error.message).toBe(cannotReachMessage('nonexistent.invalid'));
    expect(error.details).toEqual({ file: 'voice.onnx', reason: 'offline', host: 'nonexistent.invalid' });
    expect(connects).toEqual(['nonexistent.invalid']);
    expect(ms).toBeLessThan(1500);
    console.log(`unresolvable name: ${connects.length} attempt, ${ms.toFixed(0)} ms`);
  });

  it('a mirror that goes away in the middle of a pack: the same sentence, nothing left behind', async () => {
    // The model comes; the mirror stops listening before the config is asked for.
    const mirror = await VoiceMirror.start();
    const pack = syntheticPiperPack('vi_VN-offline-medium');
    mirror.serve(pack);
    const dataDir = join(work, 'data-midway');
    let closing: Promise<void> | undefined;
    const error = await appErrorOf(
      installPack(
        { kind: 'catalogue', id: pack.entry.id },
        {
          dataDir,
          mirror: mirror.url,
          catalogue: [pack.entry],
          validateModel: checkOnnxHeader,
          http: { retryDelayMs: 10 },
          onProgress: (p) => {
            // Once the model is in, the mirror stops listening.
            if (p.phase === 'verify' && p.file?.endsWith('.onnx')) closing ??= mirror.close();
          },
        },
      ),
    );
    await closing;
    expect(closing).toBeDefined();
    expect(error.code).toBe('VOICE_DOWNLOAD_FAILED');
    expect(error.details).toMatchObject({ reason: 'offline', host: new URL(mirror.url).host });
    expect(mirror.requestsFor(pack.entry.files[0]!.url)).toHaveLength(1);
    expect(voicesLeft(dataDir)).toEqual([]);
  });

  it('installing a catalogue pack from an unreachable mirror leaves nothing behind', async () => {
    const pack = syntheticPiperPack('vi_VN-offline-medium');
    const dataDir = join(work, 'data');
    const host = `127.0.0.1:${closedPort}`;
    const error = await appErrorOf(
      installPack(
        { kind: 'catalogue', id: pack.entry.id },
        { dataDir, mirror: `http://${host}`, catalogue: [pack.entry], validateModel: checkOnnxHeader },
      ),
    );
    expect(error.message).toBe(cannotReachMessage(host));
    expect(error.details).toMatchObject({ reason: 'offline', host });
    expect(voicesLeft(dataDir)).toEqual([]);
  });

  it('`voices install <id>` prints the sentence on one line and exits non-zero', async () => {
    const host = `127.0.0.1:${closedPort}`;
    const result = await runEntry([
      'voices',
      'install',
      'vi_VN-vais1000-medium',
      '--data-dir',
      join(work, 'cli-data'),
      '--voice-mirror',
      `http://${host}`,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`error: ${cannotReachMessage(host)}\n`);
  });
});
