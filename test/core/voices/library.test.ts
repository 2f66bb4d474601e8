/** The installed packs: listing, removing (also while a render holds a model open), the library object. */

import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../electron/shared/errors';
import { createVoiceLibrary, getPack, listPacks, removePack } from '../../../electron/core/voices/library';
import { checkOnnxHeader } from '../../fixtures/onnx-header';
import { parseKokoroVoice } from '../../../electron/core/voices/kokoro-names';
import { VOICE_CHARACTERS } from '../../../electron/core/engine/voice-character';
import { VOICES } from '../../../electron/shared/voices';
import { syntheticKokoroPack, syntheticPiperPack, writePackFiles } from '../../fixtures/voice-mirror';

let dataDir: string;
let source: string;
const piper = syntheticPiperPack('vi_VN-vais1000-medium');
const kokoro = syntheticKokoroPack('kokoro-v1.0-q8');
const catalogue = [piper.entry, kokoro.entry];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'voices-library-'));
  source = join(dataDir, 'source');
  writePackFiles(join(source, 'piper'), piper.files);
  writePackFiles(join(source, 'kokoro'), kokoro.files);
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const library = () =>
  createVoiceLibrary({ dataDir, validateModel: checkOnnxHeader, catalogue, reserveBytes: 0 });

describe('voice library', () => {
  it('lists nothing before anything is installed, then the packs by id, skipping what is not a pack', async () => {
    expect(await listPacks(dataDir)).toEqual([]);
    const lib = library();
    await lib.install(join(source, 'piper'));
    await lib.install(join(source, 'kokoro'));
    // Things in voices/ that are not packs: an install in progress, a file, a stray folder.
    mkdirSync(join(lib.dir, '.tmp-abc'), { recursive: true });
    mkdirSync(join(lib.dir, 'stray'));
    writeFileSync(join(lib.dir, 'assignments.json'), '{}');
    const warnings: string[] = [];
    const packs = await listPacks(dataDir, { info: () => {}, warn: (m) => warnings.push(m) });
    expect(packs.map((p) => p.id)).toEqual(['kokoro-v1.0-q8', 'vi_VN-vais1000-medium']);
    expect(warnings).toEqual([expect.stringMatching(/stray.manifest\.json cannot be read\. Skipped\.$/)]);
    expect((await getPack(dataDir, 'kokoro-v1.0-q8')).family).toBe('kokoro');
    await expect(getPack(dataDir, 'stray')).rejects.toMatchObject({ code: 'VOICE_PACK_NOT_FOUND' });
    await expect(getPack(dataDir, '../etc')).rejects.toMatchObject({ code: 'VOICE_PACK_NOT_FOUND' });
  });

  it('removes a pack whose model a render still has open: the render keeps reading, new requests no longer see it', async () => {
    const lib = library();
    const { manifest } = await lib.install(join(source, 'piper'));
    const model = join(lib.dir, manifest.id, manifest.model);
    const handle = await open(model, 'r');
    try {
      const removed = await removePack(dataDir, manifest.id);
      expect(removed.id).toBe(manifest.id);
      expect(await listPacks(dataDir)).toEqual([]);
      expect(readdirSync(lib.dir)).toEqual([]);
      expect(await lib.resolve('vi_female_kieunhi_mn', 'std-v1.6')).toEqual({ kind: 'espeak' });
      // The open model is still whole.
      const bytes = Buffer.alloc(piper.files.get(`${manifest.id}.onnx`)!.length);
      const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
      expect(bytesRead).toBe(bytes.length);
      expect(bytes.equals(piper.files.get(`${manifest.id}.onnx`)!)).toBe(true);
    } finally {
      await handle.close();
    }
    const again = await removePack(dataDir, manifest.id).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(AppError);
    expect(again).toMatchObject({
      code: 'VOICE_PACK_NOT_FOUND',
      message: 'The voice pack "vi_VN-vais1000-medium" is not installed.',
    });
  });

  it('deletes what an earlier removal had to leave (a folder set aside while in use) at the next removal or install', async () => {
    const lib = library();
    const { manifest } = await lib.install(join(source, 'piper'));
    // As a removal leaves it when the folder set aside could not be deleted (Windows, files open).
    const leftover = () => {
      mkdirSync(join(lib.dir, '.trash-old-pack-1a2b3c4d', 'deep'), { recursive: true });
      writeFileSync(join(lib.dir, '.trash-old-pack-1a2b3c4d', 'deep', 'model.onnx'), 'weights');
    };
    leftover();
    await removePack(dataDir, manifest.id);
    expect(readdirSync(lib.dir)).toEqual([]);
    leftover();
    await lib.install(join(source, 'kokoro'));
    expect(readdirSync(lib.dir).filter((name) => name.startsWith('.trash-'))).toEqual([]);
    expect((await listPacks(dataDir)).map((p) => p.id)).toEqual(['kokoro-v1.0-q8']);
  });

  it('resolves requests from what is installed and the saved assignments', async () => {
    const lib = library();
    expect(await lib.resolve('en_female_nova_default', 'std-v1.6')).toEqual({ kind: 'espeak' });
    await lib.install(join(source, 'kokoro'));
    expect(await lib.resolve('en_female_nova_default', 'std-v1.6')).toMatchObject({
      kind: 'kokoro',
      voice: 'af_heart',
    });
    await lib.assign('en_female_nova_default', { packId: 'kokoro-v1.0-q8', speaker: 'bf_emma' });
    expect(await lib.resolve('en_female_nova_default', 'std-v1.6')).toEqual({
      kind: 'kokoro',
      packId: 'kokoro-v1.0-q8',
      voice: 'bf_emma',
      voiceFile: 'voices/bf_emma.bin',
    });
    expect((await lib.assignments()).voices).toEqual({
      en_female_nova_default: { all: { packId: 'kokoro-v1.0-q8', speaker: 'bf_emma' } },
    });
  });

  it('reads what is installed again once the voices folder changed, even by another process', async () => {
    const lib = library();
    await lib.install(join(source, 'kokoro'));
    // A folder last changed long ago: its reading is kept between requests.
    const old = new Date(Date.now() - 60_000);
    utimesSync(lib.dir, old, old);
    expect(await lib.neuralVoice('en_female_nova_default', 'std-v1.6')).toMatchObject({ family: 'kokoro' });
    // Another process (the CLI) moves the pack aside, as removing does: seen at the next request.
    renameSync(join(lib.dir, 'kokoro-v1.0-q8'), join(lib.dir, '.trash-elsewhere'));
    expect(await lib.neuralVoice('en_female_nova_default', 'std-v1.6')).toBeUndefined();
    renameSync(join(lib.dir, '.trash-elsewhere'), join(lib.dir, 'kokoro-v1.0-q8'));
    utimesSync(lib.dir, old, old);
    expect(await lib.neuralVoice('en_female_nova_default', 'std-v1.6')).toMatchObject({ family: 'kokoro' });
    // An assignment written by another library on the same folder.
    await library().assign('en_female_nova_default', { packId: 'kokoro-v1.0-q8', speaker: 'bf_emma' });
    expect(await lib.neuralVoice('en_female_nova_default', 'std-v1.6')).toMatchObject({
      voiceName: 'bf_emma',
    });
  });
});

