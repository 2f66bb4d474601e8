/** The catalogue's data: well-formed, consistent with the public layout, covering our languages. */

import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { CatalogueEntrySchema, KOKORO_VOICE_BYTES } from '../../../electron/shared/voice-packs';
import {
  CATALOGUE,
  DEFAULT_VOICE_MIRROR,
  catalogueFileUrl,
  findCatalogueEntry,
  kokoroVoiceInfo,
} from '../../../electron/core/voices/catalogue';
import { parseInstallSource } from '../../../electron/core/voices/install';

describe('catalogue', () => {
  it('has well-formed entries with unique ids whose size is the sum of their files', () => {
    expect(new Set(CATALOGUE.map((e) => e.id)).size).toBe(CATALOGUE.length);
    for (const entry of CATALOGUE) {
      expect(Value.Check(CatalogueEntrySchema, entry), entry.id).toBe(true);
      expect(entry.size).toBe(entry.files.reduce((n, f) => n + f.size, 0));
      expect(entry.files.filter((f) => f.role === 'model')).toHaveLength(1);
      expect(new Set(entry.files.map((f) => f.path)).size).toBe(entry.files.length);
      expect(entry.licence).not.toBe('');
    }
  });

  it('lists Piper voices at their v1.0.0 paths with md5 digests, and none for Japanese or Korean', () => {
    const piper = CATALOGUE.filter((e) => e.family === 'piper');
    expect(new Set(piper.flatMap((e) => e.languages))).toEqual(new Set(['vi', 'en', 'zh', 'fr', 'es']));
    expect(new Set(piper.flatMap((e) => e.locales))).toEqual(
      new Set(['vi_VN', 'en_US', 'en_GB', 'zh_CN', 'fr_FR', 'es_ES', 'es_MX']),
    );
    for (const entry of piper) {
      const [locale, name, quality] = [entry.locales[0]!, entry.id.split('-')[1]!, entry.quality];
      expect(entry.files.map((f) => f.path)).toEqual([
        `${entry.id}.onnx`,
        `${entry.id}.onnx.json`,
        'MODEL_CARD',
      ]);
      for (const file of entry.files) {
        expect(file.url).toBe(
          `rhasspy/piper-voices/resolve/v1.0.0/${entry.languages[0]}/${locale}/${name}/${quality}/${file.path}`,
        );
        expect(file.digest).toMatchObject({ algorithm: 'md5', hex: expect.stringMatching(/^[0-9a-f]{32}$/) });
      }
      expect(entry.sample_rate).toBe(quality === 'low' || quality === 'x_low' ? 16000 : 22050);
      if (entry.speakers)
        expect(entry.speakers.length === entry.num_speakers || entry.num_speakers === 1).toBe(true);
    }
    expect(findCatalogueEntry('vi_VN-vais1000-medium')).toMatchObject({
      num_speakers: 1,
      size: 63201294 + 4860 + 361,
      licence: 'CC-BY-4.0 (VAIS-1000 corpus)',
    });
    expect(findCatalogueEntry('fr_FR-upmc-medium')!.speakers).toEqual(['jessica', 'pierre']);
    expect(findCatalogueEntry('es_ES-sharvard-medium')!.speakers).toEqual(['M', 'F']);
    expect(findCatalogueEntry('en_US-libritts_r-medium')).toMatchObject({
      num_speakers: 904,
      speakers: null,
    });
  });

  it('lists the three Kokoro v1.0 exports with the same 45 voices of our languages', () => {
    const kokoro = CATALOGUE.filter((e) => e.family === 'kokoro');
    expect(kokoro.map((e) => [e.id, e.precision, e.files[0]!.url.split('/').pop()])).toEqual([
      ['kokoro-v1.0-fp32', 'fp32', 'model.onnx'],
      ['kokoro-v1.0-fp16', 'fp16', 'model_fp16.onnx'],
      ['kokoro-v1.0-q8', 'q8', 'model_quantized.onnx'],
    ]);
    for (const entry of kokoro) {
      expect(entry.languages).toEqual(['en', 'es', 'fr', 'ja', 'zh']);
      expect(entry.voices).toHaveLength(45);
      expect(entry.sample_rate).toBe(24000);
      const voices = entry.files.filter((f) => f.role === 'voice');
      expect(voices.every((f) => f.size === KOKORO_VOICE_BYTES && f.url.endsWith(`/${f.path}`))).toBe(true);
      for (const name of ['af_heart', 'jf_alpha', 'zf_xiaobei', 'ef_dora', 'ff_siwis', 'bm_george']) {
        expect(
          entry.voices.some((v) => v.name === name),
          name,
        ).toBe(true);
      }
      expect(entry.files.find((f) => f.role === 'model')!.digest?.algorithm).toBe('sha256');
      expect(entry.files.find((f) => f.path === 'tokenizer.json')!.role).toBe('vocab');
    }
    expect(kokoroVoiceInfo('bm_george')).toEqual({
      name: 'bm_george',
      locale: 'en_GB',
      language: 'en',
      gender: 'male',
      file: 'voices/bm_george.bin',
    });
    expect(kokoroVoiceInfo('xx_odd')).toMatchObject({ locale: 'und', language: 'und', gender: null });
  });

  it('has a digest for every file: SHA-256 for all of Kokoro, the MD5 Piper publishes for Piper', () => {
    const files = CATALOGUE.flatMap((e) =>
      e.files.map((f) => ({ family: e.family, path: f.path, digest: f.digest })),
    );
    expect(files).toHaveLength(282);
    expect(files.filter((f) => !f.digest)).toEqual([]);
    const kokoro = files.filter((f) => f.family === 'kokoro');
    expect(kokoro).toHaveLength(147);
    expect(
      kokoro.every((f) => f.digest!.algorithm === 'sha256' && /^[0-9a-f]{64}$/.test(f.digest!.hex)),
    ).toBe(true);
    const piper = files.filter((f) => f.family === 'piper');
    expect(piper).toHaveLength(135);
    expect(piper.every((f) => f.digest!.algorithm === 'md5' && /^[0-9a-f]{32}$/.test(f.digest!.hex))).toBe(
      true,
    );
    // A voice's digest is the same in the three exports (one file on the mirror).
    const byPath = new Map<string, Set<string>>();
    for (const f of kokoro) byPath.set(f.path, (byPath.get(f.path) ?? new Set()).add(f.digest!.hex));
    expect(
      [...byPath.entries()].filter(([path, hexes]) => path !== 'model.onnx' && hexes.size !== 1),
    ).toEqual([]);
  });

  it('builds URLs under any mirror, and tells ids, paths and URLs apart', () => {
    const file = findCatalogueEntry('vi_VN-vais1000-medium')!.files[0]!;
    expect(catalogueFileUrl(DEFAULT_VOICE_MIRROR, file)).toBe(
      'https://huggingface.co/rhasspy/piper-voices/resolve/v1.0.0/vi/vi_VN/vais1000/medium/vi_VN-vais1000-medium.onnx',
    );
    expect(catalogueFileUrl('http://mirror.local/hf///', file)).toBe(
      'http://mirror.local/hf/rhasspy/piper-voices/resolve/v1.0.0/vi/vi_VN/vais1000/medium/vi_VN-vais1000-medium.onnx',
    );
    expect(parseInstallSource('kokoro-v1.0-q8')).toEqual({ kind: 'catalogue', id: 'kokoro-v1.0-q8' });
    expect(parseInstallSource('https://x.org/v.onnx')).toEqual({ kind: 'url', url: 'https://x.org/v.onnx' });
    expect(parseInstallSource('./voices/v.onnx')).toEqual({ kind: 'path', path: './voices/v.onnx' });
  });
});
