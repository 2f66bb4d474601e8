/**
 * The sentence cache from the command line: `say --data-dir` fills it and a second `say` of the
 * same text writes the same bytes from it; --sentence-cache-mb 0 keeps none; `cache
 * stats` reports it and `cache clear` empties the folder.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useCompiledCli } from '../../fixtures/compiled-cli';

const root = new URL('../../../', import.meta.url).pathname;
const compiled = useCompiledCli();
const dir = mkdtempSync(join(tmpdir(), 'cache-cli-'));
const data = join(dir, 'data');
const cacheDir = join(data, 'cache', 'sentences');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(command: string, args: string[]) {
  const r = spawnSync(process.execPath, compiled.args(command, ...args), {
    cwd: root,
    env: { ...process.env, XDG_DATA_HOME: join(dir, 'user'), HOME: join(dir, 'home') },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const TEXT = 'The keeper climbed the stairs. The storm came from the north.';
const entries = () => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((n) => n.endsWith('.snt')) : []);

describe('cache (headless CLI)', () => {
  it('reports no cache for a data folder that never rendered', () => {
    const stats = run('cache', ['stats', '--json', '--data-dir', data]);
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ entries: 0, bytes: 0 });
    expect(existsSync(cacheDir)).toBe(false);
  });

  it('say fills the cache of --data-dir and says the same text again from it, byte for byte', () => {
    const first = run('say', [
      '--voice',
      'en_female_emily_us',
      '--out',
      join(dir, 'a.wav'),
      '--data-dir',
      data,
      TEXT,
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(entries()).toHaveLength(2);
    const written = entries().map((n) => readFileSync(join(cacheDir, n)));

    const second = run('say', [
      '--voice',
      'en_female_emily_us',
      '--out',
      join(dir, 'b.wav'),
      '--data-dir',
      data,
      TEXT,
    ]);
    expect(second.code, second.stderr).toBe(0);
    expect(readFileSync(join(dir, 'b.wav')).equals(readFileSync(join(dir, 'a.wav')))).toBe(true);
    // Read, not rewritten.
    expect(entries().map((n) => readFileSync(join(cacheDir, n)))).toEqual(written);

    const stats = run('cache', ['stats', '--json', '--data-dir', data]);
    expect(JSON.parse(stats.stdout)).toMatchObject({ entries: 2 });
    expect(JSON.parse(stats.stdout).bytes).toBeGreaterThan(10_000);
  });

  it('keeps no cache with --sentence-cache-mb 0', () => {
    const other = join(dir, 'other');
    const r = run('say', [
      '--voice',
      'en_female_emily_us',
      '--out',
      join(dir, 'c.wav'),
      '--data-dir',
      other,
      '--sentence-cache-mb',
      '0',
      TEXT,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(other, 'cache'))).toBe(false);
    const bad = run('say', [
      '--voice',
      'en_female_emily_us',
      '--out',
      join(dir, 'd.wav'),
      '--sentence-cache-mb',
      'lots',
      TEXT,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--sentence-cache-mb');
  });

  it('clears the cache', () => {
    const cleared = run('cache', ['clear', '--data-dir', data]);
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(cleared.stdout).toContain('removed 2 entries');
    expect(entries()).toEqual([]);
    const unknown = run('cache', ['flush', '--data-dir', data]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown cache command "flush"');
  });
});
