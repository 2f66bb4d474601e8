/**
 * The data folder is the user's alone: audio, subtitles with the full text, the sentence cache,
 * exports, the database, the lexicon, voices. On POSIX systems the server creates what it
 * writes private to its user: `keepNewFilesPrivate` sets the process's file-creation mask to
 * 077 (new folders 0700, new files 0600, whichever module or library writes them: SQLite's
 * journal, the engine's thread, a voice's unpacking), and `makePrivateDataDir` creates the data
 * folder 0700 and tightens the folder itself, which alone keeps every other local user out of
 * everything inside. `tightenDataDir` walks the folder once at start, in the background, and
 * takes group and other permissions off what earlier versions (or other commands) left
 * readable, within a time budget so a huge folder never holds anything up. Windows has no
 * POSIX modes (its folders under the user's profile are private already): all of it is skipped
 * there.
 */

import { chmodSync, mkdirSync } from 'node:fs';
import { chmod, lstat, opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

/** Mode of the data folder and of every folder in it. */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of every file in the data folder. */
export const PRIVATE_FILE_MODE = 0o600;
/** The file-creation mask that gives those modes: nothing for group and others. */
const PRIVATE_UMASK = 0o077;
/** Longest a start's walk works, ms: past it the rest waits for the next start (default 30 s). */
export const DEFAULT_TIGHTEN_BUDGET_MS = 30_000;

const posix = (platform: NodeJS.Platform) => platform !== 'win32';

/**
 * From now on, files and folders this process creates are its user's alone (umask 077). Only a
 * process's main thread may set it (worker threads share it); nothing on Windows.
 */
export function keepNewFilesPrivate(platform: NodeJS.Platform = process.platform): void {
  if (!posix(platform) || !isMainThread) return;
  process.umask(process.umask() | PRIVATE_UMASK);
}

/** Creates the data folder 0700 (and its missing parents), and makes it 0700 if it was not. */
export function makePrivateDataDir(dir: string, platform: NodeJS.Platform = process.platform): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (posix(platform)) chmodSync(dir, PRIVATE_DIR_MODE);
}

export interface TightenReport {
  /** Files and folders looked at. */
  seen: number;
  /** Of those, the ones whose mode was changed. */
  tightened: number;
  /** Those that could not be changed (another user's, gone meanwhile). */
  failed: number;
  /** False when the budget ran out (or `signal` aborted) before the walk ended. */
  complete: boolean;
  /** Time the walk took, ms. */
  ms: number;
}

export interface TightenOptions {
  /** Longest the walk works, ms (default 30 s). */
  budgetMs?: number;
  /** Stops the walk (the server closes). */
  signal?: AbortSignal;
  platform?: NodeJS.Platform;
  now?: () => number;
}

/**
 * Takes group and other permissions off every file and folder under `dir` (its own mode too),
 * one at a time on libuv's thread pool (the event loop stays free), symbolic links neither
 * followed nor changed. Stops when `budgetMs` has passed or `signal` aborts. Never throws for an
 * entry: one that cannot be read or changed is counted in `failed`.
 */
export async function tightenDataDir(dir: string, options: TightenOptions = {}): Promise<TightenReport> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const budgetMs = options.budgetMs ?? DEFAULT_TIGHTEN_BUDGET_MS;
  const report: TightenReport = { seen: 0, tightened: 0, failed: 0, complete: true, ms: 0 };
  const finish = () => ({ ...report, ms: Math.round(now() - started) });
  if (!posix(options.platform ?? process.platform)) return finish();
  const tighten = async (path: string, mode: number, folder: boolean) => {
    report.seen++;
    if ((mode & 0o077) === 0) return;
    try {
      await chmod(path, (mode & 0o700) | (folder ? PRIVATE_DIR_MODE : 0));
      report.tightened++;
    } catch {
      report.failed++;
    }
  };
  const folders = [dir];
  try {
    await tighten(dir, (await lstat(dir)).mode, true);
  } catch {
    report.failed++;
    return finish();
  }
  while (folders.length > 0) {
    const folder = folders.pop()!;
    let entries;
    try {
      entries = await opendir(folder);
    } catch {
      report.failed++;
      continue;
    }
    for await (const entry of entries) {
      if (options.signal?.aborted || now() - started > budgetMs) {
        // Leaving the loop closes the folder.
        report.complete = false;
        return finish();
      }
      if (entry.isSymbolicLink() || !(entry.isFile() || entry.isDirectory())) continue;
      const path = join(folder, entry.name);
      try {
        await tighten(path, (await lstat(path)).mode, entry.isDirectory());
      } catch {
        report.failed++;
        continue;
      }
      if (entry.isDirectory()) folders.push(path);
    }
  }
  return finish();
}
