/**
 * Each catalogue voice code's own character on a neural voice: how its pitch, pace and timbre
 * (formants) differ from the voice pack it is spoken with. With one Vietnamese voice installed
 * the 13 Vietnamese codes all speak with it; this table keeps them apart the way a listener
 * hears it. It is the one place these values live (docs/VOICES-CHARACTER.md explains them and
 * gives the measured differences; test/core/engine/voice-character.test.ts measures them).
 *
 * How the table was chosen:
 * - Pitch is on a ladder of steps about 5.5 % apart (0.85 · 0.90 · 0.95 · 1 · 1.055 · 1.11 ·
 *   1.17); pace on three steps 7 % apart (0.93 · 1 · 1.07). No two codes of one language share
 *   both a pitch step and a pace step, so every pair differs by ≥ 5 % in pitch or ≥ 7 % in pace.
 * - Male codes take the lower pitch steps with darker formants (a longer vocal tract), female
 *   codes the upper ones with brighter formants; formants move less than pitch (as between
 *   real speakers), and never beyond ±8 %.
 * - The OpenAI-style codes (echo, nova, onyx) stay mild (within 7 % of the voice as trained):
 *   on Kokoro they already are distinct speakers. Nova is the voice as trained.
 * - A language with one code (Chinese, Japanese, Korean, French, Spanish) keeps its voice as
 *   trained.
 */

import { VOICES } from '../../shared/voices';

/** How a voice code reshapes a neural voice; every ratio 1 is the voice as trained. */
export interface VoiceCharacter {
  /** Median F0 × this (formants kept apart from it: see `formant`). */
  pitch: number;
  /** Speaking rate × this (duration ÷ it), through the model's own length scale or speed. */
  pace: number;
  /** Formant frequencies (the spectral envelope) × this: below 1 darker, above 1 brighter. */
  formant: number;
}

/** Bounds the engine holds a character to (a character from elsewhere is clamped into them). */
export const CHARACTER_LIMITS: Readonly<Record<keyof VoiceCharacter, readonly [min: number, max: number]>> = {
  pitch: [0.8, 1.25],
  pace: [0.85, 1.15],
  formant: [0.88, 1.12],
};

type Row = [code: string, pitch: number, pace: number, formant: number];

/** pitch · pace · formant per code (see the module's comment for how they were chosen). */
const ROWS: Row[] = [
  ['vi_male_lehoang_mb', 0.9, 1, 0.94],
  ['vi_female_thuytrang_mb', 1.055, 0.93, 1.03],
  ['vi_male_minhtriet_mb', 0.85, 1.07, 0.95],
  ['vi_male_echo_default', 0.95, 1.07, 0.98],
  ['vi_female_nova_default', 1, 1, 1],
  ['vi_male_onyx_default', 0.95, 0.93, 0.97],
  ['vi_female_hacuc_mb', 1, 0.93, 0.98],
  ['vi_male_ductrong_mb', 0.85, 0.93, 0.92],
  ['vi_female_kieunhi_mn', 1.055, 1.07, 1.04],
  ['vi_female_huyenanh_mb', 1.11, 1, 1.05],
  ['vi_female_halinh_mb', 1.055, 1, 1.02],
  ['vi_female_hoaian_mb', 1.17, 0.93, 1.06],
  ['vi_female_khanhhuyentvc_mb', 1.11, 1.07, 1.04],
  ['en_male_echo_default', 0.95, 1.07, 0.98],
  ['en_female_nova_default', 1, 1, 1],
  ['en_male_onyx_default', 0.95, 0.93, 0.97],
  ['en_female_emily_us', 1.055, 1, 1.02],
  ['en_female_alice_default', 1, 0.93, 0.99],
  ['en_female_jessica_au', 1.11, 1.07, 1.04],
  ['en_female_elara_br', 1.055, 0.93, 1.03],
  ['en_female_meera_indian', 1.11, 0.93, 1.02],
  ['zh_female_liu-ying_default', 1, 1, 1],
  ['jp_female_yuki_default', 1, 1, 1],
  ['kr_female_seo-yeon_default', 1, 1, 1],
  ['fr_female_camille_default', 1, 1, 1],
  ['es_female_elana_default', 1, 1, 1],
];

/** The table, by voice code. */
export const VOICE_CHARACTERS: ReadonlyMap<string, Readonly<VoiceCharacter>> = new Map(
  ROWS.map(([code, pitch, pace, formant]) => [code, Object.freeze({ pitch, pace, formant })]),
);

if (VOICES.some((v) => !VOICE_CHARACTERS.has(v.voice_code)) || VOICE_CHARACTERS.size !== VOICES.length) {
  throw new Error('the voice character table must name every catalogue voice code once');
}

/** The character of a catalogue voice code (a copy); undefined for a code not in the catalogue. */
export function voiceCharacter(voiceCode: string): VoiceCharacter | undefined {
  const character = VOICE_CHARACTERS.get(voiceCode);
  return character && { ...character };
}

/** True when `character` leaves the voice as trained (absent, or every ratio 1). */
export function isNeutralCharacter(character: VoiceCharacter | undefined): boolean {
  return !character || (character.pitch === 1 && character.pace === 1 && character.formant === 1);
}

/** `character` with each ratio held to CHARACTER_LIMITS (a non-finite ratio counts as 1). */
export function limitCharacter(character: VoiceCharacter): VoiceCharacter {
  const hold = (key: keyof VoiceCharacter) => {
    const [min, max] = CHARACTER_LIMITS[key];
    const value = Number.isFinite(character[key]) ? character[key] : 1;
    return Math.min(max, Math.max(min, value));
  };
  return { pitch: hold('pitch'), pace: hold('pace'), formant: hold('formant') };
}
