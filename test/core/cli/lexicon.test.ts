/**
 * `lexicon` (list, add, remove, import, export) on a data directory, and `say` speaking with
 * that directory's lexicon (shorter audio, the same words in the subtitles) or without it. The
 * commands run in this process (cli-in-process.ts) except where the process is the subject: the
 * files a `lexicon` process writes are private (index.ts's umask), and `say` rendering audio.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLexiconStore } from '../../../electron/core/lexicon/lexicon-store';
import { wavSamples } from '../../fixtures/audio-analysis';
import type { WordTiming } from '../../../electron/core/engine/types';
import { useCompiledCli } from '../../fixtures/compiled-cli';
import { runHere } from '../../fixtures/cli-in-process';
import { runLexicon } from '../../../electron/core/cli/lexicon-command';
import { runSay } from '../../../electron/core/cli/say-command';

const root = new URL('../../../', import.meta.url).pathname;
const compiled = useCompiledCli();
const dir = mkdtempSync(join(tmpdir(), 'lexicon-cli-'));
const data = join(dir, 'data');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(command: string, args: string[]) {
  const r = spawnSync(process.execPath, compiled.args(command, ...args), {
    cwd: root,
    env: { ...process.env, XDG_DATA_HOME: join(dir, 'user') },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
/** `lexicon` in this process (cli-in-process.ts); `run` spawns the compiled CLI where the process matters. */
const lexicon = (...args: string[]) => runHere(runLexicon, [...args, '--data-dir', data]);

describe('lexicon (headless CLI)', () => {
  it.skipIf(process.platform === 'win32')(
    'writes the data folder private to its user, like serve (issue 36: no 0644 file for other users)',
    () => {
      const fresh = join(dir, 'fresh-data');
      const added = run('lexicon', [
        'add',
        '--language',
        'vi',
        '--match',
        'TP.HCM',
        '--say',
        'thành phố Hồ Chí Minh',
        '--data-dir',
        fresh,
      ]);
      expect(added.stderr).toBe('');
      expect(added.code).toBe(0);
      expect(statSync(join(fresh, 'lexicon.json')).mode & 0o777).toBe(0o600);
      expect(statSync(fresh).mode & 0o077).toBe(0);
    },
  );

  it('adds, lists, exports, imports and removes entries', async () => {
    const added = await lexicon(
      'add',
      '--language',
      'en',
      '--match',
      'Cholmondeley',
      '--ipa',
      'ˈtʃʌmli',
      '--note',
      'a name',
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(
      /^added \S+ {2}en {2}"Cholmondeley" → \/ˈtʃʌmli\/ {2}# a name\nlexicon version 1\n$/,
    );
    expect(
      (await lexicon('add', '--language', 'en', '--match', 'Nguyen', '--say', 'win', '--case-sensitive'))
        .code,
    ).toBe(0);

    const list = await lexicon('list');
    expect(list.stdout.trim().split('\n')).toHaveLength(2);
    expect(list.stdout).toContain('"Nguyen" → "win"  (case-sensitive)');
    const json = JSON.parse((await lexicon('list', '--json', '--search', 'win')).stdout);
    expect(json).toMatchObject({ version: 2, items: [{ match: 'Nguyen', case_sensitive: true }] });

    const pls = join(dir, 'en.pls');
    expect((await lexicon('export', '--language', 'en', '--out', pls)).code).toBe(0);
    expect(readFileSync(pls, 'utf8')).toContain(
      '<grapheme>Cholmondeley</grapheme><phoneme>ˈtʃʌmli</phoneme>',
    );
    const csv = await lexicon('export', '--format', 'csv');
    expect(csv.stdout.split('\r\n')[1]).toBe('en,Cholmondeley,ipa,ˈtʃʌmli,false,true,a name');

    const file = join(dir, 'more.csv');
    writeFileSync(file, 'language,match,kind,replacement\nen,GIF,respell,jif\nen,Cholmondeley,ipa,ˈtʃʌmli\n');
    const imported = await lexicon('import', file);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe(
      'imported 2 entries from ' + file + ': 1 added, 1 updated, 0 unchanged\nlexicon version 3\n',
    );

    expect((await lexicon('remove', 'gif')).stdout).toMatch(
      /^removed \S+ {2}en {2}"GIF" → "jif"\nlexicon version 4\n$/,
    );
  });

  it('explains what it refuses', async () => {
    const ipa = await lexicon('add', '--language', 'en', '--match', 'X', '--ipa', 'kʰæt˥');
    expect(ipa.code).toBe(1);
    expect(ipa.stderr).toBe(
      'error: Tone marks such as "˥" (character 5) are not supported in IPA entries; write a respelling instead.\n',
    );
    const both = await lexicon('add', '--language', 'en', '--match', 'X', '--say', 'a', '--ipa', 'b');
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(
      /^error: give one of --say <respelling>, --ipa <IPA>, --abbreviation <its words> or --unit <one\|many>\n\nUsage: lexicon/,
    );
    expect((await lexicon('add', '--language', 'de', '--match', 'X', '--say', 'a')).stderr).toMatch(
      /^error: --language must be one of vi, en, zh, ja, ko, fr, es, got "de"/,
    );
    expect((await lexicon('export', '--format', 'pls')).stderr).toMatch(
      /^error: a PLS file holds one language/,
    );
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '[\n  {"language": "en" "match": "x"}\n]');
    const imported = await lexicon('import', broken);
    expect(imported.code).toBe(1);
    expect(imported.stderr).toMatch(new RegExp(`^error: ${broken}: Not valid JSON at line 2, column \\d+`));
    expect((await lexicon('remove', 'nothing')).stderr).toBe('error: the lexicon has no entry "nothing"\n');
    expect((await lexicon('list', '--ipa', 'x')).code).toBe(2);
    expect((await runHere(runLexicon, ['frobnicate'])).code).toBe(2);
  });
});

