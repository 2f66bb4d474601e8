/** Installing packs someone already has: files, folders, .zip, .tar.gz, and URLs of them. */

import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { c as createTar } from 'tar';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogueEntry } from '../../../electron/shared/voice-packs';
import { installPack, type InstallOptions } from '../../../electron/core/voices/install';
import { checkOnnxHeader } from '../../fixtures/onnx-header';
import {
  TEST_HTTP,
  appErrorOf,
  voicesLeft,
  VoiceMirror,
  fakeKokoroVoice,
  fakeOnnx,
  kokoroTokenizer,
  piperConfig,
  syntheticKokoroPack,
  syntheticPiperPack,
  writePackFiles,
  zipOf,
} from '../../fixtures/voice-mirror';

let work: string;
let dataDir: string;
let mirror: VoiceMirror;
const piper = syntheticPiperPack('en_GB-alba-medium', { seed: 5 });
const kokoro = syntheticKokoroPack('kokoro-v1.0-q8', ['af_heart', 'bf_emma', 'jf_alpha']);
const catalogue: CatalogueEntry[] = [piper.entry, kokoro.entry];

beforeAll(async () => {
  mirror = await VoiceMirror.start();
});
afterAll(() => mirror.close());
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'voices-import-'));
  dataDir = join(work, 'data');
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const options = (extra: Partial<InstallOptions> = {}): InstallOptions => ({
  dataDir,
  validateModel: checkOnnxHeader,
  catalogue,
  http: TEST_HTTP,
  reserveBytes: 0,
  ...extra,
});
const importPath = (path: string, extra: Partial<InstallOptions> = {}) =>
  installPack({ kind: 'path', path }, options(extra));

/** A Kokoro export as Hugging Face lays it out: onnx/, voices/, tokenizer.json, config.json. */
function kokoroFolder(dir: string): string {
  writePackFiles(dir, kokoro.files, (p) => (p === 'model.onnx' ? 'onnx/model_quantized.onnx' : p));
  return dir;
}

