/**
 * `--baseline <commit | …/narration-studio.js>` of the benchmarks: another build's compiled CLI,
 * measured beside this checkout's in the same run. A commit (`HEAD~1`, a tag, a hash) is checked
 * out into a temporary worktree with this checkout's node_modules linked, and compiled there by
 * its own `electron/launch/build.ts --cli`; a path is used as it is.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

export interface BaselineCli {
  /** The compiled entry (dist/cli/narration-studio.js) to run with `node`. */
  entry: string;
  /** What to call it in a table: the short hash and subject of the commit, or the path. */
  label: string;
  /** Removes the worktree (nothing for a path). */
  remove(): void;
}

const git = (args: string[]): string => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

/** The compiled CLI of `baseline`: a path to a compiled entry, or a commit to build. */
export function baselineCli(baseline: string): BaselineCli {
  if (existsSync(baseline)) return { entry: resolve(baseline), label: baseline, remove: () => {} };
  const commit = git(['rev-parse', '--verify', `${baseline}^{commit}`]);
  const label = git(['log', '-1', '--format=%h %s', commit]).slice(0, 72);
  const folder = mkdtempSync(join(tmpdir(), 'bench-baseline-'));
  const tree = join(folder, 'tree');
  git(['worktree', 'add', '--detach', '--force', tree, commit]);
  const remove = () => {
    spawnSync('git', ['worktree', 'remove', '--force', tree], { cwd: ROOT });
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    // (A few old commits hold a node_modules link of their own.)
    if (!existsSync(join(tree, 'node_modules'))) {
      symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'junction');
    }
    const build = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'electron/launch/build.ts', '--cli'],
      { cwd: tree, encoding: 'utf8' },
    );
    if (build.status !== 0) throw new Error(`building ${label} failed:\n${build.stderr}`);
    const entry = join(tree, 'dist', 'cli', 'narration-studio.js');
    if (!existsSync(entry)) throw new Error(`building ${label} made no ${entry}`);
    return { entry, label, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