describe('say with the lexicon of --data-dir', () => {
  it('speaks the entries (shorter here) and keeps the written words in the timings', async () => {
    const folder = join(dir, 'say-data');
    const store = createLexiconStore({ dataDir: folder });
    await store.add({ language: 'en', match: 'Cholmondeley', kind: 'ipa', replacement: 'ˈtʃʌmli' });
    await store.add({ language: 'en', match: 'Nguyen', kind: 'respell', replacement: 'win' });
    await store.add({ language: 'vi', match: 'Nguyễn', kind: 'respell', replacement: 'Nguyên' });
    const say = (...extra: string[]) => {
      const out = join(dir, `say-${extra.length}.wav`);
      const timings = join(dir, `say-${extra.length}.json`);
      const r = run('say', [
        '--voice',
        'en_female_emily_us',
        '--data-dir',
        folder,
        '--out',
        out,
        '--timings',
        timings,
        ...extra,
        'Lord Cholmondeley met Nguyen.',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const { pcm, sampleRate } = wavSamples(new Uint8Array(readFileSync(out)));
      const words = JSON.parse(readFileSync(timings, 'utf8')) as WordTiming[];
      return { seconds: pcm.length / sampleRate, stderr: r.stderr, words: words.map((w) => w.text) };
    };
    const withLexicon = say();
    const without = say('--without-lexicon');
    expect(withLexicon.stderr).toContain('spoken by espeak with 2 lexicon entries');
    expect(without.stderr).not.toContain('lexicon entr');
    expect(without.seconds - withLexicon.seconds).toBeGreaterThan(0.1);
    expect(withLexicon.words).toEqual(['Lord', 'Cholmondeley', 'met', 'Nguyen']);
  });
});

describe('say --show-reading (headless CLI)', () => {
  const readingData = join(dir, 'reading-data');
  const say = (...args: string[]) => runHere(runSay, [...args, '--data-dir', readingData]);

  it("prints the reading in the voice's language with the lexicon, one line per change, and renders nothing", async () => {
    const add = (...args: string[]) => runHere(runLexicon, ['add', ...args, '--data-dir', readingData]);
    expect((await add('--language', 'vi', '--match', 'Trg', '--abbreviation', 'trường')).code).toBe(0);
    expect((await add('--language', 'vi', '--match', 'kn', '--unit', 'hải lý')).code).toBe(0);
    expect((await add('--language', 'en', '--match', 'Cty', '--say', 'city')).code).toBe(0);
    const text = 'Trg. Minh An chi 50.000đ ngày 15/01/2024 & trg khác.';
    const r = await say('--voice', 'vi_female_thuytrang_mb', '--show-reading', text);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [reading, blank, ...changes] = r.stdout.trimEnd().split('\n');
    expect(blank).toBe('');
    // The abbreviation is the user's (case as written: "cty" is left alone); the rest the rules'.
    expect(reading).toMatch(/^trường Minh An chi .+ trg khác\.$/u);
    expect(changes[0]).toBe('Trg. → trường  [lexicon]');
    expect(changes).toContainEqual(expect.stringMatching(/^50\.000đ → .*đồng {2}\[money\]$/u));
    expect(changes).toContainEqual(expect.stringMatching(/^15\/01\/2024 → .+ {2}\[date\]$/u));
    expect(changes).toContainEqual('& → và  [symbol]');
    // Only the voice's language's entries; without the lexicon the abbreviation is read as written.
    const without = await say(
      '--voice',
      'vi_female_thuytrang_mb',
      '--show-reading',
      '--without-lexicon',
      'Trg. Minh An',
    );
    expect(without.stdout).toBe('Trg. Minh An\n');
    const english = await say('--voice', 'en_male_onyx_default', '--show-reading', 'Cty hall');
    expect(english.stdout).toBe('city hall\n\nCty → city  [lexicon]\n');
  });

  it('reads SSML as its text, and still needs --out to render', async () => {
    const ssml = await say(
      '--voice',
      'en_male_onyx_default',
      '--show-reading',
      '--without-lexicon',
      '<speak>See <emphasis>No. 5</emphasis>.</speak>',
    );
    expect(ssml.code).toBe(0);
    expect(ssml.stdout).toBe('See number five.\n\nNo. → number  [abbreviation]\n5 → five  [cardinal]\n');
    const render = await say('--voice', 'en_male_onyx_default', 'Hello');
    expect(render.code).toBe(2);
    expect(render.stderr).toMatch(/^error: --out <file> is required/);
  });
});
