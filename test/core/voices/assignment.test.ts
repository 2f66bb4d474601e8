/** model_id → engine voice, the default table, and the user's overrides on disk. */

import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MODEL_IDS } from '../../../electron/shared/options';
import { findVoice, VOICES } from '../../../electron/shared/voices';
import type { AssignmentOverrides, PackManifest } from '../../../electron/shared/voice-packs';
import {
  DEFAULT_ASSIGNMENTS,
  checkAssignment,
  emptyAssignments,
  engineLabel,
  loadAssignments,
  parseAssignment,
  resolveEngineVoice,
  setAssignment,
} from '../../../electron/core/voices/assignment';
import { CATALOGUE, findCatalogueEntry } from '../../../electron/core/voices/catalogue';
import { SPEAKER_METADATA, speakerLabel } from '../../../electron/core/voices/speaker-metadata';

/** A manifest as installing the catalogue entry `id` would write it. */
function installed(id: string): PackManifest {
  const entry = findCatalogueEntry(id)!;
  const names = entry.speakers ?? Array.from({ length: entry.num_speakers }, (_, i) => `s${i}`);
  return {
    format: 1,
    id,
    family: entry.family,
    languages: entry.languages,
    locales: entry.locales,
    quality: entry.quality,
    ...(entry.precision ? { precision: entry.precision } : {}),
    sample_rate: entry.sample_rate,
    num_speakers: entry.num_speakers,
    speakers:
      entry.family === 'piper' && entry.num_speakers > 1
        ? Object.fromEntries(names.map((n, i) => [n, i]))
        : {},
    voices: entry.voices,
    model: entry.files[0]!.path,
    config: entry.files[1]!.path,
    files: [],
    size: entry.size,
    licence: entry.licence,
    origin: 'catalogue',
    source: entry.source_url,
    installed_at: '2026-01-01T00:00:00.000Z',
  };
}

const label = (
  code: string,
  model: (typeof MODEL_IDS)[number],
  packs: string[],
  overrides?: AssignmentOverrides,
) => engineLabel(resolveEngineVoice(code, model, packs.map(installed), overrides));

const EN = VOICES.filter((v) => v.language === 'en').map((v) => v.voice_code);
const VI = VOICES.filter((v) => v.language === 'vi').map((v) => v.voice_code);

