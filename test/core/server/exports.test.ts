/**
 * Audiobook exports through the API (POST/GET/DELETE /api/v1/exports), on the real engine, a real
 * store and real HTTP: progress on the event stream, the books read back with ffprobe (chapter
 * titles and times, tags, cover), the zip of a folder export, the loudness report, the charge
 * and its refund, cancelling, removing, and the errors of bad input.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBuffer as openZipBuffer, type Entry } from 'yauzl';
import { parseSrt } from '../../../electron/shared/srt';
import { astats, integratedLufs, probeFile, writeCover } from '../engine/export/ffmpeg';
import { eventually, fetchUrl, startTestCore, type TestCore } from './helpers';

let t: TestCore;
let dir: string;
let coverBase64: string;

beforeAll(async () => {
  t = await startTestCore();
  dir = mkdtempSync(join(tmpdir(), 'exports-test-'));
  const cover = join(dir, 'cover.png');
  writeCover(cover, 'blue', 32);
  coverBase64 = execFileSync('base64', ['-w0', cover], { encoding: 'utf8' });
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const BOOK = `[chapter: Opening]
The lamp was lit at dusk.

# The Second Part

The lamp went out at midnight.

## Third Part

Morning came, and the lamp was cold.
`;
const TITLES = ['Opening', 'The Second Part', 'Third Part'];

async function submit(body: Record<string, unknown>, key?: string) {
  return t.call('POST', '/api/v1/exports', { body, ...(key ? { key } : {}) });
}

async function waitFinished(id: string, key?: string, timeoutMs = 60_000) {
  return eventually(async () => {
    const res = await t.call('GET', `/api/v1/exports/${id}`, key ? { key } : {});
    const status = res.json.result.status as string;
    return status === 'SUCCESS' || status === 'FAILURE' ? res.json.result : undefined;
  }, timeoutMs);
}

async function download(url: string, name: string): Promise<string> {
  const res = await fetchUrl(url, 'GET');
  expect(res.status).toBe(200);
  const path = join(dir, name);
  writeFileSync(path, res.body);
  return path;
}

async function balanceOf(key: string): Promise<number> {
  return (await t.call('GET', '/api/v1/usage', { key })).json.result.balance_milli as number;
}

function zipEntries(bytes: Buffer): Promise<{ name: string; size: number }[]> {
  return new Promise((resolve, reject) => {
    openZipBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries: { name: string; size: number }[] = [];
      zip.on('entry', (entry: Entry) => {
        entries.push({ name: entry.fileName, size: entry.uncompressedSize });
        // Reading each entry checks its CRC-32 against the bytes.
        zip.openReadStream(entry, (err, stream) => {
          if (err) return reject(err);
          stream.on('error', reject);
          stream.on('end', () => zip.readEntry());
          stream.resume();
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('POST /api/v1/exports', () => {
  it('exports an M4B with chapters, tags and cover, with progress events, a report and one charge', async () => {
    const key = await t.newKey();
    const before = await balanceOf(key);
    const stream = await request(`${t.core.url}/api/v1/events`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const seen: { status: string; progress: number; export_id: string }[] = [];
    let buffer = '';
    const reading = (async () => {
      for await (const chunk of stream.body) {
        buffer += chunk.toString();
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (/^event: export$/m.test(block)) seen.push(JSON.parse(/^data: (.*)$/m.exec(block)![1]!));
        }
        if (seen.some((s) => s.status === 'SUCCESS' || s.status === 'FAILURE')) break;
      }
    })();

    const res = await submit(
      {
        input_text: BOOK,
        voice_code: 'en_male_onyx_default',
        preset: 'acx',
        format: 'm4b',
        title: 'The Lamp',
        author: 'Ann Author',
        cover: `data:image/png;base64,${coverBase64}`,
      },
      key,
    );
    expect(res.status, res.text).toBe(200);
    const accepted = res.json.result;
    expect(accepted).toMatchObject({
      status: 'new',
      format: 'm4b',
      preset: 'acx',
      has_cover: true,
      file_link: null,
    });
    expect(accepted.export_id).toMatch(/^[0-9a-f]{32}$/);
    await reading;
    stream.body.destroy();

    expect(seen.every((s) => s.export_id === accepted.export_id)).toBe(true);
    expect(seen[0]!.status).toBe('new');
    expect(seen.at(-1)).toMatchObject({ status: 'SUCCESS', progress: 1 });
    const progress = seen.filter((s) => s.status === 'processing').map((s) => s.progress);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const done = await waitFinished(accepted.export_id, key);
    expect(done.status).toBe('SUCCESS');
    expect(done.eta_seconds).toBe(0);
    expect(done.chapters.map((c: { title: string }) => c.title)).toEqual(TITLES);
    expect(done.chapters[0].start_ms).toBe(0);
    expect(done.chapters[1].start_ms).toBeGreaterThan(1000);
    expect(done.chapters[2].start_ms).toBeGreaterThan(done.chapters[1].start_ms);
    expect(done.chapters[2].end_ms).toBe(done.duration_ms);

    // The book as a player sees it: the same chapters at the same times, the tags and the cover.
    const book = await download(done.file_link, 'lamp.m4b');
    const probed = await probeFile(book);
    expect(probed.chapters.map((c) => c.tags?.title)).toEqual(TITLES);
    probed.chapters.forEach((c, i) =>
      expect(Math.abs(Number(c.start_time) * 1000 - done.chapters[i].start_ms)).toBeLessThanOrEqual(1),
    );
    expect(probed.format.tags).toMatchObject({ title: 'The Lamp', artist: 'Ann Author' });
    expect(probed.streams.some((s) => s.codec_name === 'aac')).toBe(true);
    expect(probed.streams.some((s) => s.disposition?.attached_pic === 1)).toBe(true);

    // The report's levels are the file's, as ffmpeg measures them; ACX's checks pass.
    expect(done.files).toHaveLength(1);
    const file = done.files[0];
    expect(file).toMatchObject({ file: 'book.m4b', passes: true, failures: [] });
    expect(file.rms_dbfs).toBeGreaterThanOrEqual(-23);
    expect(file.rms_dbfs).toBeLessThanOrEqual(-18);
    expect(file.peak_dbfs).toBeLessThanOrEqual(-3);
    const measured = await astats(book);
    expect(Math.abs(measured.rmsDbfs - file.rms_dbfs)).toBeLessThan(0.5);
    expect(Math.abs((await integratedLufs(book)) - file.integrated_lufs)).toBeLessThan(1);
    const report = await fetchUrl(done.report_link, 'GET');
    expect(report.status).toBe(200);
    expect(report.json).toMatchObject({
      preset: 'acx',
      format: 'm4b',
      title: 'The Lamp',
      author: 'Ann Author',
    });
    expect(report.json.files[0].chapters.map((c: { title: string }) => c.title)).toEqual(TITLES);

    // Charged once, on the text's characters, and not refunded.
    const ledger = (await t.call('GET', '/api/v1/usage', { key })).json.result.ledger as {
      kind: string;
      request_id: string;
      amount: number;
    }[];
    const own = ledger.filter((l) => l.request_id === accepted.export_id);
    expect(own.map((l) => l.kind)).toEqual(['charge']);
    expect(own[0]!.amount).toBe(-done.cost);
    expect(await balanceOf(key)).toBe(before - done.cost * 1000);
    expect(done.cost).toBeGreaterThan(0);
  });

  it('exports an MP3 whose ID3 chapters ffprobe reads', async () => {
    const res = await submit({
      input_text: BOOK,
      voice_code: 'en_female_nova_default',
      preset: 'podcast',
      format: 'mp3',
      speed_rate: 1.1,
    });
    expect(res.status, res.text).toBe(200);
    const done = await waitFinished(res.json.result.export_id);
    // Stored exactly (not as a 32-bit float) on either database.
    expect(done.speed_rate).toBe(1.1);
    expect(done.status, done.error_message).toBe('SUCCESS');
    const probed = await probeFile(await download(done.file_link, 'lamp.mp3'));
    expect(probed.streams[0]!.codec_name).toBe('mp3');
    expect(probed.chapters.map((c) => c.tags?.title)).toEqual(TITLES);
    probed.chapters.forEach((c, i) =>
      expect(Math.abs(Number(c.start_time) * 1000 - done.chapters[i].start_ms)).toBeLessThanOrEqual(1),
    );
    // Podcast: −16 LUFS integrated, ±1 LU.
    expect(Math.abs(done.files[0].integrated_lufs + 16)).toBeLessThanOrEqual(1);
  });

  it('delivers a folder export as a zip of one file per chapter, with the report', async () => {
    const res = await submit({
      input_text: BOOK,
      voice_code: 'en_female_nova_default',
      preset: 'none',
      format: 'folder',
      folder_format: 'wav',
      title: 'The Lamp',
      // Control characters are dropped from the tags (U+0000 would not even store in PostgreSQL).
      author: 'Ann\u0000 Author\u0007',
    });
    expect(res.status, res.text).toBe(200);
    const done = await waitFinished(res.json.result.export_id);
    expect(done.status, done.error_message).toBe('SUCCESS');
    expect(done.author).toBe('Ann Author');
    expect(done.file_link).toMatch(/\/book\.zip$/);
    const zip = await fetchUrl(done.file_link, 'GET');
    expect(zip.headers['content-type']).toBe('application/zip');
    const entries = await zipEntries(zip.body);
    expect(entries.map((e) => e.name)).toEqual([
      '01 Opening.wav',
      '02 The Second Part.wav',
      '03 Third Part.wav',
      'loudness.json',
    ]);
    expect(done.files.map((f: { file: string }) => f.file)).toEqual(entries.slice(0, 3).map((e) => e.name));
    // Each chapter's file decodes to its chapter's length.
    const unzipDir = join(dir, 'unzipped');
    const zipPath = join(dir, 'book.zip');
    writeFileSync(zipPath, zip.body);
    execFileSync('unzip', ['-q', '-o', zipPath, '-d', unzipDir]);
    const second = await probeFile(join(unzipDir, '02 The Second Part.wav'));
    const chapter = done.chapters[1];
    expect(
      Math.abs(Number(second.format.duration) * 1000 - (chapter.end_ms - chapter.start_ms)),
    ).toBeLessThan(2);
  });

  it.each([
    ['an unknown preset', { preset: 'loud' }, 'INVALID_FIELD'],
    ['an unknown format', { format: 'ogg' }, 'INVALID_FIELD'],
    ['folder_format without a folder', { format: 'm4b', folder_format: 'wav' }, 'INVALID_FIELD'],
    ['a cover that is not base64', { cover: 'not base64!' }, 'INVALID_FIELD'],
    [
      'a cover that is a GIF',
      { cover: Buffer.from('GIF89a not a jpeg').toString('base64') },
      'INVALID_FIELD',
    ],
    [
      'a cover over 2 MiB',
      { cover: Buffer.alloc(2 * 1024 * 1024 + 1, 0xff).toString('base64') },
      'INVALID_FIELD',
    ],
    ['a speed with two decimals', { speed_rate: 1.25 }, 'INVALID_FIELD'],
    ['an unknown voice', { voice_code: 'nobody' }, 'UNKNOWN_VOICE'],
    ['a text with nothing to speak', { input_text: '🙂 …' }, 'NOTHING_TO_SPEAK'],
    ['no input_text', { input_text: undefined }, 'MISSING_FIELD'],
  ])('refuses %s with 400 and charges nothing', async (_, change, code) => {
    const key = await t.newKey();
    const before = await balanceOf(key);
    const res = await submit({ input_text: BOOK, voice_code: 'en_female_nova_default', ...change }, key);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: 0, error_code: code });
    expect(res.json.error_message.length).toBeGreaterThan(10);
    expect(await balanceOf(key)).toBe(before);
    expect((await t.call('GET', '/api/v1/exports', { key })).json.result.total).toBe(0);
  });

  it('refuses a 21st export waiting or running for one key with 429', async () => {
    const key = await t.newKey();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await submit({ input_text: `Book ${i}.`, voice_code: 'en_female_nova_default' }, key);
      expect(res.status, res.text).toBe(200);
      ids.push(res.json.result.export_id);
    }
    const refused = await submit({ input_text: 'One more.', voice_code: 'en_female_nova_default' }, key);
    expect(refused.status).toBe(429);
    expect(refused.json.error_code).toBe('TOO_MANY_REQUESTS');
    expect(refused.headers['retry-after']).toBe('60');
    for (const id of ids) await t.call('POST', `/api/v1/exports/${id}/cancel`, { key });
    const again = await submit({ input_text: 'Now it fits.', voice_code: 'en_female_nova_default' }, key);
    expect(again.status).toBe(200);
    await t.call('POST', `/api/v1/exports/${again.json.result.export_id}/cancel`, { key });
  });

  it('refuses an export the balance cannot pay with 402', async () => {
    const key = await t.newKey(10);
    const res = await submit({ input_text: BOOK, voice_code: 'en_female_nova_default' }, key);
    expect(res.status).toBe(402);
    expect(res.json.error_code).toBe('INSUFFICIENT_CREDITS');
  });
});

describe('cancel, list and remove', () => {
  const LONG = Array.from(
    { length: 6 },
    (_, i) =>
      `# Chapter ${i + 1}\n\n${'The river ran on past the mill and under the old stone bridge. '.repeat(40)}`,
  ).join('\n\n');

  it('cancels a running export and a queued one: FAILURE CANCELLED, refunded, no files', async () => {
    const key = await t.newKey();
    const before = await balanceOf(key);
    const first = (await submit({ input_text: LONG, voice_code: 'en_female_nova_default' }, key)).json.result;
    const second = (await submit({ input_text: LONG, voice_code: 'en_female_nova_default' }, key)).json
      .result;
    // Once it has run a moment, the record tells the seconds left from the rate measured so far.
    const running = await eventually(async () => {
      const r = (await t.call('GET', `/api/v1/exports/${first.export_id}`, { key })).json.result;
      return r.status === 'processing' && r.progress > 0 && typeof r.eta_seconds === 'number' ? r : undefined;
    });
    expect(running.eta_seconds).toBeGreaterThan(0);
    const queued = (await t.call('GET', `/api/v1/exports/${second.export_id}`, { key })).json.result;
    expect(queued.status).toBe('new');

    for (const id of [second.export_id, first.export_id]) {
      const res = await t.call('POST', `/api/v1/exports/${id}/cancel`, { key });
      expect(res.status).toBe(200);
      expect(res.json.result).toMatchObject({ status: 'FAILURE', error_code: 'CANCELLED', file_link: null });
    }
    expect(await balanceOf(key)).toBe(before);
    const left = readdirSync(join(t.dir, 'audio', 'exports')).filter(
      (name) => name.startsWith(first.export_id) || name.startsWith(second.export_id),
    );
    expect(left).toEqual([]);
    const ledger = (await t.call('GET', '/api/v1/usage', { key })).json.result.ledger as { kind: string }[];
    expect(ledger.map((l) => l.kind).sort()).toEqual(
      ['charge', 'charge', 'grant', 'refund', 'refund'].sort(),
    );
    // Cancelling again changes nothing.
    const again = await t.call('POST', `/api/v1/exports/${first.export_id}/cancel`, { key });
    expect(again.json.result.status).toBe('FAILURE');
    expect(await balanceOf(key)).toBe(before);
  });

  it("lists the key's own exports, hides others', and removes one with its files", async () => {
    const key = await t.newKey();
    const other = await t.newKey();
    const res = await submit(
      { input_text: 'Just one line to speak.', voice_code: 'en_female_nova_default', format: 'mp3' },
      key,
    );
    const done = await waitFinished(res.json.result.export_id, key);
    expect(done.status).toBe('SUCCESS');
    const list = (await t.call('GET', '/api/v1/exports', { key })).json.result;
    expect(list).toMatchObject({ total: 1, page: 1 });
    expect(list.items[0].export_id).toBe(done.export_id);
    expect((await t.call('GET', '/api/v1/exports', { key: other })).json.result.total).toBe(0);
    const foreign = await t.call('GET', `/api/v1/exports/${done.export_id}`, { key: other });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error_code).toBe('EXPORT_NOT_FOUND');
    expect((await t.call('DELETE', `/api/v1/exports/${done.export_id}`, { key: other })).status).toBe(404);

    expect((await fetchUrl(done.file_link, 'GET')).status).toBe(200);
    // A wrong token is a plain 404, like any missing file.
    expect(
      (await fetchUrl(done.file_link.replace(/\/[^/]+\/book\.mp3$/, '/wrongtoken/book.mp3'), 'GET')).status,
    ).toBe(404);
    const removed = await t.call('DELETE', `/api/v1/exports/${done.export_id}`, { key });
    expect(removed.json.result).toEqual({ export_id: done.export_id, removed: true });
    expect((await t.call('GET', `/api/v1/exports/${done.export_id}`, { key })).status).toBe(404);
    expect((await fetchUrl(done.file_link, 'GET')).status).toBe(404);
    expect((await fetchUrl(done.report_link, 'GET')).status).toBe(404);
  });
});

describe('chapters of a plain request', () => {
  async function render(text: string) {
    const res = await t.call('POST', '/api/v1/tts', {
      body: { input_text: text, voice_code: 'en_female_nova_default', generate_srt: true },
    });
    expect(res.status, res.text).toBe(200);
    const id = res.json.result.request_id as string;
    const done = await eventually(async () => {
      const r = (await t.call('GET', `/api/v1/tts/${id}`)).json.result;
      return r.status === 'SUCCESS' || r.status === 'FAILURE' ? r : undefined;
    });
    expect(done.status, done.error_message).toBe('SUCCESS');
    return done;
  }

  it('answers where each chapter starts, and the subtitles start a cue there with the title alone', async () => {
    const done = await render(BOOK);
    const chapters = (await t.call('GET', `/api/v1/tts/${done.request_id}/chapters`)).json.result.items as {
      title: string;
      start_ms: number;
      end_ms: number;
    }[];
    expect(chapters.map((c) => c.title)).toEqual(TITLES);
    expect(chapters[0]!.start_ms).toBe(0);
    expect(chapters[1]!.start_ms).toBeGreaterThan(chapters[0]!.start_ms);
    expect(chapters[2]!.start_ms).toBeGreaterThan(chapters[1]!.start_ms);
    expect(chapters[2]!.end_ms).toBe(done.duration_ms);

    const srt = (await fetchUrl(done.srt_link, 'GET')).text;
    const cues = parseSrt(srt);
    expect(srt).not.toContain('#');
    for (const chapter of chapters.slice(1)) {
      // The first cue after the chapter's start is its title, alone (the pause before it is the chapter's).
      const first = cues.find((c) => c.startMs >= chapter.start_ms)!;
      expect(first.text).toBe(chapter.title);
      // No cue runs across the chapter's start.
      expect(cues.some((c) => c.startMs < chapter.start_ms && c.endMs > first.startMs)).toBe(false);
    }
    // The timings used on the way are not left behind.
    expect(
      readdirSync(join(t.dir, 'audio'))
        .filter((n) => n.startsWith(done.request_id))
        .sort(),
    ).toEqual(
      [`${done.request_id}.chapters.json`, `${done.request_id}.mp3`, `${done.request_id}.srt`].sort(),
    );
  });

  it('answers no chapters for a text without chapter lines', async () => {
    const done = await render('Just a sentence. And another one.');
    const res = await t.call('GET', `/api/v1/tts/${done.request_id}/chapters`);
    expect(res.json.result).toEqual({ items: [] });
  });
});
