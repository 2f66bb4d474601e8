/**
 * Hostile archives, made by real writers (Debian's `zip`, the `tar` package's header encoder):
 * a zip bomb, an archive past the absolute cap, a tar.gz of 100,000 empty files, entry names
 * that climb out. Each must be refused while unpacking, with little written, and an install
 * must leave nothing behind.
 */

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ARCHIVE_LIMITS, extractArchive } from '../../../electron/core/voices/archive';
import { installPack } from '../../../electron/core/voices/install';
import { checkOnnxHeader } from '../../fixtures/onnx-header';
import { appErrorOf, noise, voicesLeft } from '../../fixtures/voice-mirror';

let work: string;
let dest: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'voices-archive-'));
  dest = join(work, 'unpacked');
  mkdirSync(dest);
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** Bytes and files under `dir`. */
function onDisk(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const name of readdirSync(dir, { recursive: true })) {
    const info = statSync(join(dir, String(name)));
    if (info.isFile()) {
      bytes += info.size;
      files++;
    }
  }
  return { bytes, files };
}

/** A zip of one file of `megabytes` MB of zeros (a sparse file: nothing on disk to make it). */
function zipBomb(out: string, megabytes: number): void {
  const folder = join(work, 'bomb');
  mkdirSync(folder);
  execFileSync('truncate', ['-s', `${megabytes}M`, join(folder, 'zeros.onnx')]);
  execFileSync('zip', ['-q', '-9', out, 'zeros.onnx'], { cwd: folder });
  rmSync(folder, { recursive: true });
}

/** A tar.gz of `count` empty files `f/<n>`, headers written by the tar package. */
function manyEmptyFiles(out: string, count: number): void {
  const blocks = Buffer.alloc((count + 2) * 512);
  for (let i = 0; i < count; i++) {
    new Header({ path: `f/${i}`, mode: 0o644, size: 0, mtime: new Date(0), type: 'File' }).encode(
      blocks,
      i * 512,
    );
  }
  writeFileSync(out, gzipSync(blocks));
}

const unlimitedDisk = { maxBytes: Number.MAX_SAFE_INTEGER };
const install = (path: string, dataDir: string) =>
  installPack({ kind: 'path', path }, { dataDir, validateModel: checkOnnxHeader, reserveBytes: 0 });

describe('archive limits', () => {
  it('stops a zip bomb by its compression ratio while unpacking, with little on disk', async () => {
    const bomb = join(work, 'bomb.zip');
    zipBomb(bomb, 200);
    const size = statSync(bomb).size;
    expect(size).toBeLessThan(400_000); // 200 MB of zeros in a few hundred KB
    const error = await appErrorOf(extractArchive(bomb, dest, unlimitedDisk));
    expect(error.code).toBe('VOICE_PACK_INVALID');
    expect(error.message).toMatch(/unpacks to more than 20 times its own size/);
    // At most 20 × its size (or the 1 MiB floor), plus one decompressor chunk.
    const written = onDisk(dest).bytes;
    expect(written).toBeLessThanOrEqual(
      Math.max(size * DEFAULT_ARCHIVE_LIMITS.maxRatio, 1 << 20) + 64 * 1024,
    );

    // Installed, it leaves nothing behind.
    const dataDir = join(work, 'data');
    const installing = await appErrorOf(install(bomb, dataDir));
    expect(installing.message).toMatch(/zip bomb/);
    expect(voicesLeft(dataDir)).toEqual([]);
  });

  it('stops at the absolute cap however well the archive compresses, and the cap is configurable', async () => {
    const folder = join(work, 'noise');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.onnx'), noise(3_000_000, 7));
    const zip = join(work, 'noise.zip');
    execFileSync('zip', ['-q', '-r', zip, '.'], { cwd: folder });
    const limits = { ...DEFAULT_ARCHIVE_LIMITS, maxBytes: 2 * 1024 * 1024 };
    const error = await appErrorOf(extractArchive(zip, dest, { ...unlimitedDisk, limits }));
    expect(error.message).toMatch(/unpacks to more than 2097152 bytes, the limit for a voice pack/);
    expect(onDisk(dest).bytes).toBeLessThanOrEqual(limits.maxBytes);

    // A tar.gz past the cap is refused before its entry is written: its header states the size.
    const tarball = join(work, 'noise.tgz');
    execFileSync('tar', ['-czf', tarball, '-C', folder, '.']);
    rmSync(dest, { recursive: true });
    mkdirSync(dest);
    const tarError = await appErrorOf(extractArchive(tarball, dest, { ...unlimitedDisk, limits }));
    expect(tarError.message).toMatch(/more than 2097152 bytes/);
    expect(onDisk(dest).bytes).toBe(0);
  });

  it('counts entries as they are read: 100,000 empty files stop at the limit', async () => {
    const tarball = join(work, 'many.tgz');
    manyEmptyFiles(tarball, 100_000);
    const error = await appErrorOf(extractArchive(tarball, dest, unlimitedDisk));
    expect(error.code).toBe('VOICE_PACK_INVALID');
    expect(error.message).toMatch(/holds more than 1000 entries/);
    expect(onDisk(dest).files).toBeLessThanOrEqual(DEFAULT_ARCHIVE_LIMITS.maxEntries);

    // A zip states its count in its directory: refused before any entry is written.
    const folder = join(work, 'many');
    mkdirSync(folder);
    for (let i = 0; i < 1500; i++) writeFileSync(join(folder, String(i)), '');
    const zip = join(work, 'many.zip');
    execFileSync('zip', ['-q', '-r', zip, '.'], { cwd: folder });
    rmSync(dest, { recursive: true });
    mkdirSync(dest);
    const zipError = await appErrorOf(extractArchive(zip, dest, unlimitedDisk));
    expect(zipError.message).toMatch(/holds more than 1000 entries \(1500 seen\)/);
    expect(onDisk(dest).files).toBe(0);

    const dataDir = join(work, 'data');
    await appErrorOf(install(tarball, dataDir));
    expect(voicesLeft(dataDir)).toEqual([]);
  });

  it('refuses tar entries that climb out, and takes a tarball of `./` (as `tar -C dir .` writes it)', async () => {
    const blocks = Buffer.alloc(3 * 512);
    new Header({
      path: 'ok/../../escape.onnx',
      mode: 0o644,
      size: 0,
      mtime: new Date(0),
      type: 'File',
    }).encode(blocks, 0);
    const evil = join(work, 'evil.tgz');
    writeFileSync(evil, gzipSync(blocks));
    const error = await appErrorOf(extractArchive(evil, dest, unlimitedDisk));
    expect(error.message).toMatch(/the entry name "ok\/\.\.\/\.\.\/escape\.onnx" has a "\.\." part/);
    expect(readdirSync(work).sort()).toEqual(['evil.tgz', 'unpacked']);

    const folder = join(work, 'fine');
    mkdirSync(join(folder, 'voices'), { recursive: true });
    writeFileSync(join(folder, 'voices', 'a.bin'), 'x');
    const tarball = join(work, 'fine.tgz');
    execFileSync('tar', ['-czf', tarball, '-C', folder, '.']);
    expect(await extractArchive(tarball, dest, unlimitedDisk)).toBe(1);
    expect(onDisk(dest)).toEqual({ bytes: 1, files: 1 });
  });
});