describe('import from disk', () => {
  it('takes a Piper .onnx with its .onnx.json (and the .onnx.json path too), copying the files', async () => {
    const source = join(work, 'downloads');
    writePackFiles(source, piper.files);
    const { manifest, status } = await importPath(join(source, 'en_GB-alba-medium.onnx'));
    expect(status).toBe('installed');
    expect(manifest).toMatchObject({
      id: 'en_GB-alba-medium',
      family: 'piper',
      languages: ['en'],
      locales: ['en_GB'],
      quality: 'medium',
      origin: 'file',
      source: join(source, 'en_GB-alba-medium.onnx'),
      // Byte-identical to the catalogue's files: its licence applies.
      licence: 'CC-BY-4.0',
    });
    expect(manifest.files.find((f) => f.role === 'model')!.md5).toBe(piper.entry.files[0]!.digest!.hex);
    // The user's files stay where they were.
    expect(readdirSync(source).sort()).toEqual([
      'MODEL_CARD',
      'en_GB-alba-medium.onnx',
      'en_GB-alba-medium.onnx.json',
    ]);
    expect(voicesLeft(dataDir)).toEqual(['en_GB-alba-medium']);

    rmSync(join(dataDir, 'voices'), { recursive: true });
    const byConfig = await importPath(join(source, 'en_GB-alba-medium.onnx.json'));
    expect(byConfig.manifest.id).toBe('en_GB-alba-medium');
  });

  it('takes a folder; a voice that is not the catalogue one keeps its model card licence', async () => {
    const folder = join(work, 'my-voice');
    mkdirSync(folder);
    writeFileSync(join(folder, 'vi_VN-custom-low.onnx'), fakeOnnx(5000, 9));
    writeFileSync(
      join(folder, 'vi_VN-custom-low.onnx.json'),
      piperConfig({ sampleRate: 16000, quality: 'low', languageCode: 'vi_VN', speakers: ['a', 'b', 'c'] }),
    );
    writeFileSync(join(folder, 'MODEL_CARD'), '# Model card\n\n## Dataset\n\n* License: CC0\n');
    const { manifest } = await importPath(folder);
    expect(manifest).toMatchObject({
      id: 'vi_VN-custom-low',
      languages: ['vi'],
      locales: ['vi_VN'],
      quality: 'low',
      sample_rate: 16000,
      num_speakers: 3,
      speakers: { a: 0, b: 1, c: 2 },
      licence: 'CC0',
    });
  });

  it('takes a .zip and a .tar.gz of a Piper voice', async () => {
    const zip = join(work, 'voice.zip');
    writeFileSync(
      zip,
      zipOf(
        [...piper.files].map(([path, bytes]) => [`en_GB-alba-medium/${path}`, bytes] as [string, Buffer]),
      ),
    );
    const fromZip = await importPath(zip);
    expect(fromZip.manifest.id).toBe('en_GB-alba-medium');
    expect(
      readFileSync(join(dataDir, 'voices', 'en_GB-alba-medium', 'en_GB-alba-medium.onnx')).equals(
        piper.files.get('en_GB-alba-medium.onnx')!,
      ),
    ).toBe(true);
    expect(readdirSync(join(dataDir, 'voices', 'en_GB-alba-medium')).sort()).toEqual([
      'MODEL_CARD',
      'en_GB-alba-medium.onnx',
      'en_GB-alba-medium.onnx.json',
      'manifest.json',
    ]);
    expect(voicesLeft(dataDir)).toEqual(['en_GB-alba-medium']);

    rmSync(join(dataDir, 'voices'), { recursive: true });
    const folder = join(work, 'tarred');
    writePackFiles(join(folder, 'alba'), piper.files);
    const tarball = join(work, 'voice.tar.gz');
    await createTar({ gzip: true, file: tarball, cwd: folder }, ['alba']);
    const fromTar = await importPath(tarball);
    expect(fromTar.manifest.id).toBe('en_GB-alba-medium');
    expect(voicesLeft(dataDir)).toEqual(['en_GB-alba-medium']);
  });

  it('takes a Kokoro folder (Hugging Face layout), a Kokoro .onnx path and a Kokoro .zip', async () => {
    const folder = kokoroFolder(join(work, 'Kokoro-82M-v1.0-ONNX'));
    const { manifest } = await importPath(folder);
    // The model is the catalogue's q8 export, byte for byte: it takes that id.
    expect(manifest).toMatchObject({
      id: 'kokoro-v1.0-q8',
      family: 'kokoro',
      model: 'model.onnx',
      config: 'tokenizer.json',
      precision: 'q8',
      languages: ['en', 'ja'],
      sample_rate: 24000,
      licence: 'Apache-2.0',
    });
    expect(manifest.voices.map((v) => [v.name, v.file])).toEqual([
      ['af_heart', 'voices/af_heart.bin'],
      ['bf_emma', 'voices/bf_emma.bin'],
      ['jf_alpha', 'voices/jf_alpha.bin'],
    ]);
    expect(readdirSync(join(dataDir, 'voices', manifest.id)).sort()).toEqual([
      'config.json',
      'manifest.json',
      'model.onnx',
      'tokenizer.json',
      'voices',
    ]);

    // Another export beside it: the .onnx path picks the model.
    writeFileSync(join(folder, 'onnx', 'model_fp16.onnx'), fakeOnnx(3000, 11));
    const byPath = await importPath(join(folder, 'onnx', 'model_fp16.onnx'));
    expect(byPath.manifest).toMatchObject({ id: 'kokoro-model_fp16', licence: 'unknown, see model card' });
    expect(byPath.manifest.voices).toHaveLength(3);

    rmSync(join(dataDir, 'voices'), { recursive: true });
    const zip = join(work, 'kokoro.zip');
    writeFileSync(
      zip,
      zipOf([
        ['kokoro/model.onnx', kokoro.files.get('model.onnx')!],
        ['kokoro/tokenizer.json', Buffer.from(kokoroTokenizer())],
        ['kokoro/voices/zf_xiaobei.bin', fakeKokoroVoice(1)],
        ['kokoro/voices/ff_siwis.bin', fakeKokoroVoice(2)],
      ]),
    );
    const fromZip = await importPath(zip, { id: 'kokoro-mine' });
    expect(fromZip.manifest).toMatchObject({
      id: 'kokoro-mine',
      languages: ['fr', 'zh'],
      config: 'tokenizer.json',
    });
    expect(voicesLeft(dataDir)).toEqual(['kokoro-mine']);
  });

  it('refuses what is not a voice pack, saying why, and leaves nothing', async () => {
    const cases: [string, () => string, RegExp][] = [
      [
        'a config without phoneme_id_map',
        () => {
          const dir = join(work, 'noids');
          mkdirSync(dir);
          writeFileSync(join(dir, 'en_US-x-medium.onnx'), fakeOnnx(1000));
          writeFileSync(join(dir, 'en_US-x-medium.onnx.json'), piperConfig({ omit: ['phoneme_id_map'] }));
          return dir;
        },
        /en_US-x-medium\.onnx\.json is not a Piper voice config: "phoneme_id_map" is missing or wrong/,
      ],
      [
        'a Kokoro voice of the wrong shape',
        () => {
          const dir = kokoroFolder(join(work, 'badvoice'));
          writeFileSync(join(dir, 'voices', 'am_echo.bin'), Buffer.alloc(1000));
          return dir;
        },
        /am_echo\.bin is 1000 bytes; a Kokoro voice is 510×256 float32 \(522240 bytes\)/,
      ],
      [
        'a model that is not ONNX',
        () => {
          const dir = join(work, 'html');
          mkdirSync(dir);
          writeFileSync(join(dir, 'en_US-y-medium.onnx'), '<html>Not Found</html>');
          writeFileSync(join(dir, 'en_US-y-medium.onnx.json'), piperConfig());
          return dir;
        },
        /en_US-y-medium\.onnx is not an ONNX model/,
      ],
      [
        'two Piper voices in one folder',
        () => {
          const dir = join(work, 'two');
          writePackFiles(dir, piper.files);
          writeFileSync(join(dir, 'en_US-z-low.onnx'), fakeOnnx(100));
          writeFileSync(join(dir, 'en_US-z-low.onnx.json'), piperConfig());
          return dir;
        },
        /holds several Piper voices \(en_GB-alba-medium, en_US-z-low\); import them one at a time/,
      ],
      [
        'a zip entry that climbs out of the folder',
        () => {
          const zip = join(work, 'evil.zip');
          writeFileSync(zip, zipOf([['../../escape.onnx', fakeOnnx(100)]]));
          return zip;
        },
        /cannot be used/,
      ],
      [
        'a Kokoro model without a vocabulary',
        () => {
          const dir = join(work, 'novocab');
          mkdirSync(join(dir, 'voices'), { recursive: true });
          writeFileSync(join(dir, 'model.onnx'), fakeOnnx(100));
          writeFileSync(join(dir, 'voices', 'af_heart.bin'), fakeKokoroVoice(1));
          return dir;
        },
        /no vocabulary \(tokenizer\.json with "model\.vocab", or config\.json with "vocab"\)/,
      ],
    ];
    for (const [what, make, message] of cases) {
      const error = await appErrorOf(importPath(make()));
      expect(error.code, what).toBe('VOICE_PACK_INVALID');
      expect(error.message, what).toMatch(message);
      expect(voicesLeft(dataDir), what).toEqual([]);
    }
    expect(existsSync(join(work, 'escape.onnx'))).toBe(false);
    const missing = await appErrorOf(importPath(join(work, 'nothing-here')));
    expect(missing.code).toBe('VOICE_PACK_NOT_FOUND');
  });

  it('downloads a Piper .onnx (and its .onnx.json) or an archive from a URL', async () => {
    mirror.put('files/en_GB-alba-medium.onnx', piper.files.get('en_GB-alba-medium.onnx')!);
    mirror.put('files/en_GB-alba-medium.onnx.json', piper.files.get('en_GB-alba-medium.onnx.json')!);
    const url = `${mirror.url}/files/en_GB-alba-medium.onnx`;
    const { manifest } = await installPack({ kind: 'url', url }, options());
    expect(manifest).toMatchObject({ id: 'en_GB-alba-medium', origin: 'url', source: url });
    expect(voicesLeft(dataDir)).toEqual(['en_GB-alba-medium']);

    rmSync(join(dataDir, 'voices'), { recursive: true });
    const folder = join(work, 'tarred');
    kokoroFolder(join(folder, 'k'));
    rmSync(join(folder, 'k', 'onnx'), { recursive: true });
    writeFileSync(join(folder, 'k', 'model.onnx'), kokoro.files.get('model.onnx')!);
    const tarball = join(work, 'k.tgz');
    await createTar({ gzip: true, file: tarball, cwd: folder }, ['k']);
    mirror.put('files/k.tgz', readFileSync(tarball));
    const fromTar = await installPack({ kind: 'url', url: `${mirror.url}/files/k.tgz` }, options());
    expect(fromTar.manifest.id).toBe('kokoro-v1.0-q8');
    expect(voicesLeft(dataDir)).toEqual(['kokoro-v1.0-q8']);

    const missing = await appErrorOf(
      installPack({ kind: 'url', url: `${mirror.url}/files/none.zip` }, options()),
    );
    expect(missing.code).toBe('VOICE_DOWNLOAD_FAILED');
    expect(voicesLeft(dataDir)).toEqual(['kokoro-v1.0-q8']);
  });
});

