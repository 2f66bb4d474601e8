/** Installing catalogue packs from a local mirror that misbehaves on demand. */

import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogueEntry } from '../../../electron/shared/voice-packs';
import {
  installPack,
  type InstallOptions,
  type InstallProgress,
} from '../../../electron/core/voices/install';
import { listPacks } from '../../../electron/core/voices/library';
import { checkOnnxHeader } from '../../fixtures/onnx-header';
import {
  TEST_HTTP,
  appErrorOf,
  voicesLeft,
  VoiceMirror,
  syntheticKokoroPack,
  syntheticPiperPack,
  type SyntheticPack,
} from '../../fixtures/voice-mirror';

let mirror: VoiceMirror;
let dataDir: string;
const piper = syntheticPiperPack('vi_VN-vais1000-medium', { modelBytes: 600_000 });
const multi = syntheticPiperPack('fr_FR-upmc-medium', { speakers: ['jessica', 'pierre'], seed: 3 });
const kokoro = syntheticKokoroPack('kokoro-v1.0-q8');
const catalogue: CatalogueEntry[] = [piper.entry, multi.entry, kokoro.entry];
const modelUrl = (p: SyntheticPack) => p.entry.files.find((f) => f.role === 'model')!.url;

beforeAll(async () => {
  mirror = await VoiceMirror.start();
  for (const p of [piper, multi, kokoro]) mirror.serve(p);
});
afterAll(() => mirror.close());
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'voices-install-'));
  mirror.requests.length = 0;
});
afterEach(() => {
  for (const p of [piper, multi, kokoro]) for (const f of p.entry.files) mirror.fault(f.url, null);
  rmSync(dataDir, { recursive: true, force: true });
});

function options(extra: Partial<InstallOptions> = {}): InstallOptions {
  return {
    dataDir,
    validateModel: checkOnnxHeader,
    mirror: mirror.url,
    catalogue,
    http: TEST_HTTP,
    reserveBytes: 0,
    ...extra,
  };
}