describe('resolveEngineVoice', () => {
  it('is eSpeak with nothing installed, for std-v1, for Korean and for unknown codes', () => {
    const everything = CATALOGUE.map((e) => e.id);
    for (const v of VOICES) for (const m of MODEL_IDS) expect(label(v.voice_code, m, [])).toBe('espeak');
    for (const v of VOICES) expect(label(v.voice_code, 'std-v1', everything)).toBe('espeak');
    for (const m of MODEL_IDS) expect(label('kr_female_seo-yeon_default', m, everything)).toBe('espeak');
    expect(label('xx_nobody', 'std-v1.6', everything)).toBe('espeak');
  });

  it('gives Vietnamese the medium voice for std-v1.6 and std-v1.5, the fastest for turbo', () => {
    expect(label('vi_female_kieunhi_mn', 'std-v1.6', ['vi_VN-vais1000-medium'])).toBe(
      'piper:vi_VN-vais1000-medium#0',
    );
    expect(label('vi_female_kieunhi_mn', 'std-v1.5', ['vi_VN-vais1000-medium'])).toBe(
      'piper:vi_VN-vais1000-medium#0',
    );
    // No low voice installed: turbo has nothing fast enough.
    expect(label('vi_female_kieunhi_mn', 'std-v1.5-turbo', ['vi_VN-vais1000-medium'])).toBe('espeak');
    const packs = ['vi_VN-vais1000-medium', 'vi_VN-25hours_single-low', 'vi_VN-vivos-x_low'];
    // x_low is faster than low; the 13 codes get 13 different vivos speakers.
    const turbo = VI.map((code) => label(code, 'std-v1.5-turbo', packs));
    expect(turbo.every((l) => l.startsWith('piper:vi_VN-vivos-x_low#'))).toBe(true);
    expect(new Set(turbo).size).toBe(VI.length);
    expect(label('vi_male_lehoang_mb', 'std-v1.6', packs)).toBe('piper:vi_VN-vais1000-medium#0');
  });

  it('keeps the English voices distinct on Kokoro, in any installed export', () => {
    for (const pack of ['kokoro-v1.0-q8', 'kokoro-v1.0-fp16']) {
      const labels = EN.map((code) => label(code, 'std-v1.6', [pack, 'en_US-lessac-medium']));
      expect(new Set(labels).size).toBe(EN.length);
      expect(label('en_male_echo_default', 'std-v1.6', [pack])).toBe(`kokoro:${pack}#am_echo`);
      expect(label('en_female_nova_default', 'std-v1.6', [pack])).toBe(`kokoro:${pack}#af_nova`);
      expect(label('en_female_elara_br', 'std-v1.6', [pack])).toBe(`kokoro:${pack}#bf_emma`);
    }
    // With every export installed, the assigned one (q8) wins the tie.
    expect(
      label('jp_female_yuki_default', 'std-v1.6', ['kokoro-v1.0-fp32', 'kokoro-v1.0-fp16', 'kokoro-v1.0-q8']),
    ).toBe('kokoro:kokoro-v1.0-q8#jf_alpha');
    // Without the assigned export, the larger one is preferred.
    expect(label('jp_female_yuki_default', 'std-v1.6', ['kokoro-v1.0-fp16', 'kokoro-v1.0-fp32'])).toBe(
      'kokoro:kokoro-v1.0-fp32#jf_alpha',
    );
  });

  it('uses Piper for std-v1.5 and turbo even when Kokoro is installed, with the code own voice where it is', () => {
    const packs = [
      'kokoro-v1.0-q8',
      'en_US-lessac-medium',
      'en_US-amy-medium',
      'en_US-ryan-low',
      'en_US-amy-low',
    ];
    expect(label('en_female_nova_default', 'std-v1.5', packs)).toBe('piper:en_US-amy-medium#0');
    expect(label('en_female_alice_default', 'std-v1.5', packs)).toBe('piper:en_US-lessac-medium#0');
    expect(label('en_female_nova_default', 'std-v1.5-turbo', packs)).toBe('piper:en_US-amy-low#0');
    expect(label('en_male_echo_default', 'std-v1.5-turbo', packs)).toBe('piper:en_US-ryan-low#0');
    // A code without a preference among the installed packs still gets one of them.
    expect(label('en_female_emily_us', 'std-v1.5', packs)).toMatch(/^piper:en_US-(amy|lessac)-medium#0$/);
    // Multi-speaker: the assigned speaker by name.
    expect(label('en_female_meera_indian', 'std-v1.5', ['en_US-l2arctic-medium'])).toBe(
      'piper:en_US-l2arctic-medium#2',
    );
    expect(label('es_female_elana_default', 'std-v1.5', ['es_ES-sharvard-medium'])).toBe(
      'piper:es_ES-sharvard-medium#1',
    );
  });

  it('keeps a British voice British: accent before quality', () => {
    expect(label('en_female_elara_br', 'std-v1.6', ['en_US-lessac-high', 'en_GB-alba-medium'])).toBe(
      'piper:en_GB-alba-medium#0',
    );
    expect(label('en_female_nova_default', 'std-v1.6', ['en_US-lessac-high', 'en_GB-alba-medium'])).toBe(
      'piper:en_US-lessac-high#0',
    );
    // The higher tier wins within an accent, and the same voice in another tier counts as assigned.
    expect(label('en_male_echo_default', 'std-v1.6', ['en_US-ryan-high', 'en_US-joe-medium'])).toBe(
      'piper:en_US-ryan-high#0',
    );
  });

  it('follows the user: an override for all models, and one for a single model_id', () => {
    const packs = ['kokoro-v1.0-q8', 'en_US-lessac-medium', 'en_US-lessac-low', 'en_US-ryan-low'];
    const overrides: AssignmentOverrides = {
      format: 1,
      voices: {
        en_female_nova_default: { all: { packId: 'en_US-lessac-medium' } },
        en_male_onyx_default: { models: { 'std-v1.5-turbo': { packId: 'en_US-lessac-medium' } } },
        fr_female_camille_default: { all: { packId: 'fr_FR-upmc-medium', speaker: 'pierre' } },
      },
    };
    // std-v1.6 takes the override although Kokoro ranks higher.
    expect(label('en_female_nova_default', 'std-v1.6', packs, overrides)).toBe('piper:en_US-lessac-medium#0');
    // turbo: the override is not fast; the same voice in a low tier is preferred.
    expect(label('en_female_nova_default', 'std-v1.5-turbo', packs, overrides)).toBe(
      'piper:en_US-lessac-low#0',
    );
    // A per-model override is used as it is.
    expect(label('en_male_onyx_default', 'std-v1.5-turbo', packs, overrides)).toBe(
      'piper:en_US-lessac-medium#0',
    );
    expect(label('en_male_onyx_default', 'std-v1.6', packs, overrides)).toBe('kokoro:kokoro-v1.0-q8#am_onyx');
    // A speaker by name; an override that is not installed falls back to the ranking.
    expect(label('fr_female_camille_default', 'std-v1.6', ['fr_FR-upmc-medium'], overrides)).toBe(
      'piper:fr_FR-upmc-medium#1',
    );
    expect(label('fr_female_camille_default', 'std-v1.6', ['fr_FR-siwis-medium'], overrides)).toBe(
      'piper:fr_FR-siwis-medium#0',
    );
  });
});

describe('the default table', () => {
  it('covers the 26 voice codes with catalogue packs that speak their language', () => {
    expect(Object.keys(DEFAULT_ASSIGNMENTS).sort()).toEqual(VOICES.map((v) => v.voice_code).sort());
    expect(VOICES.length).toBe(26);
    for (const [code, prefs] of Object.entries(DEFAULT_ASSIGNMENTS)) {
      if (code.startsWith('kr_')) {
        expect(prefs).toBeNull();
        continue;
      }
      expect(prefs!.length, code).toBeGreaterThan(0);
      for (const pref of prefs!) {
        const entry = findCatalogueEntry(pref.packId);
        expect(entry, `${code} → ${pref.packId}`).toBeDefined();
        expect(() => checkAssignment(code, pref, entry!)).not.toThrow();
      }
    }
  });
});

describe('engineLabel and assignment specs', () => {
  it('labels engine voices', () => {
    expect(engineLabel({ kind: 'espeak' })).toBe('espeak');
    expect(engineLabel({ kind: 'piper', packId: 'vi_VN-vais1000-medium', speaker: 0 })).toBe(
      'piper:vi_VN-vais1000-medium#0',
    );
    expect(
      engineLabel({
        kind: 'kokoro',
        packId: 'kokoro-v1.0-q8',
        voice: 'af_heart',
        voiceFile: 'voices/af_heart.bin',
      }),
    ).toBe('kokoro:kokoro-v1.0-q8#af_heart');
  });

  it('parses <pack id>[#speaker] and checks it against the pack', () => {
    expect(parseAssignment('fr_FR-upmc-medium#pierre')).toEqual({
      packId: 'fr_FR-upmc-medium',
      speaker: 'pierre',
    });
    expect(parseAssignment('vi_VN-vais1000-medium')).toEqual({ packId: 'vi_VN-vais1000-medium' });
    for (const bad of ['', '#x', '../x', 'a#b#c', 'a#'])
      expect(() => parseAssignment(bad), bad).toThrow(/is not <pack id>\[#speaker\]/);
    const upmc = findCatalogueEntry('fr_FR-upmc-medium')!;
    expect(() =>
      checkAssignment('fr_female_camille_default', { packId: upmc.id, speaker: 'marie' }, upmc),
    ).toThrow('fr_FR-upmc-medium has no speaker "marie"');
    expect(() =>
      checkAssignment('fr_female_camille_default', { packId: upmc.id, speaker: '1' }, upmc),
    ).not.toThrow();
    expect(() => checkAssignment('en_female_nova_default', { packId: upmc.id }, upmc)).toThrow(
      'fr_FR-upmc-medium does not speak English',
    );
    const k = findCatalogueEntry('kokoro-v1.0-q8')!;
    expect(() => checkAssignment('en_female_nova_default', { packId: k.id, speaker: 'jf_alpha' }, k)).toThrow(
      'jf_alpha speaks ja_JP, not English',
    );
    expect(() => checkAssignment('kr_female_seo-yeon_default', { packId: k.id }, k)).toThrow(
      'Korean is always eSpeak',
    );
  });
});

describe('assignment overrides on disk', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'voices-assign-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('persist across reads, atomically, and clear cleanly', async () => {
    expect(await loadAssignments(dataDir)).toEqual(emptyAssignments());
    await setAssignment(dataDir, 'fr_female_camille_default', {
      packId: 'fr_FR-upmc-medium',
      speaker: 'pierre',
    });
    await setAssignment(
      dataDir,
      'fr_female_camille_default',
      { packId: 'fr_FR-siwis-low' },
      'std-v1.5-turbo',
    );
    await setAssignment(dataDir, 'vi_female_kieunhi_mn', {
      packId: 'vi_VN-vivos-x_low',
      speaker: 'VIVOSSPK13',
    });
    const expected = {
      format: 1,
      voices: {
        fr_female_camille_default: {
          all: { packId: 'fr_FR-upmc-medium', speaker: 'pierre' },
          models: { 'std-v1.5-turbo': { packId: 'fr_FR-siwis-low' } },
        },
        vi_female_kieunhi_mn: { all: { packId: 'vi_VN-vivos-x_low', speaker: 'VIVOSSPK13' } },
      },
    };
    expect(await loadAssignments(dataDir)).toEqual(expected);
    expect(JSON.parse(readFileSync(join(dataDir, 'voices', 'assignments.json'), 'utf8'))).toEqual(expected);
    expect(readdirSync(join(dataDir, 'voices'))).toEqual(['assignments.json']);

    await setAssignment(dataDir, 'fr_female_camille_default', null, 'std-v1.5-turbo');
    await setAssignment(dataDir, 'vi_female_kieunhi_mn', null);
    expect(await loadAssignments(dataDir)).toEqual({
      format: 1,
      voices: { fr_female_camille_default: { all: { packId: 'fr_FR-upmc-medium', speaker: 'pierre' } } },
    });
  });

  it('reads a damaged file as no overrides, with a warning', async () => {
    mkdirSync(join(dataDir, 'voices'));
    writeFileSync(
      join(dataDir, 'voices', 'assignments.json'),
      '{"format": 1, "voices": {"x": {"all": {"packId": "../no"}}}}',
    );
    const warnings: string[] = [];
    expect(await loadAssignments(dataDir, { info: () => {}, warn: (m) => warnings.push(m) })).toEqual(
      emptyAssignments(),
    );
    expect(warnings).toEqual([
      expect.stringMatching(/assignments\.json: not a voice assignments file; using the default voices$/),
    ]);
    expect(existsSync(join(dataDir, 'voices', 'assignments.json'))).toBe(true);
  });
});

