/**
 * The headless `voices` command where only processes show the behaviour: two processes install
 * the same pack at once, and `say` (its own process, the real engine) speaks with a pack that
 * `voices install` put in the data folder. The rest of `voices` runs in-process: voices.test.ts.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCompiledCli } from '../../fixtures/compiled-cli';
import { writePackFiles } from '../../fixtures/voice-mirror';
import { useVoicesCli } from '../../fixtures/voices-cli';
import { runEntry } from '../server/process';

const cli = useVoicesCli('voices-processes-');
const { voice } = cli;
/** The compiled CLI, as a user runs it (a `node --import tsx` start compiles the sources each time). */
const compiled = useCompiledCli();
const cliProcess = (args: string[]) => runEntry(args, compiled);

const packFolders = () =>
  existsSync(join(cli.dataDir, 'voices')) ? readdirSync(join(cli.dataDir, 'voices')) : [];
const own = (data: string, ...args: string[]) => cli.run(data, ...args);

describe('voices, as processes', () => {
  it('lets two processes install the same pack at once: one pack, nothing else left', async () => {
    const url = `${cli.mirror.url}/files/vi_VN-custom-medium.onnx`;
    const install = () => cliProcess(['voices', 'install', url, '--data-dir', cli.dataDir]);
    const [a, b] = await Promise.all([install(), install()]);
    expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
    expect(a.stderr).toContain('downloading vi_VN-custom-medium.onnx');
    const outcomes = [a.stdout, b.stdout].map((out) => out.split('\n')[0]).sort();
    expect(outcomes[0]).toMatch(/^installed vi_VN-custom-medium in /);
    expect(outcomes[1]).toMatch(
      /^(installed vi_VN-custom-medium in |vi_VN-custom-medium is already installed)/,
    );
    expect(packFolders().sort()).toEqual(['vi_VN-custom-medium']);
    expect(readdirSync(join(cli.dataDir, 'voices', 'vi_VN-custom-medium')).sort()).toEqual([
      'manifest.json',
      'vi_VN-custom-medium.onnx',
      'vi_VN-custom-medium.onnx.json',
    ]);
    const list = await own(cli.dataDir, 'list', '--json');
    expect((JSON.parse(list.stdout) as { packs: { source: string }[] }).packs[0]!.source).toBe(url);
  });

  it('a model that speaks is installed and listed', async () => {
    const data = join(cli.dir, 'speaking-data');
    writePackFiles(join(cli.dir, 'speaking'), voice.files);
    const run = await own(data, 'install', join(cli.dir, 'speaking', 'vi_VN-custom-medium.onnx'));
    expect(run.code, run.stderr).toBe(0);
    const packs = (JSON.parse((await own(data, 'list', '--json')).stdout) as { packs: { id: string }[] })
      .packs;
    expect(packs.map((p) => p.id)).toEqual(['vi_VN-custom-medium']);
    // Its map holds a handful of phonemes: `say` names the ones it left out.
    const spoken = await cliProcess([
      'say',
      '--data-dir',
      data,
      '--voice',
      'vi_female_thuytrang_mb',
      '--out',
      join(cli.dir, 'speaking.wav'),
      'Xin chào các bạn.',
    ]);
    expect(spoken.code, spoken.stderr).toBe(0);
    expect(spoken.stderr).toContain('spoken by piper:vi_VN-custom-medium#0');
    expect(spoken.stderr).toMatch(
      /^warning: piper:vi_VN-custom-medium#0 does not know \d+ phonemes of this text and left them out: "/m,
    );
    // Its first render measured its speed on this machine; list and show give it.
    expect(spoken.stderr).toMatch(
      /^measured piper:vi_VN-custom-medium#0 on first use: RTF [\d.]+, first audio \d+ ms$/m,
    );
    const speed = JSON.parse(readFileSync(join(data, 'voices', 'vi_VN-custom-medium', 'speed.json'), 'utf8'));
    expect(speed.rtf).toBeGreaterThan(0);
    expect(speed.ttfa_ms).toBeGreaterThan(0);
    expect(speed.ttfa_ms).toBeLessThanOrEqual(speed.wall_ms);
    const [list, show] = await Promise.all([own(data, 'list'), own(data, 'show', 'vi_VN-custom-medium')]);
    expect(list.stdout).toMatch(
      /^ {4}speed: RTF [\d.]+, first audio \d+ ms \(measured \d{4}-\d\d-\d\d on [\d.]+ s of audio\)$/m,
    );
    expect(show.stdout).toMatch(/^speed: +RTF [\d.]+, first audio \d+ ms/m);
    expect(show.stdout).toMatch(/^model card: +none known$/m);
  });
});