describe('a URL whose last segment is a path', () => {
  it('writes nothing outside the data directory and leaves an existing file alone', async () => {
    // A server that answers every GET with bytes, whatever the path: the attacker's.
    const served: string[] = [];
    const server = createServer((req, res) => {
      served.push(req.url ?? '');
      res.writeHead(200, { 'content-length': '5' }).end('owned');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // `.download` → `.tmp-…` → voices → data → d → c: five folders up is `c`.
      const deepData = join(work, 'c', 'd', 'data');
      mkdirSync(deepData, { recursive: true });
      const victim = join(work, 'c', 'victim.txt');
      writeFileSync(victim, 'keep');
      for (const tail of [
        '..%2F..%2F..%2F..%2F..%2FOUTSIDE',
        '..%2F..%2F..%2F..%2F..%2Fvictim.txt',
        '..%2F..%2F..%2F..%2F..%2Fx.onnx',
        '..%5C..%5C..%5Cx.onnx',
        'x%00.onnx',
        '%2Fetc%2Fcron.d%2Fx',
        '%E0%A4%A',
      ]) {
        const url = `${base}/${tail}`;
        const error = await appErrorOf(installPack({ kind: 'url', url }, options({ dataDir: deepData })));
        expect(error.code, tail).toBe('VOICE_PACK_INVALID');
        expect(error.message, tail).toMatch(/does not end in a usable file name/);
        expect(voicesLeft(deepData), tail).toEqual([]);
      }
      expect(existsSync(join(work, 'c', 'OUTSIDE'))).toBe(false);
      expect(readFileSync(victim, 'utf8')).toBe('keep');
      // Nothing but the victim and the data directory's empty voices folder anywhere.
      expect(readdirSync(work, { recursive: true }).map(String).sort()).toEqual(
        ['c', 'c/d', 'c/d/data', 'c/d/data/voices', 'c/victim.txt'].map((p) => join(...p.split('/'))),
      );
      // The names are refused before a byte is asked for.
      expect(served).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