describe('speakers of multi-speaker packs by gender (speaker-metadata.ts)', () => {
  /** vivos as installed from the real `vi_VN-vivos-x_low.onnx.json`: its 65 speaker names and ids. */
  const vivosConfig = JSON.parse(
    readFileSync(join(__dirname, '../../fixtures/onnx/vi_VN-vivos-x_low.onnx.json'), 'utf8'),
  ) as { speaker_id_map: Record<string, number>; num_speakers: number };
  const vivos: PackManifest = { ...installed('vi_VN-vivos-x_low'), speakers: vivosConfig.speaker_id_map };
  const nameOf = (id: number) => Object.entries(vivos.speakers).find(([, i]) => i === id)![0];

  it('gives every Vietnamese code a distinct vivos speaker of its own gender under std-v1.5-turbo', () => {
    expect(vivosConfig.num_speakers).toBe(65);
    const table = SPEAKER_METADATA['vi_VN-vivos']!.genders;
    const chosen = VI.map((code) => {
      const voice = resolveEngineVoice(code, 'std-v1.5-turbo', [vivos]);
      expect(voice.kind).toBe('piper');
      const name = nameOf((voice as { speaker: number }).speaker);
      expect(table[name], `${code} got ${name}`).toBe(findVoice(code)!.gender);
      expect(speakerLabel(vivos, (voice as { speaker: number }).speaker)).toBe(`${name}, ${table[name]}`);
      return name;
    });
    expect(new Set(chosen).size).toBe(VI.length);
    // Before: by index, vi_female_thuytrang_mb (second code) got speaker #1, VIVOSSPK14 (not known female).
    expect(chosen[VI.indexOf('vi_female_thuytrang_mb')]).not.toBe('VIVOSSPK14');
  });

  it('labels speakers whose gender no source gives, and assigns them by index', () => {
    expect(speakerLabel(vivos, 0)).toBe('speaker 0 (VIVOSSPK13), gender unknown');
    const unknown: PackManifest = {
      ...vivos,
      id: 'vi_VN-unlisted-x_low',
      num_speakers: 4,
      speakers: { a: 0, b: 1, c: 2, d: 3 },
    };
    const speakers = VI.map(
      (code) => (resolveEngineVoice(code, 'std-v1.5-turbo', [unknown]) as { speaker: number }).speaker,
    );
    expect(speakers).toEqual(VI.map((_, i) => i % 4));
    expect(speakerLabel(unknown, 2)).toBe('speaker 2 (c), gender unknown');
  });

  it('says in the catalogue how much is known of each pack', () => {
    const coverage = (id: string) => findCatalogueEntry(id)!.speaker_genders;
    expect(coverage('vi_VN-vivos-x_low')).toBe('partial');
    expect(coverage('en_GB-vctk-medium')).toBe('unknown');
    expect(coverage('en_US-libritts_r-medium')).toBe('unknown');
    expect(coverage('vi_VN-vais1000-medium')).toBe('single');
    expect(coverage('kokoro-v1.0-q8')).toBe('known');
    for (const e of CATALOGUE) expect(e.speaker_genders, e.id).toBeDefined();
  });
});
