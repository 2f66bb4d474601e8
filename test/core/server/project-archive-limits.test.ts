// test-tier: slow (imports archives up to the limits, each read in a child process: 26 s of CPU on a busy machine)
/**
 * Project archives sent to a real server on 127.0.0.1 (real SQLite, the fake engine as nothing is
 * rendered, the zips written by fflate, the WAVs by the engine's own writer) that try to get past the limits (issue 36, point 6): a
 * huge segment, more text than a project holds, audio that unpacks far beyond what its segments
 * need, thousands of entries, project.json last behind entries, audio that is not audio of the
 * project's format or not as long as its segment. Each is refused whole, and the data folder is
 * watched: nothing is written for it, not even for a moment.
 */

import { mkdirSync, readdirSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../../electron/core/engine/audio/wav';
import { PROJECT_LIMITS } from '../../../electron/shared/projects';
import { VIETNAMESE_BOOK, writeDocx } from '../../fixtures/manuscripts';
import { eventually, startFakeEngineCore, type TestCore } from './helpers';

let t: TestCore;
/** project.json of a real project's archive, its first segment given audio (1 s). */
let base: Archive;
const AUDIO_KEY = 'a'.repeat(64);
const RATE = 22050;

interface Archive {
  chapters: { id: string; exported_text: string | null }[];
  segments: {
    id: string;
    chapter_id: string;
    text: string;
    state: string;
    audio_key: string | null;
    duration_ms: number | null;
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}

/** A WAV of the project's format (16-bit mono) of `ms` of a tone, written by the engine's writer. */
function wav(ms: number, rate = RATE): Uint8Array {
  const pcm = new Int16Array(Math.round((rate * ms) / 1000));
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(8000 * Math.sin(i / 7));
  return encodeWav(pcm, rate);
}

/** The zip of these entries, in this order (fflate keeps the object's order). */
function zip(entries: [string, Uint8Array | string, number?][]): Buffer {
  const files: Zippable = {};
  for (const [name, data, level] of entries)
    files[name] = [typeof data === 'string' ? strToU8(data) : data, { level: (level ?? 6) as 6 }];
  return Buffer.from(zipSync(files));
}

const json = (archive: Archive) => JSON.stringify(archive);

/** Text that does not compress away (a zip of it is about as large as it): xorshift32 letters. */
function noise(characters: number, seed = 1): string {
  const letters = 'abcdeghiklmnopqrstuvxyàáâãèéêìíòóôõùúýăđĩũơư ';
  let x = seed * 2654435761;
  const out: string[] = [];
  for (let i = 0; i < characters; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.push(letters[(x >>> 0) % letters.length]!);
  }
  return out.join('');
}

const clone = (): Archive => JSON.parse(JSON.stringify(base)) as Archive;

let markers = 0;
const projectsDir = () => join(t.dir, 'audio', 'projects');

/**
 * Sends an archive while watching the projects' folder: the answer, and what appeared in the
 * folder during the request (a project's folder made and removed again counts).
 */
async function send(body: Buffer, name = 'book.narration.zip') {
  mkdirSync(projectsDir(), { recursive: true });
  const seen: string[] = [];
  const marker = `.marker-${++markers}`;
  const watcher: FSWatcher = watch(projectsDir(), (event, file) => seen.push(`${event} ${file}`));
  try {
    const res = await t.call('POST', `/api/v1/projects/import-archive?file_name=${name}`, {
      raw: body,
      headers: { 'content-type': 'application/zip' },
    });
    // Events come in order on the loop's next turns: once the marker written after the answer
    // is seen, every event of the request has been.
    writeFileSync(join(projectsDir(), marker), '');
    await eventually(() => (seen.some((e) => e.endsWith(` ${marker}`)) ? true : undefined));
    rmSync(join(projectsDir(), marker));
    return { res, seen: seen.filter((e) => !e.endsWith(` ${marker}`)) };
  } finally {
    watcher.close();
  }
}

async function refused(body: Buffer, status: number, code: string, message: RegExp) {
  const before = (await t.call('GET', '/api/v1/projects')).json.result.items.length;
  const { res, seen } = await send(body);
  expect(res.status, res.text.slice(0, 400)).toBe(status);
  expect(res.json).toMatchObject({ status: 0, error_code: code });
  expect(res.json.error_message).toContain('"book.narration.zip"');
  expect(res.json.error_message).toMatch(message);
  expect(res.json.error_message).not.toContain(t.dir);
  expect(seen, 'nothing written in the data folder').toEqual([]);
  expect(readdirSync(projectsDir())).toEqual([]);
  expect((await t.call('GET', '/api/v1/projects')).json.result.items.length).toBe(before);
}

beforeAll(async () => {
  t = await startFakeEngineCore({ authThrottle: { baseDelayMs: 0 } });
  const made = await t.call('POST', '/api/v1/projects/import?file_name=kieu.docx', {
    raw: Buffer.from(await writeDocx(VIETNAMESE_BOOK)),
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(made.status).toBe(201);
  const archive = await t.call('GET', `/api/v1/projects/${made.json.result.project.id}/archive`);
  expect(archive.status).toBe(200);
  await t.call('DELETE', `/api/v1/projects/${made.json.result.project.id}`);
  base = JSON.parse(strFromU8(unzipSync(new Uint8Array(archive.body))['project.json']!)) as Archive;
  Object.assign(base.segments[0]!, { state: 'done', audio_key: AUDIO_KEY, duration_ms: 1000 });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('project archives within the limits (issue 36, point 6)', () => {
  it('imports an archive whose audio is the project format and as long as its segment', async () => {
    const { res } = await send(
      zip([
        ['project.json', json(base)],
        [`audio/${AUDIO_KEY}.wav`, wav(1000)],
        [`audio/${AUDIO_KEY}.json`, '[]'],
      ]),
    );
    expect(res.status, res.text.slice(0, 400)).toBe(201);
    const id = res.json.result.project.id as string;
    expect(readdirSync(join(projectsDir(), id)).sort()).toEqual([`${AUDIO_KEY}.json`, `${AUDIO_KEY}.wav`]);
    expect((await t.call('DELETE', `/api/v1/projects/${id}`)).status).toBe(200);
  });

  it('refuses a segment of 100,000 characters, naming the limit', async () => {
    const archive = clone();
    archive.segments[1]!.text = noise(100_000);
    await refused(
      zip([['project.json', json(archive)]]),
      413,
      'MANUSCRIPT_TOO_LARGE',
      /20000 characters in a segment/,
    );
  });

  it('refuses more text than a project holds, and a chapter text at export past it', async () => {
    // Stored, not deflated: the zip is as large as its text, as it would be of text that does not
    // compress (deflating 11 MB here and inflating it there only cost seconds of CPU).
    const block = noise(PROJECT_LIMITS.segmentCharacters - 10, 2);
    const archive = clone();
    const chapter = archive.chapters[1]!.id;
    for (let i = 0; i < 260; i++) {
      const text = `${i} ${block}`;
      archive.segments.push({ ...archive.segments[1]!, id: `extra${i}`, chapter_id: chapter, text });
    }
    await refused(
      zip([['project.json', json(archive), 0]]),
      413,
      'MANUSCRIPT_TOO_LARGE',
      /5000000 characters/,
    );

    const exported = clone();
    exported.chapters[1]!.exported_text = block.repeat(
      Math.ceil((PROJECT_LIMITS.characters + 1_000_000) / block.length),
    );
    await refused(zip([['project.json', json(exported), 0]]), 413, 'MANUSCRIPT_TOO_LARGE', /at an export/);
  });

  it('refuses audio that unpacks far beyond what its segment needs, before writing a byte', async () => {
    // 60 s of audio (2.6 MB) for a segment of 1 s, packed small; and two minutes of silence in 5 kB.
    await refused(
      zip([
        ['project.json', json(base)],
        [`audio/${AUDIO_KEY}.wav`, wav(60_000)],
      ]),
      422,
      'MANUSCRIPT_INVALID',
      /unpacks to \d+ bytes where 1000 ms of a segment's audio take at most \d+/,
    );
    const silence = encodeWav(new Int16Array(RATE * 120), RATE);
    await refused(
      zip([
        ['project.json', json(base)],
        [`audio/${AUDIO_KEY}.wav`, silence, 9],
      ]),
      422,
      'MANUSCRIPT_INVALID',
      /unpacks to \d+ bytes/,
    );
  });

  it('refuses thousands of entries the project cannot need, before writing any', async () => {
    const entries: [string, string][] = [];
    for (let i = 0; i < 2_000; i++) entries.push([`audio/junk${i}.json`, '[]']);
    entries.push(['project.json', json(base)]);
    await refused(
      zip(entries),
      422,
      'MANUSCRIPT_INVALID',
      /2001 entries where its 1 audio files need at most 4/,
    );
  });

  it('reads project.json first even when it comes last, and writes nothing of a bad archive', async () => {
    const bad = clone();
    bad.segments[0]!.speaker = 'ghost';
    await refused(
      zip([
        [`audio/${AUDIO_KEY}.wav`, wav(1000)],
        [`audio/${AUDIO_KEY}.json`, '[]'],
        ['project.json', json(bad)],
      ]),
      422,
      'MANUSCRIPT_INVALID',
      /not in the cast/,
    );
    await refused(
      zip([
        [`audio/${AUDIO_KEY}.wav`, wav(1000)],
        [`audio/${'b'.repeat(64)}.wav`, wav(1000)],
        ['project.json', json(base)],
      ]),
      422,
      'MANUSCRIPT_INVALID',
      /audio\/b+\.wav belongs to no segment/,
    );
  });

  // 8-bit stereo: the writer's header with its format fields changed.
  const stereo = () => {
    const audio = wav(500);
    new DataView(audio.buffer, audio.byteOffset).setUint16(22, 2, true);
    return audio;
  };
  // One test each (an import apiece, each read in a child process): seconds each on a busy machine.
  it.each<[string, () => Uint8Array | string, RegExp]>([
    [
      'not audio',
      () => 'RIFF this is no WAVE at all, only text',
      /not its segment's audio: not a valid WAV file/,
    ],
    ['at a rate out of range', () => wav(1000, 4_000), /sample rate 4000 Hz is not 8000–48000 Hz/],
    ['longer than its segment', () => wav(2000), /lasts 2000 ms where its segment says 1000 ms/],
    ['shorter than its segment', () => wav(400), /lasts 400 ms where its segment says 1000 ms/],
    [
      'with bytes past its samples',
      () => Buffer.concat([wav(1000), Buffer.alloc(3000, 7)]),
      /samples end at byte \d+, the file at \d+/,
    ],
    ['not 16-bit mono', stereo, /not 16-bit mono PCM/],
  ])('refuses an audio entry %s', async (_what, audio, message) => {
    await refused(
      zip([
        ['project.json', json(base)],
        [`audio/${AUDIO_KEY}.wav`, audio()],
      ]),
      422,
      'MANUSCRIPT_INVALID',
      message,
    );
  });

  it('refuses word timings that are not JSON', async () => {
    await refused(
      zip([
        ['project.json', json(base)],
        [`audio/${AUDIO_KEY}.wav`, wav(1000)],
        [`audio/${AUDIO_KEY}.json`, 'not timings'],
      ]),
      422,
      'MANUSCRIPT_INVALID',
      /is not word timings: it is not JSON/,
    );
  });
});
