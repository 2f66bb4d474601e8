/**
 * The spoken-structure options of `project import` and `project set`, run as the CLI runs them
 * (in this process: test/fixtures/project-cli.ts) on a data directory (and on PostgreSQL on that run): a real Project Gutenberg
 * text (#1952, test/fixtures/real-manuscripts/SOURCES.md), the settings read back by `project show`,
 * bad options a one-line usage error.
 */

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useProjectCli } from '../../fixtures/project-cli';

const root = new URL('../../../', import.meta.url).pathname;
const wallpaper = join(root, 'test/fixtures/real-manuscripts/the-yellow-wallpaper-pg1952.txt');
const project = useProjectCli('project-settings-cli-').run;

interface Settings {
  preset: string;
  speak_headings: boolean;
  credits: boolean;
  narrator_name: string | null;
  copyright: string | null;
  opening_credits: string;
  closing_credits: string;
  opening_credits_edited: boolean;
}

describe('project import / set: the spoken structure', () => {
  it('import takes the settings, set changes them, "" gives the words back to the project', async () => {
    const imported = await project(
      'import',
      wallpaper,
      '--no-speak-headings',
      '--narrator-name',
      'Ada Reader',
      '--copyright',
      'Public domain in the USA',
    );
    expect(imported.code, imported.stderr).toBe(0);
    const id = (JSON.parse(imported.stdout) as { id: string }).id;
    const shown = JSON.parse((await project('show', id)).stdout) as Settings;
    // ACX, the default preset, has credits; the headings were turned off.
    expect(shown).toMatchObject({
      preset: 'acx',
      speak_headings: false,
      credits: true,
      narrator_name: 'Ada Reader',
      copyright: 'Public domain in the USA',
      opening_credits: 'The Yellow Wallpaper. Written by Charlotte Perkins Gilman. Narrated by Ada Reader.',
      closing_credits: 'The end. Public domain in the USA.',
      opening_credits_edited: false,
    });

    const set = await project(
      'set',
      id,
      '--speak-headings',
      '--no-credits',
      '--opening-credits',
      'A story by C. P. Gilman.',
    );
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout) as Settings).toMatchObject({
      id,
      speak_headings: true,
      credits: false,
      opening_credits: 'A story by C. P. Gilman.',
      opening_credits_edited: true,
    });

    const back = await project('set', id, '--opening-credits', '', '--narrator-name', '');
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout) as Settings).toMatchObject({
      speak_headings: true,
      credits: false,
      narrator_name: null,
      opening_credits: 'The Yellow Wallpaper. Written by Charlotte Perkins Gilman.',
      opening_credits_edited: false,
    });
  });

  it('bad settings are a usage error whose first line says what is wrong', async () => {
    const none = await project('set', '0'.repeat(32));
    expect(none.code).toBe(2);
    expect(none.stderr.split('\n')[0]).toBe('error: project set needs a setting to change');
    const long = await project('set', '0'.repeat(32), '--copyright', 'x'.repeat(1001));
    expect(long.code).toBe(2);
    expect(long.stderr.split('\n')[0]).toBe('error: --copyright must be at most 1000 characters');
    const valued = await project('set', '0'.repeat(32), '--speak-headings=yes');
    expect(valued.code).toBe(2);
    expect(valued.stderr.split('\n')[0]).toMatch(/^error: .*--speak-headings.*/);
    const unknown = await project('set', '0'.repeat(32), '--credits');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(`error: No project "${'0'.repeat(32)}" for this API key.\n`);
  });
});
