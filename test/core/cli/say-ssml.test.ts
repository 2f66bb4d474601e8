/** `say` with SSML input: the same document the API takes, marks in the timings, errors with their place. */

import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSrt } from '../../../electron/shared/srt';
import { useCompiledCli } from '../../fixtures/compiled-cli';

const compiled = useCompiledCli();
const dir = mkdtempSync(join(tmpdir(), 'say-ssml-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function say(args: string[], input: string) {
  return compiled.say(args, input, dir);
}

describe('say with SSML', () => {
  it('renders the document: spoken text in the SRT, marks among the word timings, its characters counted', () => {
    const out = join(dir, 'dialogue.wav');
    const srt = join(dir, 'dialogue.srt');
    const timings = join(dir, 'dialogue.json');
    const r = say(
      ['--voice', 'en_male_onyx_default', '--out', out, '--srt', srt, '--timings', timings],
      '<speak>Where were you?<break time="500ms"/><mark name="reply"/>' +
        '<voice name="en_female_nova_default">Out <emphasis>walking</emphasis>.</voice></speak>',
    );
    expect(r.stderr).toContain('wrote');
    expect(r.code).toBe(0);
    // "Where were you? Out walking." is 28 characters: the break stands between two words.
    expect(r.stderr).toContain('28 characters');
    expect(
      parseSrt(readFileSync(srt, 'utf8'))
        .map((c) => c.text)
        .join(' '),
    ).toBe('Where were you? Out walking.');
    const items = JSON.parse(readFileSync(timings, 'utf8')) as Array<{
      text?: string;
      mark?: string;
      startMs: number;
    }>;
    const mark = items.find((i) => i.mark === 'reply');
    const out1 = items.find((i) => i.text === 'Out');
    expect(mark).toBeDefined();
    // The mark follows the break, just before "Out".
    expect(out1!.startMs - mark!.startMs).toBeGreaterThan(-1);
    expect(out1!.startMs - mark!.startMs).toBeLessThan(60);
  });

  it('fails on malformed SSML with the line and column, writing nothing', () => {
    const out = join(dir, 'bad.wav');
    const r = say(['--voice', 'en_male_onyx_default', '--out', out], '<speak>\nHello <s>there</speak>');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('(line 2, column 15)');
    expect(existsSync(out)).toBe(false);
  });
});
