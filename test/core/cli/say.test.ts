import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMp3 } from '../../fixtures/mp3-frames';
import { parseSrt } from '../../../electron/shared/srt';
import { validateCues } from '../../fixtures/subtitle-checks';
import { wavSamples, rmsOf } from '../../fixtures/audio-analysis';
import { useCompiledCli } from '../../fixtures/compiled-cli';

const compiled = useCompiledCli();
const dir = mkdtempSync(join(tmpdir(), 'say-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function say(args: string[], input?: string) {
  return compiled.say(args, input, dir);
}

describe('say (headless CLI)', () => {
  it('writes a WAV and SRT from arguments with every prosody option', () => {
    const out = join(dir, 'hello.wav');
    const srt = join(dir, 'hello.srt');
    const r = say([
      '--voice',
      'vi_female_thuytrang_mb',
      '--speed',
      '1.2',
      '--pitch',
      '0.9',
      '--volume',
      '120',
      '--model',
      'std-v1.5',
      '--srt',
      srt,
      '--out',
      out,
      'Xin chào các bạn.',
      'Hôm nay trời đẹp.',
    ]);
    expect(r.stderr).toContain('wrote');
    expect(r.stderr).toContain('spoken by espeak');
    expect(r.code).toBe(0);
    const { pcm, sampleRate } = wavSamples(new Uint8Array(readFileSync(out)));
    expect(sampleRate).toBe(22050);
    expect(rmsOf(pcm)).toBeGreaterThan(500);
    const cues = parseSrt(readFileSync(srt, 'utf8'));
    expect(cues.length).toBeGreaterThan(0);
    expect(validateCues(cues)).toEqual([]);
  });

  it('reads stdin when no text is given and writes MP3 at the asked bitrate', () => {
    const out = join(dir, 'stdin.mp3');
    const r = say(
      ['--voice', 'en_male_onyx_default', '--bitrate', '32', '--out', out],
      'Reading from standard input works.',
    );
    expect(r.code).toBe(0);
    const info = parseMp3(new Uint8Array(readFileSync(out)));
    expect([...info.bitrates]).toEqual([32]);
    expect(info.durationMs).toBeGreaterThan(1000);
  });

  it('lists the 26 voices', () => {
    const r = say(['--list-voices']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(26);
    expect(r.stdout).toContain('en_female_jessica_au');
    expect(r.stdout).toContain('approximated');
  });

  it.each([
    [['--voice', 'nobody', '--out', 'x.mp3', 'hi'], 'unknown voice'],
    [['--voice', 'en_female_nova_default', 'hi'], '--out'],
    [['--voice', 'en_female_nova_default', '--out', 'x.mp3', '--speed', '2.05', 'hi'], '--speed'],
    [['--voice', 'en_female_nova_default', '--out', 'x.mp3', '--volume', '151', 'hi'], '--volume'],
    [['--voice', 'en_female_nova_default', '--out', 'x.mp3', '--bitrate', '96', 'hi'], '--bitrate'],
    [['--voice', 'en_female_nova_default', '--out', 'x.mp3', '--format', 'ogg', 'hi'], '--format'],
    [['--voice', 'en_female_nova_default', '--out', 'x.mp3', '--bogus'], 'bogus'],
    [['--voice', 'en_female_nova_default', '--out', join(dir, 'none.mp3'), '🙂 !!!'], 'nothing to speak'],
  ])('rejects %j with a clear message and a non-zero exit', (args, message) => {
    const r = say(args);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(message);
    expect(existsSync(join(dir, 'none.mp3'))).toBe(false);
  });
});
