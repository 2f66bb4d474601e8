/** `export` (a book to an audiobook) and `say --chapters`, run as a user runs them. */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSrt } from '../../../electron/shared/srt';
import { probeFile, writeCover } from '../engine/export/ffmpeg';
import { useCompiledCli } from '../../fixtures/compiled-cli';

const root = new URL('../../../', import.meta.url).pathname;
const compiled = useCompiledCli();
const dir = mkdtempSync(join(tmpdir(), 'export-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]) {
  const r = spawnSync(process.execPath, compiled.args(...args), {
    cwd: root,
    // No neural voices: the per-user data folder is an empty one of this test's.
    env: { ...process.env, XDG_DATA_HOME: dir },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const BOOK = `[chapter: Opening]
Chapter one. The lamp was lit.

# Second Part

The lamp went out.
`;

describe('export (headless CLI)', () => {
  it('exports an ACX MP3 with chapters, tags and cover, and its loudness report', async () => {
    const book = join(dir, 'lamp.md');
    writeFileSync(book, BOOK);
    const cover = join(dir, 'cover.png');
    writeCover(cover, 'red', 32);
    const out = join(dir, 'lamp.mp3');
    const r = cli([
      'export',
      '--voice',
      'en_male_onyx_default',
      '--speed',
      '1.2',
      '--preset',
      'acx',
      '--author',
      'Ann Author',
      '--cover',
      cover,
      '--out',
      out,
      '--file',
      book,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`wrote ${out}`);
    expect(r.stderr).toContain('2 chapters');
    const report = JSON.parse(readFileSync(join(dir, 'lamp.loudness.json'), 'utf8')) as {
      preset: string;
      title: string;
      files: Array<{ passes: boolean; failures: string[] }>;
    };
    expect(report.preset).toBe('acx');
    // The title defaults to the text file's name.
    expect(report.title).toBe('lamp');
    expect(report.files[0]!.failures).toEqual([]);
    const probed = await probeFile(out);
    expect(probed.chapters.map((c) => c.tags?.title)).toEqual(['Opening', 'Second Part']);
    expect(probed.format.tags).toMatchObject({ title: 'lamp', artist: 'Ann Author' });
    expect(probed.streams.some((s) => s.codec_name === 'png' && s.disposition?.attached_pic === 1)).toBe(
      true,
    );
  });

  it.each([
    [['--voice', 'en_female_nova_default', '--out', 'x.m4b', 'hi'], '--preset'],
    [['--voice', 'en_female_nova_default', '--preset', 'loud', '--out', 'x.m4b', 'hi'], '--preset'],
    [
      ['--voice', 'en_female_nova_default', '--preset', 'acx', '--format', 'ogg', '--out', 'x', 'hi'],
      '--format',
    ],
    [
      [
        '--voice',
        'en_female_nova_default',
        '--preset',
        'acx',
        '--folder-format',
        'wav',
        '--out',
        'x.mp3',
        'hi',
      ],
      '--folder-format',
    ],
    [
      [
        '--voice',
        'en_female_nova_default',
        '--preset',
        'acx',
        '--cover',
        join(root, 'package.json'),
        '--out',
        'x.mp3',
        'hi',
      ],
      '--cover',
    ],
    [['--voice', 'nobody', '--preset', 'acx', '--out', 'x.mp3', 'hi'], 'unknown voice'],
    [
      ['--voice', 'en_female_nova_default', '--preset', 'none', '--out', join(dir, 'none.m4b'), '🙂'],
      'nothing to speak',
    ],
  ])('rejects %j with a clear message and a non-zero exit', (args, message) => {
    const r = cli(['export', ...args]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(message);
    expect(existsSync(join(dir, 'none.m4b'))).toBe(false);
  });
});

describe('say --chapters', () => {
  it('writes the chapters with their times, and does not speak [chapter: …] lines', () => {
    const out = join(dir, 'say.wav');
    const chapters = join(dir, 'say.chapters.json');
    const srt = join(dir, 'say.srt');
    const book = join(dir, 'say.md');
    writeFileSync(book, BOOK);
    const r = cli([
      'say',
      '--voice',
      'en_female_emily_us',
      '--out',
      out,
      '--srt',
      srt,
      '--chapters',
      chapters,
      '--file',
      book,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`2 chapters in ${chapters}`);
    const list = JSON.parse(readFileSync(chapters, 'utf8')) as {
      durationMs: number;
      chapters: Array<{ title: string; startMs: number; endMs: number }>;
    };
    expect(list.chapters.map((c) => c.title)).toEqual(['Opening', 'Second Part']);
    const [first, second] = list.chapters as [(typeof list.chapters)[0], (typeof list.chapters)[0]];
    expect(first.startMs).toBe(0);
    expect(first.endMs).toBe(second.startMs);
    expect(second.endMs).toBe(list.durationMs);
    // The second chapter starts once the first one's words are spoken: its title's cue comes after.
    const cues = parseSrt(readFileSync(srt, 'utf8'));
    const titleCue = cues.find((c) => c.text.includes('Second Part'))!;
    expect(second.startMs).toBeGreaterThan(1000);
    expect(second.startMs).toBeLessThanOrEqual(titleCue.startMs);
    expect(cues.map((c) => c.text).join(' ')).not.toContain('chapter:');
    expect(cues[0]!.text).toMatch(/^Chapter one/);
  });
});
