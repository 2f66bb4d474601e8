/**
 * The data folder is its user's alone (issue 36, point 10): after a render, an audiobook export
 * and a sentence-cache fill on the full core, every file the server wrote is 0600 and every
 * folder 0700 (stat of each); a data folder an earlier version left 0755/0644 is tightened at
 * start. POSIX only: Windows has no such modes.
 */

import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tightenDataDir } from '../../../electron/core/platform/private-files';
import { eventually, startTestCore, type TestCore } from './helpers';

const posix = process.platform !== 'win32';

/** Every file and folder under `dir` with its permission bits, symbolic links left out. */
function modes(dir: string): Map<string, { mode: number; folder: boolean }> {
  const found = new Map<string, { mode: number; folder: boolean }>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isSymbolicLink()) continue;
      const path = join(folder, entry.name);
      found.set(path, { mode: statSync(path).mode & 0o777, folder: entry.isDirectory() });
      if (entry.isDirectory()) walk(path);
    }
  };
  found.set(dir, { mode: statSync(dir).mode & 0o777, folder: true });
  walk(dir);
  return found;
}

describe.skipIf(!posix)('files the server writes', () => {
  let t: TestCore;
  let dataDir: string;
  beforeAll(async () => {
    // The data folder inside a folder the test made, so the server creates it itself.
    const parent = mkdtempSync(join(tmpdir(), 'private-'));
    dataDir = join(parent, 'data');
    t = await startTestCore({ dataDir, sentenceCacheMb: 16 });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
  });

  it('are 0600, and its folders 0700, after a render, an export and a cache fill', async () => {
    const render = await t.call('POST', '/api/v1/tts', {
      body: {
        input_text: 'The letters in this book are private.',
        voice_code: 'en_female_emily_us',
        response_type: 'direct',
        generate_srt: true,
      },
    });
    expect(render.json.result?.status, render.text).toBe('SUCCESS');
    const exported = await t.call('POST', '/api/v1/exports', {
      body: {
        input_text: '# One\nA private chapter.\n\n# Two\nAnother one.',
        voice_code: 'en_female_emily_us',
        format: 'mp3',
      },
    });
    expect(exported.status, exported.text).toBe(200);
    await eventually(async () => {
      const res = await t.call('GET', `/api/v1/exports/${exported.json.result.export_id}`);
      return res.json.result.status === 'SUCCESS' ? true : undefined;
    }, 60_000);
    // The cache has its entries on disk (stored as the answer goes out).
    await eventually(async () =>
      readdirSync(join(dataDir, 'cache', 'sentences')).some((n) => n.endsWith('.snt')) ? true : undefined,
    );

    const found = modes(dataDir);
    const names = [...found.keys()].map((p) => p.slice(dataDir.length + 1));
    // What the attack reads: audio, subtitles with the text, the cache, the export, the database
    // (a file when it is SQLite; the PostgreSQL run keeps it on its server).
    for (const expected of [
      /^audio\/\w+\.mp3$/,
      /^audio\/\w+\.srt$/,
      /^audio\/exports\/\w+\.mp3$/,
      /^cache\/sentences\/.+\.snt$/,
      ...(t.core.store.kind === 'sqlite' ? [/^studio\.db$/] : []),
    ])
      expect(
        names.some((n) => expected.test(n)),
        `${expected} in ${names.join(', ')}`,
      ).toBe(true);
    expect(found.size).toBeGreaterThan(8);
    for (const [path, { mode, folder }] of found) expect(mode.toString(8), path).toBe(folder ? '700' : '600');
  });
});

describe.skipIf(!posix)('a data folder an earlier version left readable', () => {
  it('is tightened at start: the folder 0700, each file 0600, each folder 0700', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'old-data-'));
    mkdirSync(join(dir, 'audio', 'projects'), { recursive: true });
    writeFileSync(join(dir, 'audio', 'old.mp3'), 'audio');
    writeFileSync(join(dir, 'audio', 'projects', 'old.srt'), 'the whole text');
    writeFileSync(join(dir, 'lexicon.json'), '[]');
    for (const folder of [dir, join(dir, 'audio'), join(dir, 'audio', 'projects')]) chmodSync(folder, 0o755);
    for (const file of ['audio/old.mp3', 'audio/projects/old.srt', 'lexicon.json'])
      chmodSync(join(dir, file), 0o644);
    const t = await startTestCore({ dataDir: dir });
    try {
      expect((statSync(dir).mode & 0o777).toString(8)).toBe('700');
      // The walk runs in the background after the server listens.
      await eventually(async () =>
        (statSync(join(dir, 'audio', 'projects', 'old.srt')).mode & 0o777) === 0o600 ? true : undefined,
      );
      for (const [path, { mode, folder }] of modes(dir))
        expect(mode.toString(8), path).toBe(folder ? '700' : '600');
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops at its time budget and says so (the rest waits for the next start)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'old-data-'));
    try {
      for (let i = 0; i < 50; i++) {
        writeFileSync(join(dir, `f${i}`), 'x');
        chmodSync(join(dir, `f${i}`), 0o644);
      }
      chmodSync(dir, 0o755);
      let clock = 0;
      // Each look at the clock is a second later: the 10 s budget runs out after a few entries.
      const report = await tightenDataDir(dir, { budgetMs: 10_000, now: () => (clock += 1000) });
      expect(report.complete).toBe(false);
      expect(report.seen).toBeLessThan(50);
      const done = await tightenDataDir(dir);
      expect(done).toMatchObject({ complete: true, seen: 51, failed: 0 });
      expect(done.tightened).toBe(51 - report.tightened);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
