/**
 * The API page's examples (renderer/src/features/api/examples.ts), the exact text the page
 * shows, run against a real core on 127.0.0.1: curl in bash, JavaScript in Node (its own
 * `fetch`, and the real `openai` npm package), Python with `requests` when python3 has it
 * (Debian: python3-requests). The `openai` Python package is not in Debian: its example is only
 * compiled (py_compile), not run. Each run's audio is decoded by ffmpeg.
 */

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIO_LINK_PLACEHOLDER,
  buildExamples,
  findExample,
  KEY_PLACEHOLDER,
  REQUEST_ID_PLACEHOLDER,
  type Example,
  type ExampleApi,
  type ExampleLanguage,
} from '../../renderer/src/features/api/examples';
import { probeAudio } from '../fixtures/ffprobe';
import { eventually, startTestCore, type TestCore } from '../core/server/helpers';

const run = promisify(execFile);

/** True when `python3` can import `module`. */
async function pythonHas(module: string): Promise<boolean> {
  try {
    await run('python3', ['-c', `import ${module}`]);
    return true;
  } catch {
    return false;
  }
}

const hasRequests = await pythonHas('requests');
const hasPython = await run('python3', ['--version']).then(
  () => true,
  () => false,
);

let t: TestCore;
let examples: Example[];
let scratch: string;
let n = 0;
/** What the examples print of OpenAI's lists, read from the server here. */
let voiceCount: number;
let modelIds: string;

beforeAll(async () => {
  t = await startTestCore();
  examples = buildExamples({ baseUrl: t.core.url, apiKey: t.key });
  scratch = mkdtempSync(join(tmpdir(), 'api-examples-'));
  voiceCount = (await t.call('GET', '/v1/audio/voices', { key: null })).json.voices.length;
  modelIds = (await t.call('GET', '/v1/models', { key: null })).json.data
    .map((m: { id: string }) => m.id)
    .join(', ');
  expect(voiceCount).toBeGreaterThan(6);
  expect(modelIds).toMatch(/^tts-1, /);
});
afterAll(async () => {
  await t?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function example(api: ExampleApi, language: ExampleLanguage): string {
  const found = findExample(examples, api, language);
  if (!found) throw new Error(`no ${language} example of ${api}`);
  return found.code;
}

/** A fresh working folder (where the examples write speech.mp3), with the project's node_modules. */
function workDir(): string {
  const dir = join(scratch, `run-${n++}`);
  mkdirSync(dir);
  return dir;
}

async function sh(script: string, cwd: string): Promise<string> {
  return (await run('bash', ['-e', '-c', script], { cwd, timeout: 60_000 })).stdout;
}

/** The curl example's commands: its paragraphs without their comment lines. */
function commands(code: string): string[] {
  return code
    .split(/\n\s*\n/)
    .map((part) =>
      part
        .split('\n')
        .filter((line) => !line.startsWith('#'))
        .join('\n'),
    )
    .filter((part) => part.trim() !== '');
}

/** speech.mp3 of `dir` decodes cleanly as MP3 with some speech in it. */
async function expectSpeech(dir: string): Promise<void> {
  const probed = await probeAudio(join(dir, 'speech.mp3'));
  expect(probed.errors).toBe('');
  expect(probed.codec).toBe('mp3');
  expect(probed.durationMs).toBeGreaterThan(800);
}

describe('what the page shows', () => {
  it("every API has an example in curl, fetch and requests; the openai packages speak OpenAI's route", () => {
    for (const api of ['cloud-poll', 'cloud-direct', 'openai'] as const)
      for (const language of ['curl', 'js-fetch', 'python-requests'] as const)
        expect(findExample(examples, api, language)).toBeDefined();
    expect(findExample(examples, 'openai', 'js-openai')).toBeDefined();
    expect(findExample(examples, 'openai', 'python-openai')).toBeDefined();
  });

  it("without a key the examples carry the placeholder, and always the server's base URL", () => {
    const shown = buildExamples({ baseUrl: 'http://127.0.0.1:5077/' });
    for (const e of shown) {
      expect(e.code).toContain('http://127.0.0.1:5077');
      expect(e.code).not.toContain('5077//');
      if (!(e.api === 'openai' && e.language === 'curl') || e.code.includes('Bearer'))
        expect(e.code).toContain(KEY_PLACEHOLDER);
    }
  });
});

describe('curl', () => {
  it('cloud API: submit, poll until SUCCESS, download', async () => {
    const dir = workDir();
    const [submit, poll, download] = commands(example('cloud-poll', 'curl'));
    const submitted = JSON.parse(await sh(submit!, dir));
    expect(submitted).toMatchObject({ status: 1, result: { status: 'new' } });
    const id = submitted.result.request_id as string;
    const pollCommand = poll!.replace(REQUEST_ID_PLACEHOLDER, id);
    const record = await eventually(async () => {
      const polled = JSON.parse(await sh(pollCommand, dir));
      return polled.result.status === 'SUCCESS' ? polled.result : undefined;
    });
    await sh(download!.replace(AUDIO_LINK_PLACEHOLDER, record.audio_link), dir);
    await expectSpeech(dir);
  });

  it('cloud API: direct', async () => {
    const dir = workDir();
    const [submit, download] = commands(example('cloud-direct', 'curl'));
    const answered = JSON.parse(await sh(submit!, dir));
    expect(answered).toMatchObject({ status: 1, result: { status: 'SUCCESS' } });
    await sh(download!.replace(AUDIO_LINK_PLACEHOLDER, answered.result.audio_link), dir);
    await expectSpeech(dir);
  });

  it('OpenAI route: voices, models, speech (the whole example as one script)', async () => {
    const dir = workDir();
    const out = await sh(example('openai', 'curl'), dir);
    expect(out).toContain('"voices":[{"id":"alloy"');
    expect(out).toContain('"object":"list"');
    await expectSpeech(dir);
  });
});

describe('JavaScript in Node', () => {
  async function node(code: string): Promise<{ dir: string; out: string }> {
    const dir = workDir();
    symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'example.mjs'), code);
    const { stdout } = await run(process.execPath, ['example.mjs'], { cwd: dir, timeout: 60_000 });
    return { dir, out: stdout };
  }

  /** The stored audio size of the request the output names. */
  async function storedBytes(out: string): Promise<{ id: string; bytes: number; printed: number }> {
    const [id, status, printed] = out.trim().split(' ');
    expect(status).toBe('SUCCESS');
    const stored = await t.call('GET', `/api/v1/tts/${id}`);
    return { id: id!, bytes: stored.json.result.audio_bytes, printed: Number(printed) };
  }

  it('fetch, cloud API: submit and poll', async () => {
    const { out } = await node(example('cloud-poll', 'js-fetch'));
    const { bytes, printed } = await storedBytes(out);
    expect(printed).toBe(bytes);
    expect(printed).toBeGreaterThan(1000);
  });

  it('fetch, cloud API: direct', async () => {
    const { out } = await node(example('cloud-direct', 'js-fetch'));
    const { bytes, printed } = await storedBytes(out);
    expect(printed).toBe(bytes);
  });

  it('fetch, OpenAI route', async () => {
    const { out } = await node(example('openai', 'js-fetch'));
    const [lists, speech] = out.trim().split('\n');
    expect(lists).toBe(`${voiceCount} voices; ${modelIds}`);
    expect(Number(speech!.split(' ')[0])).toBeGreaterThan(1000);
  });

  it('the openai package', async () => {
    const { dir, out } = await node(example('openai', 'js-openai'));
    expect(out).toBe(`${modelIds}\nsaved speech.mp3\n`);
    await expectSpeech(dir);
  });
});

