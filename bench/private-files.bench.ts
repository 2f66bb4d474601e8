/**
 * The start's walk that makes a data folder private (platform/private-files.ts): prints figures,
 * never fails on time.   npm run bench:private-files [-- --files 20000]
 * A folder of `--files` files (200 per folder, 0644, folders 0755, as earlier versions left
 * them) is walked once to tighten everything, then again with nothing left to change (every
 * later start). Prints each walk's time and the longest stall of the event loop meanwhile (the
 * walk runs beside the server: each stat and chmod goes to libuv's thread pool).
 */

import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { tightenDataDir } from '../electron/core/platform/private-files';

const argValue = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const FILES = Number(argValue('files') ?? 20_000);
const PER_FOLDER = 200;

const dir = mkdtempSync(join(tmpdir(), 'bench-private-'));
try {
  for (let i = 0; i < FILES; i++) {
    const folder = join(dir, 'audio', `f${Math.floor(i / PER_FOLDER)}`);
    if (i % PER_FOLDER === 0) {
      mkdirSync(folder, { recursive: true });
      chmodSync(folder, 0o755);
    }
    const file = join(folder, `${i}.mp3`);
    writeFileSync(file, 'x');
    chmodSync(file, 0o644);
  }
  chmodSync(dir, 0o755);
  chmodSync(join(dir, 'audio'), 0o755);
  for (const label of ['first start (everything 0644/0755)', 'later start (nothing to change)']) {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const report = await tightenDataDir(dir);
    delay.disable();
    console.log(
      `${label}: ${report.seen} entries, ${report.tightened} tightened, ${report.ms} ms` +
        `${report.complete ? '' : ' (budget reached)'}; event loop max stall ${(delay.max / 1e6).toFixed(1)} ms`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
