/**
 * `--baseline <commit | …/narration-studio.js>` of the benchmarks: another build measured beside
 * this checkout in the same run. A commit (`HEAD~1`, a tag, a hash) is checked out into a
 * temporary worktree with this checkout's node_modules linked; the benchmarks that run a
 * process take its CLI, compiled there by its own `electron/launch/build.ts --cli` (a path to a
 * compiled entry is used as it is), and those that measure in process import its modules.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..');

export interface BaselineCli {
  /** The compiled entry (dist/cli/narration-studio.js) to run with `node`. */
  entry: string;
  /** What to call it in a table: the short hash and subject of the commit, or the path. */
  label: string;
  /** Its name in a table's row: the short hash, or the path. */
  name: string;
  /** Removes the worktree (nothing for a path). */
  remove(): void;
}

const git = (args: string[]): string => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

/** A commit checked out beside this one: its source, to import in process or to build. */
export interface BaselineTree {
  /** The worktree's root. */
  tree: string;
  /** The short hash and subject of the commit. */
  label: string;
  /** The short hash. */
  name: string;
  /** Removes the worktree. */
  remove(): void;
}

/**
 * Checks out `commit` (`HEAD~1`, a tag, a hash) into a temporary worktree with this checkout's
 * node_modules linked.
 */
export function checkoutBaseline(commit: string): BaselineTree {
  const hash = git(['rev-parse', '--verify', `${commit}^{commit}`]);
  const label = git(['log', '-1', '--format=%h %s', hash]).slice(0, 72);
  const name = label.split(' ')[0]!;
  const folder = mkdtempSync(join(tmpdir(), 'bench-baseline-'));
  const tree = join(folder, 'tree');
  git(['worktree', 'add', '--detach', '--force', tree, hash]);
  const remove = () => {
    spawnSync('git', ['worktree', 'remove', '--force', tree], { cwd: ROOT });
    rmSync(folder, { recursive: true, force: true });
  };
  // (A few old commits hold a node_modules link of their own.)
  if (!existsSync(join(tree, 'node_modules'))) {
    symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'junction');
  }
  return { tree, label, name, remove };
}

/**
 * A module of the baseline's source, imported into this process (the benchmarks run under tsx,
 * which compiles it): `path` is relative to the repository's root, as in this checkout.
 */
export async function importFromBaseline<T>(baseline: BaselineTree, path: string): Promise<T> {
  return (await import(pathToFileURL(join(baseline.tree, path)).href)) as T;
}

/** The compiled CLI of `baseline`: a path to a compiled entry, or a commit to build. */
export function baselineCli(baseline: string): BaselineCli {
  if (existsSync(baseline))
    return { entry: resolve(baseline), label: baseline, name: baseline, remove: () => {} };
  const { tree, label, name, remove } = checkoutBaseline(baseline);
  try {
    const build = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'electron/launch/build.ts', '--cli'],
      { cwd: tree, encoding: 'utf8' },
    );
    if (build.status !== 0) throw new Error(`building ${label} failed:\n${build.stderr}`);
    const entry = join(tree, 'dist', 'cli', 'narration-studio.js');
    if (!existsSync(entry)) throw new Error(`building ${label} made no ${entry}`);
    return { entry, label, name, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
