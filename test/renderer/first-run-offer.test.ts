/**
 * What the first-run offer proposes, from the library listing the server really answers
 * (`listing()` of GET /api/v1/voice-packs over a real, empty voice library with the built-in
 * catalogue): the ticked languages, the pack per language (the default assignment's), each pack
 * once, and Korean without one.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobEvents } from '../../electron/core/jobs/events';
import { silentLog } from '../../electron/core/platform/log';
import { listing } from '../../electron/core/server/routes/voice-packs';
import { createVoiceInstalls } from '../../electron/core/server/voice-installs';
import { createVoiceLibrary } from '../../electron/core/voices';
import { checkOnnxHeader } from '../fixtures/onnx-header';
import type { VoiceEngineInfo, VoicePackInfo } from '../../electron/shared/voice-packs';
import {
  OFFER_LANGUAGES,
  defaultLanguages,
  downloadBytes,
  offeredPacks,
  packForLanguage,
  sourceLabel,
  userLanguage,
} from '../../renderer/src/features/first-run/voice-offer';

let dir: string;
let packs: VoicePackInfo[];
let engines: Record<string, VoiceEngineInfo>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'first-run-offer-'));
  const voices = createVoiceLibrary({ dataDir: dir, validateModel: checkOnnxHeader, log: silentLog });
  const installs = createVoiceInstalls({ voices, events: createJobEvents(), log: silentLog });
  const list = await listing(voices, installs);
  packs = list.packs;
  engines = Object.fromEntries(list.voices.map((v) => [v.voice_code, v]));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the first-run offer', () => {
  it('lists our languages, Vietnamese first', () => {
    expect(OFFER_LANGUAGES.map((l) => l.code)).toEqual(['vi', 'en', 'zh', 'ja', 'ko', 'fr', 'es']);
  });

  it("ticks the user's first language of ours and Vietnamese", () => {
    expect(userLanguage(['de-DE', 'fr-CA', 'en'])).toBe('fr');
    expect(userLanguage(['de-DE'])).toBeUndefined();
    expect(defaultLanguages(['en-US'])).toEqual(['vi', 'en']);
    expect(defaultLanguages(['ja'])).toEqual(['vi', 'ja']);
    expect(defaultLanguages(['vi-VN', 'en'])).toEqual(['vi']);
    expect(defaultLanguages(['de-DE'])).toEqual(['vi']);
    expect(defaultLanguages([])).toEqual(['vi']);
  });

  it("offers each language the pack its voices' default assignment names", () => {
    expect(packForLanguage('vi', packs, engines)?.id).toBe('vi_VN-vais1000-medium');
    for (const language of ['en', 'zh', 'ja', 'fr', 'es'] as const)
      expect(packForLanguage(language, packs, engines)?.id).toBe('kokoro-v1.0-q8');
    expect(packForLanguage('ko', packs, engines)).toBeUndefined();
  });

  it('without a default pack in the catalogue, the best fit: highest tier, stated licence, smaller', () => {
    const vietnamese = packs.filter((p) => p.languages.includes('vi') && p.id !== 'vi_VN-vais1000-medium');
    // vivos (x_low, non-commercial) and 25hours_single (low, licence unknown): the low tier wins.
    expect(packForLanguage('vi', vietnamese, engines)?.id).toBe('vi_VN-25hours_single-low');
    const english = packs.filter((p) => p.languages.includes('en') && p.family === 'piper');
    const chosen = packForLanguage('en', english, engines)!;
    expect(chosen.quality).toBe('high');
    // Among the high-tier packs: a stated licence before an unknown one, then the smaller.
    const known = (p: VoicePackInfo) => !p.licence.startsWith('unknown');
    const rivals = english.filter((p) => p.quality === 'high' && p.id !== chosen.id);
    expect(rivals.length).toBeGreaterThan(0);
    expect(rivals.some((p) => known(p) && !known(chosen))).toBe(false);
    expect(rivals.filter((p) => known(p) === known(chosen)).every((p) => p.size >= chosen.size)).toBe(true);
  });

  it('offers a pack of several languages once, with the chosen languages it speaks', () => {
    const { offered, without } = offeredPacks(['vi', 'en', 'ko', 'fr'], packs, engines);
    expect(offered.map((o) => [o.pack.id, o.languages])).toEqual([
      ['vi_VN-vais1000-medium', ['vi']],
      ['kokoro-v1.0-q8', ['en', 'fr']],
    ]);
    expect(without).toEqual(['ko']);
    const vais = packs.find((p) => p.id === 'vi_VN-vais1000-medium')!;
    const kokoro = packs.find((p) => p.id === 'kokoro-v1.0-q8')!;
    expect(downloadBytes(offered)).toBe(vais.size + kokoro.size);
    expect(sourceLabel(vais.source_url)).toBe('huggingface.co/rhasspy/piper-voices');
    expect(sourceLabel(kokoro.source_url)).toBe('huggingface.co/onnx-community/Kokoro-82M-v1.0-ONNX');
  });
});
