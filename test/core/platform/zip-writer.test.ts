import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeZip } from '../../../electron/core/platform/zip-writer';

const dir = mkdtempSync(join(tmpdir(), 'zip-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What python3's zipfile (a real reader) finds in `zip`: names in order, flags, modes, SHA-256s, testzip. */
function readWithPython(zip: string) {
  const script = `
import hashlib, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    print(json.dumps({
        "bad": z.testzip(),
        "entries": [{"name": i.filename, "utf8": bool(i.flag_bits & 0x800), "stored": i.compress_type == zipfile.ZIP_STORED,
                     "mode": i.external_attr >> 16, "size": i.file_size,
                     "sha256": hashlib.sha256(z.read(i)).hexdigest()} for i in z.infolist()],
    }))`;
  return JSON.parse(execFileSync('python3', ['-c', script, zip], { encoding: 'utf8' })) as {
    bad: string | null;
    entries: { name: string; utf8: boolean; stored: boolean; mode: number; size: number; sha256: string }[];
  };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('writeZip (fflate)', () => {
  it('writes the files in order under their names, which zipfile and unzip -t read back byte for byte', async () => {
    // Larger than a read chunk (64 KiB) so the entry streams in many pushes.
    const big = randomBytes(3 * 1024 * 1024 + 17);
    const files: [string, Buffer][] = [
      ['01 Chương một.wav', big],
      ['02 Two.mp3', Buffer.from('ID3 not really an mp3, stored as is')],
      ['audio/seg.json', Buffer.from('[]')],
      ['empty.txt', Buffer.alloc(0)],
    ];
    const entries = files.map(([name, bytes], i) => {
      const path = join(dir, `in-${i}`);
      writeFileSync(path, bytes);
      return { path, name };
    });
    const zip = join(dir, 'book.zip');
    await writeZip(zip, entries);

    const read = readWithPython(zip);
    expect(read.bad).toBeNull();
    expect(read.entries).toEqual(
      files.map(([name, bytes]) => ({
        name,
        utf8: [...name].some((c) => c.charCodeAt(0) > 0x7f),
        stored: true,
        mode: 0o100644,
        size: bytes.length,
        sha256: sha256(bytes),
      })),
    );
    expect(execFileSync('unzip', ['-t', zip], { encoding: 'utf8' })).toMatch(/No errors detected/);
    expect(readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('writes an empty archive that readers accept', async () => {
    const zip = join(dir, 'empty.zip');
    await writeZip(zip, []);
    expect(readWithPython(zip)).toEqual({ bad: null, entries: [] });
  });

  it('leaves no file when an entry cannot be read', async () => {
    const good = join(dir, 'good');
    writeFileSync(good, 'fine');
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    const zip = join(dir, 'broken.zip');
    await expect(
      writeZip(zip, [
        { path: good, name: 'good.txt' },
        { path: folder, name: 'folder.txt' },
      ]),
    ).rejects.toThrow(/EISDIR/);
    expect(existsSync(zip)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.startsWith('broken.zip'))).toEqual([]);
  });

  it('refuses an archive past 4 GiB (no ZIP64) before writing anything', async () => {
    const huge = join(dir, 'huge.wav');
    writeFileSync(huge, '');
    truncateSync(huge, 2 ** 32); // sparse: no disk used
    const zip = join(dir, 'huge.zip');
    await expect(writeZip(zip, [{ path: huge, name: 'huge.wav' }])).rejects.toMatchObject({
      code: 'OUTPUT_FAILED',
      message: 'the zip archive would be larger than 4 GiB: export to m4b instead',
    });
    expect(readdirSync(dir).filter((name) => name.startsWith('huge.zip'))).toEqual([]);
    rmSync(huge);
  });
});