describe('Python', () => {
  async function python(code: string): Promise<{ dir: string; out: string }> {
    const dir = workDir();
    writeFileSync(join(dir, 'example.py'), code);
    const { stdout } = await run('python3', ['example.py'], { cwd: dir, timeout: 60_000 });
    return { dir, out: stdout };
  }

  it.skipIf(!hasPython)(
    'every Python example compiles (the openai one is not run: not in Debian)',
    async () => {
      for (const e of examples.filter((x) => x.language.startsWith('python'))) {
        const dir = workDir();
        writeFileSync(join(dir, 'example.py'), e.code);
        await run('python3', ['-m', 'py_compile', 'example.py'], { cwd: dir });
        expect(existsSync(join(dir, '__pycache__'))).toBe(true);
      }
    },
  );

  it.skipIf(!hasRequests)('requests, cloud API: submit and poll', async () => {
    const { dir, out } = await python(example('cloud-poll', 'python-requests'));
    expect(out).toMatch(/^\w+ SUCCESS saved speech\.mp3\n$/);
    await expectSpeech(dir);
  });

  it.skipIf(!hasRequests)('requests, cloud API: direct', async () => {
    const { dir, out } = await python(example('cloud-direct', 'python-requests'));
    expect(out).toMatch(/^\w+ SUCCESS saved speech\.mp3\n$/);
    await expectSpeech(dir);
  });

  it.skipIf(!hasRequests)('requests, OpenAI route', async () => {
    const { dir, out } = await python(example('openai', 'python-requests'));
    const [lists, speech] = out.split('\n');
    expect(lists).toBe(`${voiceCount} voices; ${modelIds}`);
    expect(speech).toMatch(/^\d{4,} bytes of mp3$/);
    await expectSpeech(dir);
  });
});
