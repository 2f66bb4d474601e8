/**
 * The headless `voices` command against a local mirror, run in this process (cli-in-process.ts).
 * Two processes installing at once, and `say` with an installed pack, are voices-processes.test.ts.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { c as createTar } from 'tar';
import { describe, expect, it } from 'vitest';
import { writePackFiles } from '../../fixtures/voice-mirror';
import { useVoicesCli } from '../../fixtures/voices-cli';

const cli = useVoicesCli('voices-cli-');
const { voice } = cli;

const voices = (...args: string[]) => cli.run(cli.dataDir, ...args);
const packFolders = () =>
  existsSync(join(cli.dataDir, 'voices')) ? readdirSync(join(cli.dataDir, 'voices')) : [];

describe('voices', () => {
  it('prints its usage, and refuses bad command lines with exit code 2', async () => {
    const help = await cli.run(cli.dataDir, '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('voices install <catalogue id | path | url>');
    const cases: [string[], string][] = [
      [['frobnicate'], 'unknown voices command "frobnicate"'],
      [['install'], 'voices install takes one argument'],
      [
        ['install', 'x', '--voice-mirror', 'ftp://mirror'],
        '--voice-mirror must be an http(s) URL, got "ftp://mirror"',
      ],
      [['assign', 'vi_female_kieunhi_mn', 'x', '--model', 'std-v1'], 'std-v1 is always eSpeak'],
      [['assign', 'nobody', 'x'], 'unknown voice code "nobody"'],
      [['list', '--colour'], "Unknown option '--colour'"],
    ];
    const runs = await Promise.all(cases.map(([args]) => voices(...args)));
    for (const [i, [args, message]] of cases.entries()) {
      expect(runs[i]!.code, args.join(' ')).toBe(2);
      expect(runs[i]!.stderr, args.join(' ')).toContain(message);
    }
  });

  it('shows the catalogue', async () => {
    const [text, json] = await Promise.all([
      voices('catalog', '--language', 'vi'),
      voices('catalog', '--json'),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^vi_VN-vais1000-medium +piper +vi +medium +63\.2 MB +1 speaker +CC-BY-4\.0/m,
    );
    expect(text.stdout).not.toContain('en_US-');
    const entries = JSON.parse(json.stdout) as { id: string; installed: boolean }[];
    expect(entries.find((e) => e.id === 'kokoro-v1.0-q8')).toMatchObject({ installed: false });
  });

  it("shows a catalogue pack's licence with its source, its model card and its sample", async () => {
    const [text, json, missing] = await Promise.all([
      voices('show', 'vi_VN-vivos-x_low'),
      voices('show', 'vi_VN-vivos-x_low', '--json'),
      voices('show', 'vi_VN-nobody-low'),
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^licence: +CC-BY-NC-SA-4\.0 \(non-commercial; VIVOS corpus\)$/m);
    expect(text.stdout).toMatch(/^licence source: +MODEL_CARD: "\* License: CC BY-NC-SA 4\.0"$/m);
    expect(text.stdout).toMatch(
      /^model card: +https:\/\/huggingface\.co\/rhasspy\/piper-voices\/blob\/v1\.0\.0\/vi\/vi_VN\/vivos\/x_low\/MODEL_CARD$/m,
    );
    expect(text.stdout).toMatch(
      /^sample: +https:\/\/raw\.githubusercontent\.com\/rhasspy\/piper-samples\/master\/samples\/vi\/vi_VN\/vivos\/x_low\/speaker_0\.mp3$/m,
    );
    expect(text.stdout).toMatch(/^state: +not installed$/m);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: 'vi_VN-vivos-x_low', installed: false, speed: null });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('"vi_VN-nobody-low" is neither installed nor in the catalogue');
  });

  it('downloads catalogue packs from --voice-mirror, refusing files that do not match', async () => {
    const path = 'rhasspy/piper-voices/resolve/v1.0.0/vi/vi_VN/vais1000/medium/vi_VN-vais1000-medium.onnx';
    cli.mirror.put(path, Buffer.alloc(1000, 1));
    const run = await voices('install', 'vi_VN-vais1000-medium', '--voice-mirror', `${cli.mirror.url}/`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "error: The mirror's vi_VN-vais1000-medium.onnx is 1000 bytes; the catalogue says 63201294.",
    );
    expect(cli.mirror.requestsFor(path)).toHaveLength(1);
    expect(packFolders()).toEqual([]);
  });

  it('installs from an archive, lists, assigns and removes', async () => {
    writePackFiles(join(cli.dir, 'src', 'voice'), voice.files);
    const tarball = join(cli.dir, 'voice.tar.gz');
    await createTar({ gzip: true, file: tarball, cwd: join(cli.dir, 'src') }, ['voice']);
    const install = await voices('install', tarball);
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toMatch(
      /^installed vi_VN-custom-medium in .*voices\nvi_VN-custom-medium +piper +vi +medium +22050 Hz/,
    );
    expect((await voices('install', tarball)).stdout).toBe(
      'vi_VN-custom-medium is already installed (remove it first to replace it)\n',
    );

    const list = await voices('list', '--json');
    const listed = JSON.parse(list.stdout) as { packs: { id: string }[]; voices: Record<string, string>[] };
    expect(listed.packs.map((p) => p.id)).toEqual(['vi_VN-custom-medium']);
    expect(listed.voices.find((v) => v.voice_code === 'vi_female_kieunhi_mn')).toEqual({
      voice_code: 'vi_female_kieunhi_mn',
      'std-v1.6': 'piper:vi_VN-custom-medium#0',
      'std-v1.5': 'piper:vi_VN-custom-medium#0',
      'std-v1.5-turbo': 'espeak',
    });

    const assign = await voices(
      'assign',
      'vi_female_kieunhi_mn',
      'vi_VN-custom-medium',
      '--model',
      'std-v1.5-turbo',
    );
    expect(assign.code, assign.stderr).toBe(0);
    expect(assign.stdout).toBe(
      'vi_female_kieunhi_mn → vi_VN-custom-medium for std-v1.5-turbo\n' +
        '  std-v1.6        piper:vi_VN-custom-medium#0\n' +
        '  std-v1.5        piper:vi_VN-custom-medium#0\n' +
        '  std-v1.5-turbo  piper:vi_VN-custom-medium#0\n',
    );
    expect(JSON.parse(readFileSync(join(cli.dataDir, 'voices', 'assignments.json'), 'utf8'))).toEqual({
      format: 1,
      voices: { vi_female_kieunhi_mn: { models: { 'std-v1.5-turbo': { packId: 'vi_VN-custom-medium' } } } },
    });
    const [korean, wrongLanguage, unknown] = await Promise.all([
      voices('assign', 'kr_female_seo-yeon_default', 'vi_VN-custom-medium'),
      voices('assign', 'en_female_nova_default', 'vi_VN-custom-medium'),
      voices('assign', 'vi_female_kieunhi_mn', 'vi_VN-nothing-medium'),
    ]);
    expect(korean.code).toBe(2);
    expect(korean.stderr).toContain('Korean is always eSpeak');
    expect(wrongLanguage.code).toBe(2);
    expect(wrongLanguage.stderr).toContain('vi_VN-custom-medium does not speak English');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('"vi_VN-nothing-medium" is neither installed nor in the catalogue');

    const remove = await voices('remove', 'vi_VN-custom-medium');
    expect(remove.code, remove.stderr).toBe(0);
    expect(remove.stdout).toContain('removed vi_VN-custom-medium\nassigned to vi_female_kieunhi_mn:');
    expect((await voices('list')).stdout).toMatch(
      /^no voice packs installed in .*voices \(every voice uses eSpeak\)\n$/,
    );
    const again = await voices('remove', 'vi_VN-custom-medium');
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('error: The voice pack "vi_VN-custom-medium" is not installed.\n');
    const clear = await voices('assign', 'vi_female_kieunhi_mn', '--clear', '--model', 'std-v1.5-turbo');
    expect(clear.code, clear.stderr).toBe(0);
    expect(packFolders()).toEqual(['assignments.json']);
  });

  describe('refuses a model that does not speak, and never installs other files as a catalogue pack', () => {
    const tree = (root: string): string[] =>
      existsSync(root) ? readdirSync(root, { recursive: true }).map(String).sort() : [];
    const own = (data: string, ...args: string[]) => cli.run(data, ...args);

    it('a truncated .onnx (its first 200 bytes, with a valid config): VOICE_PACK_INVALID, nothing left', async () => {
      const data = join(cli.dir, 'truncated-data');
      const src = join(cli.dir, 'truncated');
      const model = voice.files.get('vi_VN-custom-medium.onnx')!;
      writePackFiles(
        src,
        new Map([
          ['vi_VN-broken-medium.onnx', model.subarray(0, 200)],
          ['vi_VN-broken-medium.onnx.json', voice.files.get('vi_VN-custom-medium.onnx.json')!],
        ]),
      );
      const before = tree(join(data, 'voices'));
      const run = await own(data, 'install', join(src, 'vi_VN-broken-medium.onnx'));
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /^error: Piper voice model "vi_VN-broken-medium\.onnx" is not usable: not a valid ONNX model/m,
      );
      expect(tree(join(data, 'voices'))).toEqual(before);
      expect(JSON.parse((await own(data, 'list', '--json')).stdout).packs).toEqual([]);
    });

    it('files named as a catalogue pack whose digest differs get their own id and no licence', async () => {
      const data = join(cli.dir, 'claim-data');
      const src = join(cli.dir, 'claim');
      writePackFiles(
        src,
        new Map([
          ['vi_VN-vais1000-medium.onnx', voice.files.get('vi_VN-custom-medium.onnx')!],
          ['vi_VN-vais1000-medium.onnx.json', voice.files.get('vi_VN-custom-medium.onnx.json')!],
          ['MODEL_CARD', voice.files.get('MODEL_CARD') ?? Buffer.from('* License: CC BY 4.0\n')],
        ]),
      );
      const run = await own(data, 'install', join(src, 'vi_VN-vais1000-medium.onnx'));
      expect(run.code, run.stderr).toBe(0);
      const packs = (
        JSON.parse((await own(data, 'list', '--json')).stdout) as { packs: { id: string; licence: string }[] }
      ).packs;
      expect(packs).toHaveLength(1);
      expect(packs[0]!.id).toMatch(/^vi_VN-vais1000-medium-own-[0-9a-f]{8}$/);
      expect(packs[0]!.licence).toMatch(/^unknown/);
      expect(tree(join(data, 'voices'))).not.toContain('vi_VN-vais1000-medium');
    });
  });
});