describe("each voice code's character", () => {
  it('comes with the neural voice of every code sharing one pack, from the table; a Kokoro mix gets none', async () => {
    const lib = library();
    await lib.install(join(source, 'piper'));
    const vietnamese = VOICES.filter((v) => v.language === 'vi');
    const voices = await Promise.all(vietnamese.map((v) => lib.neuralVoice(v.voice_code, 'std-v1.6')));
    voices.forEach((voice, i) => {
      expect(voice?.packId).toBe('vi_VN-vais1000-medium');
      expect(voice?.character).toEqual(VOICE_CHARACTERS.get(vietnamese[i]!.voice_code));
    });
    // The thirteen codes on one pack: thirteen characters.
    expect(new Set(voices.map((v) => JSON.stringify(v?.character))).size).toBe(vietnamese.length);
    await lib.install(join(source, 'kokoro'));
    const mix = parseKokoroVoice('af_heart(2)+am_echo(1)')!;
    const blended = await lib.kokoroVoice(mix);
    expect(blended?.voice.family).toBe('kokoro');
    expect(blended?.voice.character).toBeUndefined();
  });
});

describe('a manifest edited to point outside its pack', () => {
  it('makes no pack: listing skips it with a warning and getting it finds nothing', async () => {
    const lib = library();
    const { manifest } = await lib.install(join(source, 'piper'));
    await lib.assign('vi_female_kieunhi_mn', { packId: manifest.id });
    expect((await lib.neuralVoice('vi_female_kieunhi_mn', 'std-v1.6'))?.packId).toBe(manifest.id);
    const path = join(lib.dir, manifest.id, 'manifest.json');
    for (const model of ['../../../../etc/passwd', '/etc/passwd', 'C:\\Windows\\win.ini', 'a/../../x.onnx']) {
      writeFileSync(path, JSON.stringify({ ...manifest, model }));
      const warnings: string[] = [];
      expect(await listPacks(dataDir, { info: () => {}, warn: (m) => warnings.push(m) }), model).toEqual([]);
      expect(warnings, model).toEqual([expect.stringMatching(/names a file ".*" that .*\. Skipped\.$/)]);
      await expect(getPack(dataDir, manifest.id), model).rejects.toMatchObject({
        code: 'VOICE_PACK_NOT_FOUND',
      });
    }
  });
});