describe('catalogue install', () => {
  it('downloads a Piper voice with progress, verifies it and renames it into place', async () => {
    const progress: InstallProgress[] = [];
    const { manifest, status } = await installPack(
      { kind: 'catalogue', id: piper.entry.id },
      options({ onProgress: (p) => progress.push(p) }),
    );
    expect(status).toBe('installed');
    expect(manifest).toMatchObject({
      id: 'vi_VN-vais1000-medium',
      family: 'piper',
      languages: ['vi'],
      locales: ['vi_VN'],
      quality: 'medium',
      sample_rate: 22050,
      num_speakers: 1,
      model: 'vi_VN-vais1000-medium.onnx',
      config: 'vi_VN-vais1000-medium.onnx.json',
      licence: 'CC-BY-4.0',
      origin: 'catalogue',
      mirror: mirror.url,
      size: piper.entry.size,
    });
    expect(manifest.files.map((f) => [f.path, f.size, f.md5])).toEqual(
      piper.entry.files.map((f) => [f.path, f.size, f.digest!.hex]),
    );
    // Every file is in place, byte for byte, and only the pack is left in voices/.
    for (const [path, bytes] of piper.files) {
      expect(readFileSync(join(dataDir, 'voices', piper.entry.id, path)).equals(bytes)).toBe(true);
    }
    expect(voicesLeft(dataDir)).toEqual([piper.entry.id]);
    expect(readdirSync(join(dataDir, 'voices', piper.entry.id)).sort()).toEqual(
      ['MODEL_CARD', 'manifest.json', 'vi_VN-vais1000-medium.onnx', 'vi_VN-vais1000-medium.onnx.json'].sort(),
    );
    // Progress grows to the pack's size.
    const bytes = progress.map((p) => p.bytesDone);
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({
      phase: 'install',
      bytesDone: piper.entry.size,
      bytesTotal: piper.entry.size,
    });
    expect(
      progress.some((p) => p.phase === 'download' && p.bytesDone > 0 && p.bytesDone < piper.entry.size),
    ).toBe(true);
    expect(await listPacks(dataDir)).toEqual([manifest]);

    // Installing again changes nothing and downloads nothing.
    mirror.requests.length = 0;
    const again = await installPack({ kind: 'catalogue', id: piper.entry.id }, options());
    expect(again.status).toBe('already-installed');
    expect(mirror.requests).toEqual([]);
  });

  it('keeps speaker names of a multi-speaker voice from its config', async () => {
    const { manifest } = await installPack({ kind: 'catalogue', id: multi.entry.id }, options());
    expect(manifest).toMatchObject({
      num_speakers: 2,
      speakers: { jessica: 0, pierre: 1 },
      languages: ['fr'],
    });
  });

  it('resumes with Range after the connection is cut mid-body', async () => {
    const url = modelUrl(piper);
    const size = piper.files.get(`${piper.entry.id}.onnx`)!.length;
    mirror.fault(url, { kind: 'cut', afterBytes: Math.floor(size * 0.4), times: 2 });
    const { manifest } = await installPack({ kind: 'catalogue', id: piper.entry.id }, options());
    expect(manifest.files[0]!.sha256).toBeDefined();
    const requests = mirror.requestsFor(url);
    expect(requests.length).toBe(3);
    expect(requests[0]!.range).toBeUndefined();
    expect(requests[1]!.range).toBe(`bytes=${requests[0]!.bytesSent}-`);
    expect(requests[1]!.status).toBe(206);
    // Only missing bytes travelled again.
    expect(mirror.bytesServed(url)).toBe(size);
    expect(mirror.bytesServed(url)).toBeLessThan(2 * size);
    expect(voicesLeft(dataDir)).toEqual([piper.entry.id]);
  });

  it('resumes after a stalled body (no byte for longer than the body timeout)', async () => {
    const url = modelUrl(piper);
    mirror.fault(url, { kind: 'stall', afterBytes: 100_000 });
    await installPack({ kind: 'catalogue', id: piper.entry.id }, options());
    const requests = mirror.requestsFor(url);
    expect(requests.map((r) => r.range)).toEqual([undefined, 'bytes=100000-']);
  });

  it('starts the file over when the server ignores Range', async () => {
    const url = modelUrl(piper);
    const size = piper.files.get(`${piper.entry.id}.onnx`)!.length;
    // The cut happens once; afterwards the server answers 200 with everything.
    mirror.fault(url, { kind: 'cut', afterBytes: 200_000, ignoreRange: true });
    await installPack({ kind: 'catalogue', id: piper.entry.id }, options());
    const requests = mirror.requestsFor(url);
    expect(requests.at(-1)).toMatchObject({ range: 'bytes=200000-', status: 200, bytesSent: size });
    expect(
      readFileSync(join(dataDir, 'voices', piper.entry.id, `${piper.entry.id}.onnx`)).equals(
        piper.files.get(`${piper.entry.id}.onnx`)!,
      ),
    ).toBe(true);
  });

  it('refuses a file whose digest differs and leaves nothing behind', async () => {
    mirror.fault(modelUrl(piper), { kind: 'wrong-bytes' });
    const error = await appErrorOf(installPack({ kind: 'catalogue', id: piper.entry.id }, options()));
    expect(error.code).toBe('VOICE_PACK_INVALID');
    expect(error.message).toMatch(/does not match the catalogue \(md5 [0-9a-f]{32}, expected [0-9a-f]{32}\)/);
    expect(voicesLeft(dataDir)).toEqual([]);
  });

  it('refuses a truncated file as soon as the server states its size, and leaves nothing', async () => {
    const url = modelUrl(piper);
    mirror.fault(url, { kind: 'truncate', bytes: 1000 });
    const error = await appErrorOf(installPack({ kind: 'catalogue', id: piper.entry.id }, options()));
    expect(error.code).toBe('VOICE_PACK_INVALID');
    expect(error.message).toContain(
      `is 1000 bytes; the catalogue says ${piper.files.get(`${piper.entry.id}.onnx`)!.length}`,
    );
    expect(mirror.bytesServed(url)).toBeLessThanOrEqual(1000);
    expect(voicesLeft(dataDir)).toEqual([]);
  });

  it('gives up with VOICE_DOWNLOAD_FAILED on a refusal (404) and on a server that keeps failing', async () => {
    mirror.fault(modelUrl(piper), { kind: 'status', status: 404 });
    const notFound = await appErrorOf(installPack({ kind: 'catalogue', id: piper.entry.id }, options()));
    expect(notFound.code).toBe('VOICE_DOWNLOAD_FAILED');
    expect(notFound.message).toContain('HTTP 404');
    expect(mirror.requestsFor(modelUrl(piper))).toHaveLength(1);
    mirror.fault(modelUrl(piper), { kind: 'status', status: 503 });
    const failing = await appErrorOf(installPack({ kind: 'catalogue', id: piper.entry.id }, options()));
    expect(failing.code).toBe('VOICE_DOWNLOAD_FAILED');
    expect(failing.message).toMatch(/HTTP 503 .*\(after \d+ attempts\)/);
    expect(voicesLeft(dataDir)).toEqual([]);
  });

  it('refuses before downloading when the disk has not enough free space', async () => {
    const huge: CatalogueEntry = { ...piper.entry, id: 'vi_VN-huge-medium', size: 10 ** 16 };
    const error = await appErrorOf(
      installPack({ kind: 'catalogue', id: huge.id }, options({ catalogue: [huge] })),
    );
    expect(error.code).toBe('OUTPUT_FAILED');
    expect(error.message).toMatch(
      /^Not enough free disk space for vi_VN-huge-medium: it needs 10000000000\.0 MB/,
    );
    expect(mirror.requests).toEqual([]);
    expect(voicesLeft(dataDir)).toEqual([]);
  });

  // /dev/full answers every write with ENOSPC: the .part file is pointed at it while the
  // mirror holds its answer, so the download's first write fails as on a full disk.
  it.skipIf(!existsSync('/dev/full'))(
    'reports a full disk during the download and leaves nothing',
    async () => {
      const url = modelUrl(piper);
      mirror.fault(url, { kind: 'hold' });
      const install = installPack({ kind: 'catalogue', id: piper.entry.id }, options());
      await mirror.whenHeld();
      const temp = readdirSync(join(dataDir, 'voices')).find((n) => n.startsWith('.tmp-'))!;
      symlinkSync('/dev/full', join(dataDir, 'voices', temp, `${piper.entry.id}.onnx.part`));
      mirror.release();
      const error = await appErrorOf(install);
      expect(error.code).toBe('OUTPUT_FAILED');
      expect(error.message).toBe('Could not write the voice file: the disk is full (ENOSPC).');
      expect(voicesLeft(dataDir)).toEqual([]);
    },
  );

  it('stops on cancel mid-download and leaves nothing', async () => {
    const url = modelUrl(piper);
    mirror.fault(url, { kind: 'stall', afterBytes: 150_000, times: 10 });
    const controller = new AbortController();
    const install = installPack(
      { kind: 'catalogue', id: piper.entry.id },
      options({
        signal: controller.signal,
        http: { ...TEST_HTTP, bodyTimeoutMs: 30_000 },
        onProgress: (p) => {
          if (p.phase === 'download' && p.bytesDone >= 150_000) controller.abort();
        },
      }),
    );
    const error = await appErrorOf(install);
    expect(error.code).toBe('CANCELLED');
    expect(voicesLeft(dataDir)).toEqual([]);
  });

  it('serves two concurrent installs of one pack with one download', async () => {
    const [a, b] = await Promise.all([
      installPack({ kind: 'catalogue', id: piper.entry.id }, options()),
      installPack({ kind: 'catalogue', id: piper.entry.id }, options()),
    ]);
    expect(a.manifest).toEqual(b.manifest);
    expect(mirror.requestsFor(modelUrl(piper))).toHaveLength(1);
    expect(voicesLeft(dataDir)).toEqual([piper.entry.id]);
  });

  it('refuses a model the validator rejects, and leaves nothing', async () => {
    const error = await appErrorOf(
      installPack(
        { kind: 'catalogue', id: piper.entry.id },
        options({
          validateModel: async () => {
            throw new Error('Protobuf parsing failed');
          },
        }),
      ),
    );
    expect(error.code).toBe('VOICE_PACK_INVALID');
    expect(error.message).toBe(
      'vi_VN-vais1000-medium.onnx is not a usable Piper model: Protobuf parsing failed',
    );
    expect(voicesLeft(dataDir)).toEqual([]);
  });

  it('installs Kokoro with its voices, checking sizes where no digest is known', async () => {
    const seen: string[] = [];
    const { manifest } = await installPack(
      { kind: 'catalogue', id: kokoro.entry.id },
      options({
        validateModel: async (path, family) => {
          seen.push(`${family}:${path.split('/').pop()}`);
          await checkOnnxHeader(path, family);
        },
      }),
    );
    expect(seen).toEqual(['kokoro:model.onnx']);
    expect(manifest).toMatchObject({
      family: 'kokoro',
      model: 'model.onnx',
      config: 'tokenizer.json',
      precision: 'q8',
      sample_rate: 24000,
      languages: ['en', 'es', 'fr', 'ja', 'zh'],
    });
    expect(manifest.voices.map((v) => v.name)).toEqual(kokoro.entry.voices.map((v) => v.name));
    expect(manifest.voices.find((v) => v.name === 'bf_emma')).toEqual({
      name: 'bf_emma',
      locale: 'en_GB',
      language: 'en',
      gender: 'female',
      file: 'voices/bf_emma.bin',
    });
    // The voice without a digest (ef_dora) is still refused when its size is wrong.
    rmSync(join(dataDir, 'voices'), { recursive: true });
    const last = kokoro.entry.files.at(-1)!;
    expect(last.digest).toBeNull();
    mirror.fault(last.url, { kind: 'truncate', bytes: 1024 });
    const error = await appErrorOf(installPack({ kind: 'catalogue', id: kokoro.entry.id }, options()));
    expect(error.code).toBe('VOICE_PACK_INVALID');
    expect(error.message).toContain('voices/ef_dora.bin is 1024 bytes');
    expect(voicesLeft(dataDir)).toEqual([]);
  });

  it('resumes the download a dead process left behind', async () => {
    // A process that has exited: its pid is free (on this host).
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const pid = Number(dead.stdout.toString());
    const temp = join(dataDir, 'voices', '.tmp-0123456789ab');
    mkdirSync(temp, { recursive: true });
    writeFileSync(
      join(temp, '.owner.json'),
      JSON.stringify({
        pid,
        host: hostname(),
        pack_id: piper.entry.id,
        source: `catalogue:${mirror.url}`,
        started_at: '',
      }),
    );
    const model = piper.files.get(`${piper.entry.id}.onnx`)!;
    writeFileSync(join(temp, `${piper.entry.id}.onnx.part`), model.subarray(0, 250_000));
    const { status } = await installPack({ kind: 'catalogue', id: piper.entry.id }, options());
    expect(status).toBe('installed');
    expect(mirror.requestsFor(modelUrl(piper)).map((r) => r.range)).toEqual(['bytes=250000-']);
    expect(voicesLeft(dataDir)).toEqual([piper.entry.id]);
  });

  it('replaces a broken folder that has the pack name', async () => {
    mkdirSync(join(dataDir, 'voices', piper.entry.id), { recursive: true });
    writeFileSync(join(dataDir, 'voices', piper.entry.id, 'junk'), 'left by a crash');
    const { status } = await installPack({ kind: 'catalogue', id: piper.entry.id }, options());
    expect(status).toBe('installed');
    expect(voicesLeft(dataDir)).toEqual([piper.entry.id]);
    expect(readdirSync(join(dataDir, 'voices', piper.entry.id))).not.toContain('junk');
  });

  it('reports an unknown catalogue id', async () => {
    const error = await appErrorOf(installPack({ kind: 'catalogue', id: 'xx_XX-none-medium' }, options()));
    expect(error.code).toBe('VOICE_PACK_NOT_FOUND');
  });
});
