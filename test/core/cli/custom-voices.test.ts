// test-tier: slow (the real engine speaks three times: say and audition, run in this process)
/**
 * `voices custom …` on a data folder's database, and `say --voice <custom code>` with the real
 * engine, all run in this process (cli-in-process.ts): no process is the subject here (the CLI's
 * own dispatch as a process: say.test.ts, voices-processes.test.ts).
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { medianF0, speechSpanMs, wavSamples } from '../../fixtures/audio-analysis';
import { runVoices } from '../../../electron/core/cli/voices-command';
import { runSay } from '../../../electron/core/cli/say-command';
import { runHere } from '../../fixtures/cli-in-process';

let dir: string;
let dataDir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'custom-voices-cli-'));
  dataDir = join(dir, 'data');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const custom = (...args: string[]) => runHere(runVoices, ['custom', ...args, '--data-dir', dataDir]);
const say = (...args: string[]) => runHere(runSay, [...args, '--data-dir', dataDir]);
const TEXT = 'The lighthouse keeper climbed the stairs at dusk, and the sea rolled in long grey lines.';

describe('voices custom', () => {
  it('creates, lists, shows, edits, speaks with say, auditions and deletes a voice', async () => {
    const lexicon = join(dir, 'lexicon.json');
    writeFileSync(lexicon, JSON.stringify([{ match: 'dusk', kind: 'respell', replacement: 'dawn' }]));
    const created = await custom(
      'create',
      '--code',
      'slowvoice',
      '--name',
      'Giọng chậm',
      '--base',
      'en_female_emily_us',
      '--speed',
      '0.6',
      '--pitch',
      '0.8',
      '--lexicon',
      lexicon,
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('created slowvoice');
    expect(created.stdout).toContain('prosody:    speed ×0.6, pitch ×0.8, volume 100%');
    expect(created.stdout).toContain('dusk → dawn (respell)');

    const list = await custom('list');
    expect(list.stdout).toMatch(
      /^slowvoice +Giọng chậm +en_female_emily_us +speed ×0.6 pitch ×0.8 volume 100%$/m,
    );
    const json = JSON.parse((await custom('list', '--json')).stdout) as {
      code: string;
      voice_code: string;
    }[];
    expect(json).toMatchObject([{ code: 'slowvoice', voice_code: 'en_female_emily_us' }]);

    const edited = await custom('edit', 'slowvoice', '--pitch', '0.7');
    expect(edited.code, edited.stderr).toBe(0);
    expect((await custom('show', 'slowvoice')).stdout).toContain('speed ×0.6, pitch ×0.7');

    const mine = join(dir, 'mine.wav');
    const base = join(dir, 'base.wav');
    const [a, b] = await Promise.all([
      say('--voice', 'slowvoice', '--out', mine, TEXT),
      say('--voice', 'en_female_emily_us', '--out', base, TEXT),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const x = wavSamples(readFileSync(mine));
    const y = wavSamples(readFileSync(base));
    const slower = speechSpanMs(x.pcm, x.sampleRate) / speechSpanMs(y.pcm, y.sampleRate);
    const lower = medianF0(x.pcm, x.sampleRate) / medianF0(y.pcm, y.sampleRate);
    console.log(`say --voice slowvoice: duration ×${slower.toFixed(2)}, F0 ×${lower.toFixed(2)}`);
    expect(slower).toBeGreaterThan(1.4);
    expect(lower).toBeLessThan(0.85);

    const sample = join(dir, 'sample.wav');
    const audition = await custom('audition', 'slowvoice', '--out', sample);
    expect(audition.code, audition.stderr).toBe(0);
    expect(wavSamples(readFileSync(sample)).pcm.length).toBeGreaterThan(10_000);

    expect((await custom('delete', 'slowvoice')).stdout).toBe('deleted slowvoice\n');
    const gone = await say('--voice', 'slowvoice', '--out', mine, TEXT);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('unknown voice "slowvoice"');
  }, 120_000);

  it('refuses reserved codes and bad input with one line', async () => {
    const cases: [string[], number, string][] = [
      [
        ['create', '--code', 'alloy', '--name', 'x', '--base', 'en_female_emily_us'],
        1,
        'error: "alloy" is an OpenAI voice name',
      ],
      [
        ['create', '--code', 'af_heart', '--name', 'x', '--base', 'en_female_emily_us'],
        1,
        'error: "af_heart" is a Kokoro voice name',
      ],
      [
        ['create', '--code', 'en_female_emily_us', '--name', 'x', '--base', 'en_female_emily_us'],
        1,
        'is a catalogue voice code',
      ],
      [
        ['create', '--code', 'okay', '--name', 'x', '--base', 'blend:af_bella(0)'],
        2,
        'a weight must be a positive number',
      ],
      [['create', '--code', 'okay', '--name', 'x', '--base', 'blend:af_bella'], 1, 'voice_code is required'],
      [
        ['create', '--code', 'okay', '--name', 'x', '--base', 'en_female_emily_us', '--speed', '3'],
        1,
        'prosody.speed',
      ],
      [['create', '--code', 'okay'], 2, 'needs --code, --name and --base'],
      [['show', 'nobody'], 1, 'error: No custom voice "nobody"'],
      [['frobnicate'], 2, 'unknown voices custom command "frobnicate"'],
    ];
    for (const [args, code, message] of cases) {
      const run = await custom(...args);
      expect(run.code, args.join(' ')).toBe(code);
      expect(run.stderr, args.join(' ')).toContain(message);
      if (code === 1) expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  }, 120_000);
});
