/**
 * The shell's log: lines appended to `<logs folder>/main.log`, rotated by size
 * (main.log → main.1.log → … → main.<keep>.log, the oldest dropped). Implements the core's
 * `Log`, so the server and jobs write here too. Synchronous appends: a few lines a minute,
 * and nothing is lost when the process ends abruptly.
 */

import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Log } from '../core/platform/log';

export interface FileLog extends Log {
  error(message: string): void;
  /** The current log file. */
  readonly file: string;
}

export interface FileLogOptions {
  dir: string;
  /** Rotate when the file would exceed this many bytes (default 1 MiB). */
  maxBytes?: number;
  /** Rotated files kept besides the current one (default 3). */
  keep?: number;
  now?: () => Date;
  /** Also echo to this stream (development). */
  echo?: NodeJS.WritableStream;
}

export function createFileLog(options: FileLogOptions): FileLog {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const keep = options.keep ?? 3;
  const now = options.now ?? (() => new Date());
  const file = join(options.dir, 'main.log');
  const rotated = (n: number) => join(options.dir, `main.${n}.log`);
  mkdirSync(options.dir, { recursive: true });

  const rotate = () => {
    rmSync(rotated(keep), { force: true });
    for (let n = keep - 1; n >= 1; n--) if (existsSync(rotated(n))) renameSync(rotated(n), rotated(n + 1));
    if (keep >= 1) renameSync(file, rotated(1));
    else rmSync(file, { force: true });
  };

  const append = (line: string) => {
    const size = existsSync(file) ? statSync(file).size : 0;
    if (size > 0 && size + Buffer.byteLength(line) > maxBytes) rotate();
    appendFileSync(file, line);
  };

  /** Never throws: a log that cannot be written (folder removed, disk full) must not stop the app. */
  const write = (level: string, message: string) => {
    const line = `${now().toISOString()} ${level} ${message.replace(/\r?\n/g, '\n    ')}\n`;
    try {
      append(line);
    } catch (error) {
      if (!options.echo) process.stderr.write(`log not written (${(error as Error).message}): ${line}`);
    }
    options.echo?.write(line);
  };

  return {
    file,
    info: (message) => write('info', message),
    warn: (message) => write('warn', message),
    error: (message) => write('error', message),
  };
}
