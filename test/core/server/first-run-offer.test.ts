/**
 * The answer to the studio's first-run voice offer survives a restart: `serve` as a user runs
 * it (its own process, a real SQLite data folder and settings folder), signed in as the studio
 * does; the answer is given, the process stopped and started again on the same folders, and
 * the new process reads it back.
 */

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInStudio } from '../../fixtures/studio-session';
import { startServerProcess, type ServerProcess } from './process';

let dataDir: string;
let settingsDir: string;
let server: ServerProcess | undefined;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'first-run-data-'));
  settingsDir = mkdtempSync(join(tmpdir(), 'first-run-settings-'));
});
afterAll(async () => {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(settingsDir, { recursive: true, force: true });
});

async function stop(): Promise<void> {
  if (!server) return;
  server.child.kill('SIGINT');
  expect(await server.exited).toBe(0);
  server = undefined;
}

/** Starts serve on the two folders and signs in with the address it printed. */
async function start() {
  server = await startServerProcess(['--port', '0', '--data-dir', dataDir, '--settings-dir', settingsDir]);
  const loginUrl = /^open (\S+)$/m.exec(server.stdout())![1]!;
  const { headers } = await signInStudio(loginUrl);
  const base = server.url;
  const call = async (method: 'GET' | 'PUT', body?: unknown) => {
    const response = await fetch(`${base}/api/v1/settings`, {
      method,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, json: (await response.json()) as { result: Record<string, unknown> } };
  };
  return { call };
}

describe('the first-run voice offer across a restart', () => {
  it('is pending on a fresh install, and an answer is read back after a restart', async () => {
    let { call } = await start();
    expect((await call('GET')).json.result.first_run_voice_offer).toBe('pending');
    const answered = await call('PUT', { first_run_voice_offer: 'skipped' });
    expect(answered.status).toBe(200);
    expect(answered.json.result.first_run_voice_offer).toBe('skipped');
    await stop();

    // The database is the data folder's SQLite file; the answer is in the settings file.
    expect(existsSync(join(dataDir, 'studio.db'))).toBe(true);
    expect(JSON.parse(readFileSync(join(settingsDir, 'settings.json'), 'utf8'))).toMatchObject({
      firstRunVoiceOffer: 'skipped',
    });

    ({ call } = await start());
    const after = await call('GET');
    expect(after.status).toBe(200);
    expect(after.json.result.first_run_voice_offer).toBe('skipped');
  });
});
